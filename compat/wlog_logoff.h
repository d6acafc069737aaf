/* wlog_logoff.h -- FreeRDP 2.11 logs the end of a session the client logged off as errors: the
 * server's Set Error Info ERRINFO_LOGOFF_BY_USER (twice, then "already set"), then the Deactivate
 * All that follows failing and the transport's receive callback failing -- five [ERROR] lines for
 * every clean logoff. The agent's WLog output goes through a callback appender that prints what the
 * console appender would (prefix and text, on stderr), except those lines while the session is
 * logging off: they are demoted to [INFO] (shown only when WLOG_LEVEL asks for INFO or lower). The
 * same lines at logon (a refused password) or for a logoff nobody asked for stay errors. */
#ifndef SESSMAX_COMPAT_WLOG_LOGOFF_H
#define SESSMAX_COMPAT_WLOG_LOGOFF_H

#include <stddef.h>
#include <stdint.h>

/* Per thread: what the filter knows about the FreeRDP call running now. */
struct wlog_logoff_state {
    int ending;     /* the session in freerdp_check_event_handles is logging off */
    int seen;       /* an expected logoff error info was logged in this call */
};

/* Makes the root logger's appender the filtering callback (stderr); once per process, before the
 * first connect. The level is left as it is. */
void wlog_logoff_install(void);
/* This thread, around freerdp_check_event_handles: 1 when the session is logging off, 0 after. */
void wlog_logoff_expect(int ending);
/* 1 when a line of `level` (WLOG_*) with `text` is an expected logoff line under st (st updated). */
int wlog_logoff_demote(struct wlog_logoff_state *st, uint32_t level, const char *text);
/* The prefix WLog made with its level "[ERROR]" (or any "[...]" level tag) written as "[INFO]",
 * into out. */
void wlog_logoff_relabel(const char *prefix, char *out, size_t outlen);

#endif

/* wlog_logoff.c -- FreeRDP's logoff lines demoted from [ERROR] to [INFO] while the session logs off
 * (wlog_logoff.h): the root logger's callback appender and its per-thread filter. */
#include "compat/wlog_logoff.h"

#include <stdio.h>
#include <string.h>

#include <winpr/wlog.h>

/* The Set Error Info codes a logoff the client asked for ends with (agent/rdp/failure.c counts
 * them as a clean end only then), and what FreeRDP 2.11 logs after them in the same call. */
static const char *const EXPECTED[] = {
    "ERRINFO_LOGOFF_BY_USER", "ERRINFO_RPC_INITIATED_LOGOFF", "ERRINFO_RPC_INITIATED_DISCONNECT_BY_USER",
};
static const char *const AFTERMATH[] = {
    "rdp_recv_deactivate_all() fail", "transport->ReceiveCallback() - -1",
};

static _Thread_local struct wlog_logoff_state thread_state;

static int has_any(const char *text, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strstr(text, list[i]))
            return 1;
    return 0;
}

int wlog_logoff_demote(struct wlog_logoff_state *st, uint32_t level, const char *text)
{
    if (!st->ending || level < WLOG_WARN || !text)
        return 0;
    if (has_any(text, EXPECTED, sizeof EXPECTED / sizeof EXPECTED[0])) {
        st->seen = 1;
        return 1;
    }
    return st->seen && has_any(text, AFTERMATH, sizeof AFTERMATH / sizeof AFTERMATH[0]);
}

void wlog_logoff_relabel(const char *prefix, char *out, size_t outlen)
{
    const char *tag = strstr(prefix, "[ERROR]");
    if (!tag)
        tag = strstr(prefix, "[WARN]");
    if (!tag) {
        snprintf(out, outlen, "%s", prefix);
        return;
    }
    const char *end = strchr(tag, ']') + 1;
    snprintf(out, outlen, "%.*s[INFO]%s", (int)(tag - prefix), prefix, end);
}

void wlog_logoff_expect(int ending)
{
    thread_state.ending = ending;
    thread_state.seen = 0;
}

/* What WinPR's console appender prints (prefix, text, newline on stderr), but the demoted lines. */
static BOOL on_message(const wLogMessage *msg)
{
    const char *prefix = msg->PrefixString ? msg->PrefixString : "";
    const char *text = msg->TextString ? msg->TextString : "";
    if (!wlog_logoff_demote(&thread_state, msg->Level, text)) {
        fprintf(stderr, "%s%s\n", prefix, text);
        return TRUE;
    }
    if (WLog_GetLogLevel(WLog_GetRoot()) <= WLOG_INFO) {
        char p[512];
        wlog_logoff_relabel(prefix, p, sizeof p);
        fprintf(stderr, "%s%s\n", p, text);
    }
    return TRUE;
}

void wlog_logoff_install(void)
{
    static wLogCallbacks callbacks = { .message = on_message };
    wLog *root = WLog_GetRoot();
    WLog_SetLogAppenderType(root, WLOG_APPENDER_CALLBACK);
    wLogAppender *app = WLog_GetLogAppender(root);
    if (app)
        WLog_ConfigureAppender(app, "callbacks", &callbacks);
}

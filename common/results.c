/* results.c -- fixed names of failure reasons, session events and logon phases (what SQLite stores). */
#include "common/results.h"

#include <string.h>

static const char *const reason_names[FAIL__COUNT] = {
    [FAIL_NONE] = "none",
    [FAIL_AUTH] = "auth",
    [FAIL_TLS] = "tls",
    [FAIL_CONNECT] = "connect",
    [FAIL_CONNECT_TIMEOUT] = "connect_timeout",
    [FAIL_LOGON_TIMEOUT] = "logon_timeout",
    [FAIL_DISCONNECT] = "disconnect",
    [FAIL_WAIT_TIMEOUT] = "wait_timeout",
    [FAIL_REFUSED] = "refused",
    [FAIL_REPLACED] = "replaced",
    [FAIL_PROTOCOL] = "protocol",
    [FAIL_LOST] = "lost",
    [FAIL_ABORTED] = "aborted",
    [FAIL_INTERNAL] = "internal",
    [FAIL_CLIENT_EXIT] = "client_exit",
    [FAIL_CLIENT_TIMEOUT] = "client_timeout",
    [FAIL_XSERVER] = "xserver",
    [FAIL_LOGOFF_INCOMPLETE] = "logoff_incomplete",
};

const char *failure_reason_name(enum failure_reason r)
{
    return (r >= 0 && r < FAIL__COUNT) ? reason_names[r] : "internal";
}

enum failure_reason failure_reason_parse(const char *name)
{
    for (int i = 0; i < FAIL__COUNT; i++)
        if (strcmp(reason_names[i], name) == 0)
            return (enum failure_reason)i;
    return FAIL_INTERNAL;
}

const char *session_event_name(enum session_event_kind k)
{
    switch (k) {
    case SESSION_LAUNCHED: return "launched";
    case SESSION_ACTIVE: return "active";
    case SESSION_FAILED: return "failed";
    case SESSION_LOGOFF: return "logoff";
    case SESSION_ENDED: return "ended";
    }
    return "unknown";
}

const char *logon_phase_name(enum logon_phase p)
{
    static const char *const names[LOGON__PHASES] = {
        [LOGON_WAIT] = "wait", [LOGON_TCP] = "tcp", [LOGON_SECURITY] = "security",
        [LOGON_RDP] = "rdp", [LOGON_PAINT] = "paint", [LOGON_DESKTOP] = "desktop",
    };
    return p >= 0 && p < LOGON__PHASES ? names[p] : NULL;
}

/* failure.c -- FreeRDP last-error / ERRINFO / logon error / errno / watchdog -> failure_reason.
 * Precedence: what we decided ourselves (certificate refusal, watchdog) beats what the server
 * told us (logon error, Set Error Info), which beats FreeRDP's last error, which beats errno. */
#include "agent/rdp/failure.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <freerdp/error.h>
#include <freerdp/freerdp.h>
#include <freerdp/settings.h>

/* An unrequested server logoff: see failure.h. */
static int unrequested_logoff(const struct failure_facts *f)
{
    if (f->relogged_by)
        return FAIL_REPLACED;
    return f->connected && !f->desktop_ready ? FAIL_AUTH : FAIL_DISCONNECT;
}

/* Server Set Error Info codes. -1: not decisive here. */
static int from_error_info(uint32_t info, const struct failure_facts *f)
{
    switch (info) {
    case ERRINFO_SERVER_INSUFFICIENT_PRIVILEGES:
    case ERRINFO_SERVER_FRESH_CREDENTIALS_REQUIRED:
        return FAIL_AUTH;
    case ERRINFO_SERVER_DENIED_CONNECTION:
        return FAIL_REFUSED;
    case ERRINFO_DISCONNECTED_BY_OTHER_CONNECTION:
        return FAIL_REPLACED;
    case ERRINFO_LOGOFF_BY_USER:
        return f->logoff_requested ? FAIL_NONE : unrequested_logoff(f);
    case ERRINFO_RPC_INITIATED_LOGOFF:
    case ERRINFO_RPC_INITIATED_DISCONNECT_BY_USER:
        return f->logoff_requested ? FAIL_NONE : FAIL_DISCONNECT;
    case ERRINFO_RPC_INITIATED_DISCONNECT:
    case ERRINFO_IDLE_TIMEOUT:
    case ERRINFO_LOGON_TIMEOUT:
        return FAIL_DISCONNECT;
    case ERRINFO_SUCCESS:
        return -1;
    default:
        /* 0x1000+ are protocol errors the server found in our data or its own */
        return info >= 0x1000 ? FAIL_PROTOCOL : FAIL_DISCONNECT;
    }
}

/* FreeRDP last error of the CONNECT class. -1: not decisive. */
static int from_connect_error(uint32_t type, const struct failure_facts *f)
{
    switch (type) {
    case ERRCONNECT_AUTHENTICATION_FAILED:
    case ERRCONNECT_INSUFFICIENT_PRIVILEGES:
    case ERRCONNECT_PASSWORD_EXPIRED:
    case ERRCONNECT_PASSWORD_CERTAINLY_EXPIRED:
    case ERRCONNECT_CLIENT_REVOKED:
    case ERRCONNECT_KDC_UNREACHABLE:
    case ERRCONNECT_ACCOUNT_DISABLED:
    case ERRCONNECT_PASSWORD_MUST_CHANGE:
    case ERRCONNECT_LOGON_FAILURE:
    case ERRCONNECT_WRONG_PASSWORD:
    case ERRCONNECT_ACCESS_DENIED:
    case ERRCONNECT_ACCOUNT_RESTRICTION:
    case ERRCONNECT_ACCOUNT_LOCKED_OUT:
    case ERRCONNECT_ACCOUNT_EXPIRED:
    case ERRCONNECT_LOGON_TYPE_NOT_GRANTED:
    case ERRCONNECT_NO_OR_MISSING_CREDENTIALS:
        return FAIL_AUTH;
    case ERRCONNECT_TLS_CONNECT_FAILED:
        return FAIL_TLS;
    case ERRCONNECT_CONNECT_CANCELLED:
        return f->logoff_requested ? FAIL_ABORTED : FAIL_CONNECT;
    case ERRCONNECT_POST_CONNECT_FAILED:
        return FAIL_INTERNAL;
    case ERRCONNECT_PRE_CONNECT_FAILED:
    case ERRCONNECT_CONNECT_UNDEFINED:
    case ERRCONNECT_DNS_ERROR:
    case ERRCONNECT_DNS_NAME_NOT_FOUND:
    case ERRCONNECT_CONNECT_FAILED:
    case ERRCONNECT_MCS_CONNECT_INITIAL_ERROR:
    case ERRCONNECT_SECURITY_NEGO_CONNECT_FAILED:
    case ERRCONNECT_CONNECT_TRANSPORT_FAILED:
        return f->connected ? FAIL_DISCONNECT : FAIL_CONNECT;
    default:
        return -1;
    }
}

static int from_errno(int e, int connected)
{
    switch (e) {
    case 0:
        return -1;
    case ETIMEDOUT:
        return connected ? FAIL_DISCONNECT : FAIL_CONNECT_TIMEOUT;
    case ECONNREFUSED:
    case EHOSTUNREACH:
    case ENETUNREACH:
    case EADDRNOTAVAIL:
        return FAIL_CONNECT;
    default:
        return connected ? FAIL_DISCONNECT : FAIL_CONNECT;
    }
}

/* A Save Session Info logon error (MS-RDPBCGR 2.2.10.1.1.4.1.1 TS_LOGON_ERRORS_INFO): the type is
 * a LOGON_MSG_* arbitration code, whose data is a session id (LOGON_MSG_SESSION_CONTINUE with
 * data 2 is "the logon goes on in session 2", not LOGON_FAILED_OTHER), or ERROR_CODE_ACCESS_DENIED,
 * or an NTSTATUS with a LOGON_FAILED_* code in the data. The name of the code that refused the
 * logon, or NULL when the error is no authentication failure. */
#define LOGON_ERROR_ACCESS_DENIED 0xFFFFFFFFu     /* ERROR_CODE_ACCESS_DENIED: data ignored */
#define LOGON_MSG_FIRST 0xFFFFFFF8u               /* LOGON_MSG_SESSION_BUSY_OPTIONS */

static const struct { uint32_t status; const char *name; } AUTH_NTSTATUS[] = {
    { 0xC000006Du, "STATUS_LOGON_FAILURE" },        { 0xC000006Au, "STATUS_WRONG_PASSWORD" },
    { 0xC0000064u, "STATUS_NO_SUCH_USER" },         { 0xC000006Eu, "STATUS_ACCOUNT_RESTRICTION" },
    { 0xC000006Fu, "STATUS_INVALID_LOGON_HOURS" },  { 0xC0000070u, "STATUS_INVALID_WORKSTATION" },
    { 0xC0000071u, "STATUS_PASSWORD_EXPIRED" },     { 0xC0000072u, "STATUS_ACCOUNT_DISABLED" },
    { 0xC0000193u, "STATUS_ACCOUNT_EXPIRED" },      { 0xC0000224u, "STATUS_PASSWORD_MUST_CHANGE" },
    { 0xC0000234u, "STATUS_ACCOUNT_LOCKED_OUT" },   { 0xC000015Bu, "STATUS_LOGON_TYPE_NOT_GRANTED" },
};

static const char *logon_error_auth_name(const struct failure_facts *f)
{
    if (!f->have_logon_error)
        return NULL;
    uint32_t type = f->logon_error_type;
    if (type == LOGON_ERROR_ACCESS_DENIED)
        return "ERROR_CODE_ACCESS_DENIED";
    if (type == LOGON_MSG_NO_PERMISSION)
        return "LOGON_MSG_NO_PERMISSION";
    if (type >= LOGON_MSG_FIRST)
        return NULL;   /* an arbitration dialog or "logon continues": data is a session id */
    for (size_t i = 0; i < sizeof AUTH_NTSTATUS / sizeof AUTH_NTSTATUS[0]; i++)
        if (type == AUTH_NTSTATUS[i].status)
            return AUTH_NTSTATUS[i].name;
    switch (f->logon_error_data) {
    case LOGON_FAILED_BAD_PASSWORD: return "LOGON_FAILED_BAD_PASSWORD";
    case LOGON_FAILED_UPDATE_PASSWORD: return "LOGON_FAILED_UPDATE_PASSWORD";
    case LOGON_FAILED_OTHER: return "LOGON_FAILED_OTHER";
    default: return NULL;   /* LOGON_WARNING: a dialog, the logon goes on */
    }
}

/* The detail for a Set Error Info code: its name, or what an unrequested logoff meant. */
static const char *explain(const struct failure_facts *f, uint32_t info, int r)
{
    if (info == ERRINFO_LOGOFF_BY_USER && !f->logoff_requested) {
        if (r == FAIL_REPLACED)
            return "ERRINFO_LOGOFF_BY_USER: the same user logged on again (a newer session) "
                   "and took the desktop over";
        if (r == FAIL_AUTH)
            return "ERRINFO_LOGOFF_BY_USER before the desktop was ready (xrdp: a wrong password)";
    }
    return freerdp_get_error_info_name(info);
}

static enum failure_reason classify(const struct failure_facts *f, const char **why)
{
    int r;
    uint32_t cls = GET_FREERDP_ERROR_CLASS(f->last_error);
    uint32_t type = GET_FREERDP_ERROR_TYPE(f->last_error);

    if (f->cert_rejected) {
        *why = "server certificate does not match the pinned fingerprint";
        return FAIL_TLS;
    }
    if (f->watchdog && !f->connected) {
        *why = "connect watchdog expired: the server stopped answering";
        return FAIL_CONNECT_TIMEOUT;
    }
    if ((*why = logon_error_auth_name(f)) != NULL)
        return FAIL_AUTH;   /* "LOGON_FAILED_BAD_PASSWORD": the detail says it came as a logon error */
    if (f->error_info && (r = from_error_info(f->error_info, f)) >= 0) {
        *why = explain(f, f->error_info, r);
        return (enum failure_reason)r;
    }
    if (cls == FREERDP_ERROR_ERRINFO_CLASS && type &&
        (r = from_error_info(type, f)) >= 0) {
        *why = explain(f, type, r);
        return (enum failure_reason)r;
    }
    if (cls == FREERDP_ERROR_CONNECT_CLASS && (r = from_connect_error(type, f)) >= 0) {
        *why = freerdp_get_last_error_name(f->last_error);
        return (enum failure_reason)r;
    }
    if ((r = from_errno(f->sys_errno, f->connected)) >= 0) {
        *why = strerror(f->sys_errno);
        return (enum failure_reason)r;
    }
    if (f->connected) {
        *why = f->logoff_requested ? "disconnected after logoff" : "connection closed by the server";
        return f->logoff_requested ? FAIL_NONE : FAIL_DISCONNECT;
    }
    *why = f->last_error ? freerdp_get_last_error_name(f->last_error) : "connect failed";
    return f->logoff_requested ? FAIL_ABORTED : FAIL_CONNECT;
}

int failure_wants_peer_errno(const struct failure_facts *f)
{
    if (f->connected || f->watchdog || f->cert_rejected || f->error_info || f->have_logon_error)
        return 0;
    if (!f->last_error)
        return 1;
    if (GET_FREERDP_ERROR_CLASS(f->last_error) != FREERDP_ERROR_CONNECT_CLASS)
        return 0;
    switch (GET_FREERDP_ERROR_TYPE(f->last_error)) {
    case ERRCONNECT_CONNECT_FAILED:
    case ERRCONNECT_CONNECT_TRANSPORT_FAILED:
    case ERRCONNECT_CONNECT_UNDEFINED:
    case ERRCONNECT_DNS_ERROR:
    case ERRCONNECT_DNS_NAME_NOT_FOUND:
        return 1;
    default:
        return 0;
    }
}

/* "HOST:PORT: connection refused (" before connecting, "" once connected: whom the attempt
 * could not reach, and the errno a plain connect to it got (lower case, inside a sentence). */
static void peer_prefix(const struct failure_facts *f, char *buf, size_t len)
{
    buf[0] = 0;
    if (f->connected || !f->peer || !f->peer[0])
        return;
    if (!f->peer_errno) {
        snprintf(buf, len, "%s: ", f->peer);
        return;
    }
    char sys[128];
    snprintf(sys, sizeof sys, "%s", strerror(f->peer_errno));
    if (sys[0] >= 'A' && sys[0] <= 'Z' && !(sys[1] >= 'A' && sys[1] <= 'Z'))
        sys[0] = (char)(sys[0] - 'A' + 'a');
    snprintf(buf, len, "%s: %s (", f->peer, sys);
}

enum failure_reason failure_classify(const struct failure_facts *f, char *detail, size_t len)
{
    const char *why = "";
    enum failure_reason r = classify(f, &why);
    char peer[400];
    peer_prefix(f, peer, sizeof peer);
    int paren = peer[0] && f->peer_errno;
    /* an auth failure says so in words, then the code that told it (and where it came from) */
    const char *auth = r == FAIL_AUTH ? "authentication failed: " : "";
    const char *via = r == FAIL_AUTH && logon_error_auth_name(f) ? " in the server's logon error info" : "";
    if (detail && len)
        snprintf(detail, len, "%s%s%s%s%slast_error 0x%08x, errinfo 0x%x)", peer, auth, why ? why : "?", via,
                 paren ? ", " : " (", f->last_error, f->error_info);
    return r;
}

int failure_retryable(enum failure_reason r)
{
    return r == FAIL_CONNECT || r == FAIL_CONNECT_TIMEOUT;
}

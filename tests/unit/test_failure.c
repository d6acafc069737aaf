/* test_failure.c -- the error mapping table of agent/rdp/failure.c: each FreeRDP / server / errno /
 * watchdog situation lands on the documented failure_reason, with precedence between them. */
#include <errno.h>
#include <string.h>

#include <freerdp/error.h>
#include <freerdp/settings.h>

#include "agent/rdp/failure.h"
#include "unit.h"

static enum failure_reason cls(struct failure_facts f)
{
    char detail[RESULTS_DETAIL_LEN];
    enum failure_reason r = failure_classify(&f, detail, sizeof detail);
    CU_ASSERT(strlen(detail) > 0);
    return r;
}

/** Table of single-cause failures before the session was connected. */
static void test_failure__connect_table(void)
{
    struct { uint32_t last_error; enum failure_reason want; } t[] = {
        { FREERDP_ERROR_AUTHENTICATION_FAILED, FAIL_AUTH },
        { FREERDP_ERROR_CONNECT_LOGON_FAILURE, FAIL_AUTH },
        { FREERDP_ERROR_CONNECT_WRONG_PASSWORD, FAIL_AUTH },
        { FREERDP_ERROR_CONNECT_ACCESS_DENIED, FAIL_AUTH },
        { FREERDP_ERROR_CONNECT_NO_OR_MISSING_CREDENTIALS, FAIL_AUTH },
        { FREERDP_ERROR_INSUFFICIENT_PRIVILEGES, FAIL_AUTH },
        { FREERDP_ERROR_TLS_CONNECT_FAILED, FAIL_TLS },
        { FREERDP_ERROR_CONNECT_FAILED, FAIL_CONNECT },
        { FREERDP_ERROR_DNS_NAME_NOT_FOUND, FAIL_CONNECT },
        { FREERDP_ERROR_CONNECT_TRANSPORT_FAILED, FAIL_CONNECT },
        { FREERDP_ERROR_SECURITY_NEGO_CONNECT_FAILED, FAIL_CONNECT },
        { FREERDP_ERROR_CONNECT_CANCELLED, FAIL_CONNECT },
        { FREERDP_ERROR_POST_CONNECT_FAILED, FAIL_INTERNAL },
        { FREERDP_ERROR_SERVER_DENIED_CONNECTION, FAIL_REFUSED },
        { FREERDP_ERROR_SERVER_INSUFFICIENT_PRIVILEGES, FAIL_AUTH },
        { 0, FAIL_CONNECT },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        struct failure_facts f = { .last_error = t[i].last_error };
        CU_ASSERT_EQUAL(cls(f), t[i].want);
    }
}

/** Set Error Info from the server decides over the transport error it caused. */
static void test_failure__error_info(void)
{
    struct failure_facts f = { .last_error = FREERDP_ERROR_CONNECT_TRANSPORT_FAILED,
                               .error_info = ERRINFO_SERVER_INSUFFICIENT_PRIVILEGES };
    CU_ASSERT_EQUAL(cls(f), FAIL_AUTH);
    f.error_info = ERRINFO_SERVER_DENIED_CONNECTION;
    CU_ASSERT_EQUAL(cls(f), FAIL_REFUSED);
    f.error_info = ERRINFO_DISCONNECTED_BY_OTHER_CONNECTION;
    CU_ASSERT_EQUAL(cls(f), FAIL_REPLACED);
    f.error_info = 0x10C9;   /* a protocol error code */
    CU_ASSERT_EQUAL(cls(f), FAIL_PROTOCOL);
}

/** A Save Session Info logon error (bad password) is an auth failure whatever else happened;
 * read as MS-RDPBCGR defines TS_LOGON_ERRORS_INFO: an NTSTATUS (or 0) type with a LOGON_FAILED_*
 * code in the data, simhost's form. */
static void test_failure__logon_error(void)
{
    struct failure_facts f = { .have_logon_error = 1,
                               .logon_error_type = 0,
                               .logon_error_data = LOGON_FAILED_BAD_PASSWORD,
                               .error_info = ERRINFO_RPC_INITIATED_DISCONNECT, .connected = 1 };
    CU_ASSERT_EQUAL(cls(f), FAIL_AUTH);
    f.logon_error_data = LOGON_FAILED_UPDATE_PASSWORD;
    CU_ASSERT_EQUAL(cls(f), FAIL_AUTH);
    f.logon_error_data = LOGON_FAILED_OTHER;
    CU_ASSERT_EQUAL(cls(f), FAIL_AUTH);
    f.logon_error_data = LOGON_WARNING;      /* a warning dialog: the logon goes on */
    CU_ASSERT_EQUAL(cls(f), FAIL_DISCONNECT);
}

/** Every logon-error form that refuses the logon is auth: ERROR_CODE_ACCESS_DENIED, the "No
 * Permission" dialog, the NTSTATUS codes of a wrong password, a locked, disabled or expired
 * account; the other LOGON_MSG_* codes carry a session id in the data (LOGON_MSG_SESSION_CONTINUE
 * with data 2 is "the logon goes on in session 2", not LOGON_FAILED_OTHER). */
static void test_failure__logon_error_forms(void)
{
    static const uint32_t auth_types[] = {
        0xFFFFFFFFu /* ERROR_CODE_ACCESS_DENIED */, LOGON_MSG_NO_PERMISSION,
        0xC000006Du /* STATUS_LOGON_FAILURE */, 0xC000006Au /* STATUS_WRONG_PASSWORD */,
        0xC0000071u /* STATUS_PASSWORD_EXPIRED */, 0xC0000224u /* STATUS_PASSWORD_MUST_CHANGE */,
        0xC0000234u /* STATUS_ACCOUNT_LOCKED_OUT */, 0xC0000072u /* STATUS_ACCOUNT_DISABLED */,
        0xC0000193u /* STATUS_ACCOUNT_EXPIRED */, 0xC000006Eu /* STATUS_ACCOUNT_RESTRICTION */,
    };
    for (size_t i = 0; i < sizeof auth_types / sizeof auth_types[0]; i++) {
        struct failure_facts f = { .have_logon_error = 1, .logon_error_type = auth_types[i],
                                   .logon_error_data = 7 /* a session id, ignored */, .connected = 1 };
        CU_ASSERT_EQUAL(cls(f), FAIL_AUTH);
    }
    static const uint32_t going_on[] = { LOGON_MSG_SESSION_CONTINUE, LOGON_MSG_BUMP_OPTIONS,
                                         LOGON_MSG_RECONNECT_OPTIONS, LOGON_MSG_DISCONNECT_REFUSED };
    for (size_t i = 0; i < sizeof going_on / sizeof going_on[0]; i++)
        for (uint32_t session = 0; session < 3; session++) {
            struct failure_facts f = { .have_logon_error = 1, .logon_error_type = going_on[i],
                                       .logon_error_data = session, .connected = 1 };
            CU_ASSERT_EQUAL(cls(f), FAIL_DISCONNECT);   /* dropped later: not the credentials */
        }
}

/** An auth failure's detail says "authentication failed" and names the code, wherever it came
 * from: simhost's logon error (and the Set Error Info 0x9 it sends after it), NLA's errors. */
static void test_failure__auth_detail(void)
{
    char d[RESULTS_DETAIL_LEN];
    struct failure_facts f = { .have_logon_error = 1, .logon_error_data = LOGON_FAILED_BAD_PASSWORD,
                               .error_info = ERRINFO_SERVER_INSUFFICIENT_PRIVILEGES,
                               .last_error = FREERDP_ERROR_SERVER_INSUFFICIENT_PRIVILEGES, .connected = 1 };
    CU_ASSERT_EQUAL(failure_classify(&f, d, sizeof d), FAIL_AUTH);
    CU_ASSERT_STRING_EQUAL(d, "authentication failed: LOGON_FAILED_BAD_PASSWORD in the server's logon error "
                              "info (last_error 0x00010009, errinfo 0x9)");
    struct failure_facts g = { .error_info = ERRINFO_SERVER_INSUFFICIENT_PRIVILEGES, .connected = 1 };
    CU_ASSERT_EQUAL(failure_classify(&g, d, sizeof d), FAIL_AUTH);
    CU_ASSERT_EQUAL(strncmp(d, "authentication failed: ERRINFO_SERVER_INSUFFICIENT_PRIVILEGES", 61), 0);
    static const uint32_t nla[] = { FREERDP_ERROR_CONNECT_LOGON_FAILURE, FREERDP_ERROR_CONNECT_WRONG_PASSWORD,
                                    FREERDP_ERROR_CONNECT_PASSWORD_EXPIRED, FREERDP_ERROR_CONNECT_ACCOUNT_LOCKED_OUT,
                                    FREERDP_ERROR_CONNECT_ACCOUNT_DISABLED, FREERDP_ERROR_CONNECT_ACCOUNT_EXPIRED,
                                    FREERDP_ERROR_CONNECT_PASSWORD_MUST_CHANGE, FREERDP_ERROR_AUTHENTICATION_FAILED,
                                    FREERDP_ERROR_CONNECT_ACCOUNT_RESTRICTION, FREERDP_ERROR_CONNECT_LOGON_TYPE_NOT_GRANTED,
                                    FREERDP_ERROR_CONNECT_PASSWORD_CERTAINLY_EXPIRED, FREERDP_ERROR_CONNECT_CLIENT_REVOKED };
    for (size_t i = 0; i < sizeof nla / sizeof nla[0]; i++) {
        struct failure_facts n = { .last_error = nla[i], .peer = "10.0.0.5:3389" };
        CU_ASSERT_EQUAL(failure_classify(&n, d, sizeof d), FAIL_AUTH);
        CU_ASSERT_EQUAL(strncmp(d, "10.0.0.5:3389: authentication failed: ERRCONNECT_", 49), 0);
        CU_ASSERT_EQUAL(failure_wants_peer_errno(&n), 0);
    }
}

/** The watchdog beats the cancel error it provoked; a pin refusal beats everything. */
static void test_failure__watchdog_and_pin(void)
{
    struct failure_facts f = { .watchdog = 1, .last_error = FREERDP_ERROR_CONNECT_CANCELLED };
    CU_ASSERT_EQUAL(cls(f), FAIL_CONNECT_TIMEOUT);
    f.cert_rejected = 1;
    CU_ASSERT_EQUAL(cls(f), FAIL_TLS);
    struct failure_facts g = { .cert_rejected = 1,
                               .last_error = FREERDP_ERROR_CONNECT_TRANSPORT_FAILED };
    CU_ASSERT_EQUAL(cls(g), FAIL_TLS);
}

/** errno is the last resort. */
static void test_failure__errno(void)
{
    struct failure_facts f = { .sys_errno = ECONNREFUSED };
    CU_ASSERT_EQUAL(cls(f), FAIL_CONNECT);
    f.sys_errno = ETIMEDOUT;
    CU_ASSERT_EQUAL(cls(f), FAIL_CONNECT_TIMEOUT);
    f.sys_errno = EHOSTUNREACH;
    CU_ASSERT_EQUAL(cls(f), FAIL_CONNECT);
    f.connected = 1;
    f.sys_errno = ECONNRESET;
    CU_ASSERT_EQUAL(cls(f), FAIL_DISCONNECT);
}

/** xrdp's unrequested logoffs: a newer logon of the same user (replaced), a wrong password
 * answered before any desktop (auth), anything else (disconnect); a requested logoff stays clean. */
static void test_failure__xrdp_logoffs(void)
{
    struct failure_facts f = { .connected = 1, .error_info = ERRINFO_LOGOFF_BY_USER,
                               .desktop_ready = 1, .relogged_by = 3 };
    char d[256];
    CU_ASSERT_EQUAL(failure_classify(&f, d, sizeof d), FAIL_REPLACED);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "logged on again"));
    f.desktop_ready = 0;                      /* taken over while still logging on */
    CU_ASSERT_EQUAL(cls(f), FAIL_REPLACED);
    f.relogged_by = 0;                        /* dropped before the desktop, nobody else */
    CU_ASSERT_EQUAL(failure_classify(&f, d, sizeof d), FAIL_AUTH);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "wrong password"));
    f.desktop_ready = 1;
    CU_ASSERT_EQUAL(cls(f), FAIL_DISCONNECT);
    f.relogged_by = 2;
    f.logoff_requested = 1;                   /* we asked: clean, whoever else exists */
    CU_ASSERT_EQUAL(cls(f), FAIL_NONE);
    /* the same code only in FreeRDP's last error (ERRINFO class) classifies alike */
    struct failure_facts g = { .connected = 1, .last_error = FREERDP_ERROR_LOGOFF_BY_USER };
    CU_ASSERT_EQUAL(cls(g), FAIL_AUTH);
    g.relogged_by = 1;
    CU_ASSERT_EQUAL(cls(g), FAIL_REPLACED);
}

/** A running session that drops is a disconnect, unless we asked for the logoff. */
static void test_failure__disconnect_vs_logoff(void)
{
    struct failure_facts f = { .connected = 1, .error_info = ERRINFO_LOGOFF_BY_USER,
                               .last_error = FREERDP_ERROR_LOGOFF_BY_USER, .desktop_ready = 1 };
    CU_ASSERT_EQUAL(cls(f), FAIL_DISCONNECT);
    f.logoff_requested = 1;
    CU_ASSERT_EQUAL(cls(f), FAIL_NONE);
    struct failure_facts g = { .connected = 1 };
    CU_ASSERT_EQUAL(cls(g), FAIL_DISCONNECT);
    g.logoff_requested = 1;
    CU_ASSERT_EQUAL(cls(g), FAIL_NONE);
    struct failure_facts h = { .connected = 1, .error_info = ERRINFO_SERVER_DENIED_CONNECTION,
                               .logoff_requested = 1 };
    CU_ASSERT_EQUAL(cls(h), FAIL_REFUSED);
}

/** Only connect problems are retried; never auth, TLS or refused. */
static void test_failure__retry_policy(void)
{
    CU_ASSERT_TRUE(failure_retryable(FAIL_CONNECT));
    CU_ASSERT_TRUE(failure_retryable(FAIL_CONNECT_TIMEOUT));
    CU_ASSERT_FALSE(failure_retryable(FAIL_AUTH));
    CU_ASSERT_FALSE(failure_retryable(FAIL_TLS));
    CU_ASSERT_FALSE(failure_retryable(FAIL_REFUSED));
    CU_ASSERT_FALSE(failure_retryable(FAIL_DISCONNECT));
    CU_ASSERT_FALSE(failure_retryable(FAIL_NONE));
}

/** The detail names the code and never overflows its buffer. */
static void test_failure__detail(void)
{
    struct failure_facts f = { .last_error = FREERDP_ERROR_TLS_CONNECT_FAILED };
    char d[RESULTS_DETAIL_LEN];
    failure_classify(&f, d, sizeof d);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "0x0002"));
    char tiny[8];
    memset(tiny, 'x', sizeof tiny);
    failure_classify(&f, tiny, sizeof tiny);
    CU_ASSERT_EQUAL(tiny[7], '\0');
    CU_ASSERT_EQUAL(failure_classify(&f, NULL, 0), FAIL_TLS);
}

/** A connect that did not reach the peer: the detail names the peer and the errno a plain connect
 * got (FreeRDP 2.11 keeps only its error name), and only such failures ask for that errno. */
static void test_failure__peer_detail(void)
{
    struct failure_facts f = { .last_error = FREERDP_ERROR_CONNECT_TRANSPORT_FAILED, .peer = "10.0.0.5:3389" };
    CU_ASSERT_TRUE(failure_wants_peer_errno(&f));
    f.peer_errno = ECONNREFUSED;
    char d[RESULTS_DETAIL_LEN];
    CU_ASSERT_EQUAL(failure_classify(&f, d, sizeof d), FAIL_CONNECT);
    CU_ASSERT_STRING_EQUAL(d, "10.0.0.5:3389: connection refused (ERRCONNECT_CONNECT_TRANSPORT_FAILED, "
                              "last_error 0x0002000d, errinfo 0x0)");
    f.peer_errno = 0;                          /* not learnt: still the peer */
    failure_classify(&f, d, sizeof d);
    CU_ASSERT_EQUAL(strncmp(d, "10.0.0.5:3389: ERRCONNECT_CONNECT_TRANSPORT_FAILED (", 51), 0);
    struct failure_facts none = { .peer = "h:1" };   /* no FreeRDP error at all */
    CU_ASSERT_TRUE(failure_wants_peer_errno(&none));
    /* reached it: auth, TLS, a watchdog, a pin, the server's own error, or a running session */
    struct failure_facts no[] = {
        { .last_error = FREERDP_ERROR_CONNECT_LOGON_FAILURE }, { .last_error = FREERDP_ERROR_TLS_CONNECT_FAILED },
        { .last_error = FREERDP_ERROR_CONNECT_TRANSPORT_FAILED, .watchdog = 1 },
        { .last_error = FREERDP_ERROR_CONNECT_TRANSPORT_FAILED, .cert_rejected = 1 },
        { .last_error = FREERDP_ERROR_CONNECT_TRANSPORT_FAILED, .error_info = ERRINFO_SERVER_DENIED_CONNECTION },
        { .last_error = FREERDP_ERROR_CONNECT_TRANSPORT_FAILED, .connected = 1 },
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        CU_ASSERT_FALSE(failure_wants_peer_errno(&no[i]));
    struct failure_facts running = { .connected = 1, .peer = "h:1", .peer_errno = ECONNREFUSED };
    failure_classify(&running, d, sizeof d);   /* once connected the peer is not the story */
    CU_ASSERT_PTR_NULL(strstr(d, "h:1"));
    CU_ASSERT_PTR_NULL(strstr(d, "refused"));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_failure__connect_table), UNIT_TEST(test_failure__error_info),
        UNIT_TEST(test_failure__logon_error), UNIT_TEST(test_failure__logon_error_forms),
        UNIT_TEST(test_failure__auth_detail), UNIT_TEST(test_failure__watchdog_and_pin),
        UNIT_TEST(test_failure__errno), UNIT_TEST(test_failure__disconnect_vs_logoff),
        UNIT_TEST(test_failure__xrdp_logoffs),
        UNIT_TEST(test_failure__retry_policy), UNIT_TEST(test_failure__detail),
        UNIT_TEST(test_failure__peer_detail), UNIT_END,
    };
    return unit_run("failure", tests, NULL, NULL);
}

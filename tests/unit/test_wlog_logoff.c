/* test_wlog_logoff.c -- the filter of FreeRDP's logoff lines: while a session logs off, the
 * expected Set Error Info codes and the two failures FreeRDP logs after them are demoted; the same
 * lines at logon, before such a code or below WARN, are not; the prefix's level tag is relabelled. */
#include <string.h>

#include <winpr/wlog.h>

#include "compat/wlog_logoff.h"
#include "unit.h"

static const char *INFO_LINE = "rdp_recv_set_error_info_data: ERRINFO_LOGOFF_BY_USER (0x0000000C):The user logged off.";
static const char *DEACTIVATE = "rdp_recv_pdu: rdp_recv_deactivate_all() fail";
static const char *RECEIVE = "transport_check_fds: transport->ReceiveCallback() - -1";

/** Logging off: the error info line and what follows it are demoted. */
static void test_wlog_logoff__logging_off(void)
{
    struct wlog_logoff_state st = { .ending = 1 };
    CU_ASSERT_TRUE(wlog_logoff_demote(&st, WLOG_ERROR, INFO_LINE));
    CU_ASSERT_TRUE(wlog_logoff_demote(&st, WLOG_ERROR, DEACTIVATE));
    CU_ASSERT_TRUE(wlog_logoff_demote(&st, WLOG_ERROR, RECEIVE));
    CU_ASSERT_FALSE(wlog_logoff_demote(&st, WLOG_ERROR, "tls_read: certificate verify failed"));
}

/** Not logging off (a logoff nobody asked for, a refused logon): every line stays an error. */
static void test_wlog_logoff__not_logging_off(void)
{
    struct wlog_logoff_state st = { .ending = 0 };
    CU_ASSERT_FALSE(wlog_logoff_demote(&st, WLOG_ERROR, INFO_LINE));
    CU_ASSERT_FALSE(wlog_logoff_demote(&st, WLOG_ERROR, DEACTIVATE));
}

/** The aftermath alone (no expected error info first) stays an error; INFO lines are left alone. */
static void test_wlog_logoff__aftermath_needs_the_code(void)
{
    struct wlog_logoff_state st = { .ending = 1 };
    CU_ASSERT_FALSE(wlog_logoff_demote(&st, WLOG_ERROR, RECEIVE));
    CU_ASSERT_FALSE(wlog_logoff_demote(&st, WLOG_INFO, INFO_LINE));
    CU_ASSERT_FALSE(wlog_logoff_demote(&st, WLOG_ERROR, NULL));
}

/** "[12:00:00:000] [1:2] [ERROR][com.freerdp.core] - " keeps all but its level tag. */
static void test_wlog_logoff__relabel(void)
{
    char out[128];
    wlog_logoff_relabel("[12:00:00:000] [1:2] [ERROR][com.freerdp.core] - ", out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "[12:00:00:000] [1:2] [INFO][com.freerdp.core] - ");
    wlog_logoff_relabel("[WARN][x] - ", out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "[INFO][x] - ");
    wlog_logoff_relabel("no tag - ", out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "no tag - ");
    wlog_logoff_relabel("[ERROR][a] - ", out, 4);
    CU_ASSERT_STRING_EQUAL(out, "[IN");
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_wlog_logoff__logging_off), UNIT_TEST(test_wlog_logoff__not_logging_off),
        UNIT_TEST(test_wlog_logoff__aftermath_needs_the_code), UNIT_TEST(test_wlog_logoff__relabel),
        UNIT_END,
    };
    return unit_run("wlog_logoff", tests, NULL, NULL);
}

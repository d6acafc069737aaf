/* test_sim_appstart.c -- appstart's files and result window, and the fair-share throttle's
 * accounting: each I/O books 2000 us + bytes / 8 MiB/s (8192 bytes -> 976 us) after the
 * previous booking (or now, if later); off books nothing. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "simhost/desktop/appstart.h"

static void test_sim_appstart__throttle(void)
{
    struct sim_fairshare off = { 0, 0 }, on = { 1, 0 };
    sim_fairshare_io(&off, 8192);
    CU_ASSERT_EQUAL(off.next_us, 0);
    uint64_t t0 = clock_now_us();
    sim_fairshare_io(&on, 8192);
    uint64_t first = on.next_us;
    CU_ASSERT(first >= t0 + 2976);
    sim_fairshare_io(&on, 8192);
    uint64_t second = on.next_us;
    CU_ASSERT(second >= first + 2976);                  /* booked after the first (and after now) */
    sim_fairshare_io(&on, 0);
    CU_ASSERT(on.next_us >= second + 2000);             /* 2000 us for an empty I/O */
    CU_ASSERT(clock_now_us() >= on.next_us);            /* it waited for its slot */
}

static void test_sim_appstart__run(void)
{
    char dir[] = "/tmp/test_sim_appstart.XXXXXX", err[256], cmd[128];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    struct sim_app_out out;
    CU_ASSERT_EQUAL(sim_appstart_run(dir, 0, 1, &out), -1);             /* not prepared: error window */
    CU_ASSERT_EQUAL(out.title_rgb, SIM_RGB_ERROR_TITLE);
    CU_ASSERT_EQUAL(sim_appstart_prepare(dir, err, sizeof err), 0);
    CU_ASSERT_EQUAL(sim_appstart_prepare(dir, err, sizeof err), 0);     /* kept */
    CU_ASSERT_EQUAL(sim_appstart_run(dir, 0, 7, &out), 0);
    CU_ASSERT_STRING_EQUAL(out.title, "Application");
    CU_ASSERT_PTR_NOT_NULL(strstr(out.line[0], "appstart #7: 300 files, 2457600 bytes read"));
    CU_ASSERT_PTR_NULL(strstr(out.line[0], "fair share"));
    CU_ASSERT_EQUAL(sim_appstart_run(dir, 1, 8, &out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out.line[0], "disk fair share on"));
    CU_ASSERT_EQUAL(sim_appstart_prepare("/nonexistent/x", err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/x/app"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_appstart__throttle), UNIT_TEST(test_sim_appstart__run), UNIT_END,
    };
    return unit_run("sim_appstart", tests, NULL, NULL);
}

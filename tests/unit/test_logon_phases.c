/* test_logon_phases.c -- a logon's marks into its phases: every mark seen, marks missing (their
 * phase -1, the next one starting at the last boundary seen), marks out of order, a new TCP
 * connection forgetting the later marks, the first paint only once active. */
#include "agent/engine/logon_phases.h"
#include "unit.h"

static int64_t sum(const int64_t *p)
{
    int64_t s = 0;
    for (int i = 0; i < LOGON__PHASES; i++)
        s += p[i] > 0 ? p[i] : 0;
    return s;
}

/** Every boundary seen: six phases, each the distance between two marks, adding up to the whole. */
static void test_logon_phases__all_marks(void)
{
    struct logon_marks m;
    logon_marks_reset(&m);
    logon_marks_tcp_start(&m, 1100);
    logon_marks_tcp_done(&m, 1150);
    logon_marks_secure(&m, 1400);
    logon_marks_active(&m, 2000);
    logon_marks_paint(&m, 2030);
    int64_t p[LOGON__PHASES];
    logon_phases_compute(&m, 1000, 2500, p);
    CU_ASSERT_EQUAL(p[LOGON_WAIT], 100);
    CU_ASSERT_EQUAL(p[LOGON_TCP], 50);
    CU_ASSERT_EQUAL(p[LOGON_SECURITY], 250);
    CU_ASSERT_EQUAL(p[LOGON_RDP], 600);
    CU_ASSERT_EQUAL(p[LOGON_PAINT], 30);
    CU_ASSERT_EQUAL(p[LOGON_DESKTOP], 470);
    CU_ASSERT_EQUAL(sum(p), 1500);
}

/** No TCP marks (the interposed calls never ran) and no paint: those phases are -1; the wait runs
 * to the security mark, the desktop phase from activation; the rest still adds up. */
static void test_logon_phases__missing_marks(void)
{
    struct logon_marks m;
    logon_marks_reset(&m);
    logon_marks_secure(&m, 1400);
    logon_marks_active(&m, 2000);
    int64_t p[LOGON__PHASES];
    logon_phases_compute(&m, 1000, 2500, p);
    CU_ASSERT_EQUAL(p[LOGON_TCP], -1);
    CU_ASSERT_EQUAL(p[LOGON_WAIT], -1);
    CU_ASSERT_EQUAL(p[LOGON_SECURITY], 400);
    CU_ASSERT_EQUAL(p[LOGON_RDP], 600);
    CU_ASSERT_EQUAL(p[LOGON_PAINT], -1);
    CU_ASSERT_EQUAL(p[LOGON_DESKTOP], 500);
    CU_ASSERT_EQUAL(sum(p), 1500);
}

/** A paint after desktop ready (the condition held before any paint) is not counted; a mark
 * before the start is out of order; ready before start: nothing is measured. */
static void test_logon_phases__out_of_order(void)
{
    struct logon_marks m;
    logon_marks_reset(&m);
    logon_marks_tcp_start(&m, 900);        /* before the start: out of order */
    logon_marks_tcp_done(&m, 1150);
    logon_marks_secure(&m, 1400);
    logon_marks_active(&m, 2000);
    logon_marks_paint(&m, 2600);           /* after ready */
    int64_t p[LOGON__PHASES];
    logon_phases_compute(&m, 1000, 2500, p);
    CU_ASSERT_EQUAL(p[LOGON_WAIT], -1);
    CU_ASSERT_EQUAL(p[LOGON_TCP], 150);
    CU_ASSERT_EQUAL(p[LOGON_PAINT], -1);
    CU_ASSERT_EQUAL(p[LOGON_DESKTOP], 500);
    CU_ASSERT_EQUAL(sum(p), 1500);
    logon_phases_compute(&m, 3000, 2500, p);
    for (int i = 0; i < LOGON__PHASES; i++)
        CU_ASSERT_EQUAL(p[i], -1);
}

/** A second TCP connection (nego's NLA -> TLS fallback) restarts the marks; the later marks keep
 * their first value; a paint before activation is not the first paint. */
static void test_logon_phases__reconnect_and_first_values(void)
{
    struct logon_marks m;
    logon_marks_reset(&m);
    logon_marks_tcp_start(&m, 1100);
    logon_marks_tcp_done(&m, 1110);
    logon_marks_secure(&m, 1200);
    logon_marks_tcp_start(&m, 1300);
    CU_ASSERT_EQUAL(m.tcp_done_us, 0);
    CU_ASSERT_EQUAL(m.secure_us, 0);
    logon_marks_paint(&m, 1310);
    CU_ASSERT_EQUAL(m.paint_us, 0);
    logon_marks_tcp_done(&m, 1320);
    logon_marks_tcp_done(&m, 1330);
    logon_marks_secure(&m, 1400);
    logon_marks_active(&m, 1500);
    logon_marks_active(&m, 1900);          /* a reactivation */
    logon_marks_paint(&m, 1510);
    logon_marks_paint(&m, 1520);
    CU_ASSERT_EQUAL(m.tcp_start_us, 1300);
    CU_ASSERT_EQUAL(m.tcp_done_us, 1320);
    CU_ASSERT_EQUAL(m.active_us, 1500);
    CU_ASSERT_EQUAL(m.paint_us, 1510);
    int64_t p[LOGON__PHASES];
    logon_phases_compute(&m, 1000, 1600, p);
    CU_ASSERT_EQUAL(p[LOGON_WAIT], 300);
    CU_ASSERT_EQUAL(sum(p), 600);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_logon_phases__all_marks), UNIT_TEST(test_logon_phases__missing_marks),
        UNIT_TEST(test_logon_phases__out_of_order), UNIT_TEST(test_logon_phases__reconnect_and_first_values),
        UNIT_END,
    };
    return unit_run("logon_phases", tests, NULL, NULL);
}

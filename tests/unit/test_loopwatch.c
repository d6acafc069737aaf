/* test_loopwatch.c -- a watched call longer than the report threshold is counted as a stall,
 * with the time spent in WinPR's Sleep() counted into it; a late loop-lag tick with no stalled
 * call behind it is counted as an unexplained late tick. */
#include <unistd.h>

#include "agent/engine/loopwatch.h"
#include "unit.h"

/** A call that sleeps past the threshold is one stall; its duration is at least the sleep. */
static void test_loopwatch__long_call_counted(void)
{
    uint32_t calls0, ticks0, calls, ticks;
    struct loopwatch_mark m;
    loopwatch_counts(&calls0, &ticks0);
    loopwatch_begin(&m);
    usleep(LOOPWATCH_REPORT_US + 5000);
    loopwatch_slept(LOOPWATCH_REPORT_US + 5000);
    CU_ASSERT(loopwatch_end(&m, "a test call", 7) >= LOOPWATCH_REPORT_US + 5000);
    loopwatch_counts(&calls, &ticks);
    CU_ASSERT_EQUAL(calls, calls0 + 1);
    CU_ASSERT_EQUAL(ticks, ticks0);
}

/** A late tick right after a reported stall is explained by it; a later late tick with no stall
 * in between is counted. */
static void test_loopwatch__late_tick(void)
{
    uint32_t calls0, ticks0, calls, ticks;
    struct loopwatch_mark m;
    loopwatch_tick(0);
    loopwatch_begin(&m);
    usleep(LOOPWATCH_REPORT_US + 5000);
    loopwatch_end(&m, "a test call", UINT32_MAX);
    loopwatch_counts(&calls0, &ticks0);
    loopwatch_tick(LOOPWATCH_REPORT_US + 5000);      /* explained by the call */
    loopwatch_counts(&calls, &ticks);
    CU_ASSERT_EQUAL(ticks, ticks0);
    loopwatch_tick(LOOPWATCH_REPORT_US + 1);         /* nothing in between */
    loopwatch_counts(&calls, &ticks);
    CU_ASSERT_EQUAL(ticks, ticks0 + 1);
    CU_ASSERT_EQUAL(calls, calls0);
    loopwatch_tick(LOOPWATCH_REPORT_US);             /* not late enough */
    loopwatch_counts(&calls, &ticks);
    CU_ASSERT_EQUAL(ticks, ticks0 + 1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_loopwatch__long_call_counted), UNIT_TEST(test_loopwatch__late_tick), UNIT_END,
    };
    return unit_run("loopwatch", tests, NULL, NULL);
}

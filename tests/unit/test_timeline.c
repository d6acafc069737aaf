/* test_timeline.c -- the active-session step function: in-order and late events, equal times. */
#include "unit.h"

#include "controller/run/timeline.h"

static void test_timeline__steps_and_late_events(void)
{
    struct timeline tl;
    timeline_init(&tl);
    CU_ASSERT_EQUAL(timeline_active_at(&tl, 50), 0);
    CU_ASSERT_EQUAL(timeline_add(&tl, 10, +1), 0);
    CU_ASSERT_EQUAL(timeline_add(&tl, 20, +1), 0);
    CU_ASSERT_EQUAL(timeline_add(&tl, 30, -1), 0);
    CU_ASSERT_EQUAL(timeline_add(&tl, 15, +1), 0);   /* late: slides in before 20 and 30 */
    CU_ASSERT_EQUAL(timeline_add(&tl, 20, -1), 0);   /* same instant as an earlier event */
    CU_ASSERT_EQUAL(timeline_active_at(&tl, 9), 0);
    CU_ASSERT_EQUAL(timeline_active_at(&tl, 10), 1);
    CU_ASSERT_EQUAL(timeline_active_at(&tl, 15), 2);
    CU_ASSERT_EQUAL(timeline_active_at(&tl, 20), 2);  /* +1 and -1 at 20 */
    CU_ASSERT_EQUAL(timeline_active_at(&tl, 29), 2);
    CU_ASSERT_EQUAL(timeline_active_at(&tl, 30), 1);
    CU_ASSERT_EQUAL(timeline_active_at(&tl, UINT64_MAX), 1);
    timeline_free(&tl);
}

static void test_timeline__grows(void)
{
    struct timeline tl;
    timeline_init(&tl);
    for (uint64_t i = 0; i < 5000; i++)
        CU_ASSERT_EQUAL_FATAL(timeline_add(&tl, 5000 - i, +1), 0);   /* every one out of order */
    CU_ASSERT_EQUAL(timeline_active_at(&tl, 2500), 2500);
    CU_ASSERT_EQUAL(timeline_active_at(&tl, 5000), 5000);
    timeline_free(&tl);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_timeline__steps_and_late_events),
        UNIT_TEST(test_timeline__grows),
        UNIT_END,
    };
    return unit_run("timeline", tests, NULL, NULL);
}

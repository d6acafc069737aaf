/* test_ramp.c -- launch offsets spread evenly over the window; agent choice by relative load,
 * never past capacity, never to a lost agent. */
#include "unit.h"

#include "controller/run/ramp.h"

static void test_ramp__offsets_are_even(void)
{
    CU_ASSERT_EQUAL(ramp_launch_offset_us(0, 60, 240000000), 0);
    CU_ASSERT_EQUAL(ramp_launch_offset_us(1, 60, 240000000), 4000000);
    CU_ASSERT_EQUAL(ramp_launch_offset_us(59, 60, 240000000), 236000000);
    CU_ASSERT_EQUAL(ramp_launch_offset_us(0, 1, 10000000), 0);
    CU_ASSERT_EQUAL(ramp_launch_offset_us(5, 0, 10000000), 0);
    /* no overflow with a long window and many sessions */
    CU_ASSERT_EQUAL(ramp_launch_offset_us(99999, 100000, 48ull * 3600 * 1000000), 172798272000ull);
}

static void test_ramp__spread_by_capacity(void)
{
    struct ramp_slot s[3] = { { 10, 0, 1 }, { 30, 0, 1 }, { 5, 0, 0 } };
    unsigned count[3] = { 0 };
    for (int i = 0; i < 40; i++) {
        int k = ramp_pick_agent(s, 3);
        CU_ASSERT_FATAL(k >= 0);
        s[k].assigned++;
        count[k]++;
        CU_ASSERT(s[k].assigned <= s[k].capacity);
    }
    CU_ASSERT_EQUAL(count[0], 10);
    CU_ASSERT_EQUAL(count[1], 30);
    CU_ASSERT_EQUAL(count[2], 0);            /* not alive */
    CU_ASSERT_EQUAL(ramp_pick_agent(s, 3), -1);
    CU_ASSERT_EQUAL(ramp_capacity(s, 3), 40);
}

static void test_ramp__alternates_equal_agents(void)
{
    struct ramp_slot s[2] = { { 30, 0, 1 }, { 30, 0, 1 } };
    for (int i = 0; i < 6; i++) {
        int k = ramp_pick_agent(s, 2);
        CU_ASSERT_EQUAL(k, i % 2);
        s[k].assigned++;
    }
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_ramp__offsets_are_even),
        UNIT_TEST(test_ramp__spread_by_capacity),
        UNIT_TEST(test_ramp__alternates_equal_agents),
        UNIT_END,
    };
    return unit_run("ramp", tests, NULL, NULL);
}

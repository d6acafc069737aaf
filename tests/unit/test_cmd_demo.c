/* test_cmd_demo.c -- `sessmax demo`'s CPU budget: the weight of simhost's group for a real-time
 * (quiet-machine measurement) caller and for a plain one. The written cgroup values and simhost's
 * scheduling policy in a real demo are checked by tests/integration/demo_budget.sh. */
#include "unit.h"

#include <sched.h>

#include "controller/cli/cmd_demo.h"

static void test_cmd_demo__shares(void)
{
    CU_ASSERT_EQUAL(cmd_demo_shares(SCHED_RR), DEMO_SHARES_MEASURE);
    CU_ASSERT_EQUAL(cmd_demo_shares(SCHED_FIFO), DEMO_SHARES_MEASURE);
    CU_ASSERT_EQUAL(cmd_demo_shares(SCHED_OTHER), DEMO_SHARES_PLAIN);
    CU_ASSERT_EQUAL(cmd_demo_shares(SCHED_BATCH), DEMO_SHARES_PLAIN);
    CU_ASSERT_EQUAL(cmd_demo_shares(SCHED_IDLE), DEMO_SHARES_PLAIN);
    CU_ASSERT_EQUAL(cmd_demo_shares(-1), DEMO_SHARES_PLAIN);
    CU_ASSERT_EQUAL(DEMO_SHARES_MEASURE, 262144u);   /* the kernel's MAX_SHARES: a larger value is clamped */
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_cmd_demo__shares),
        UNIT_END,
    };
    return unit_run("cmd_demo", tests, NULL, NULL);
}

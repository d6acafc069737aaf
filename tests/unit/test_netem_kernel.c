/* test_netem_kernel.c -- the sch_netem parameters per direction (delay RTT/2 with jitter, loss in
 * percent, the direction's rate, a limit that holds the bottleneck queue plus the packets in
 * flight) and the SESSMAX_NETEM choice that needs no probe. */
#include "unit.h"

#include "agent/netem/kernel.h"

#include <stdlib.h>
#include <string.h>

static void test_netem_kernel__params(void)
{
    struct netprofile p;
    char buf[160];
    CU_ASSERT_FATAL(netprofile_builtin("wan-250ms-1pct", &p) == 0);
    netem_kernel_params(&p, 1, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "limit 100000 delay 125000us 0us loss 1.0000%");
    CU_ASSERT_FATAL(netprofile_builtin("mobile-3g", &p) == 0);
    netem_kernel_params(&p, 1, buf, sizeof buf);   /* 1.6 Mbit/s x 85 ms = 11 packets in flight */
    CU_ASSERT_STRING_EQUAL(buf, "limit 112 delay 75000us 10000us loss 0.0000% rate 1600000bit");
    netem_kernel_params(&p, 0, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "limit 106 delay 75000us 10000us loss 0.0000% rate 750000bit");
}

static void test_netem_kernel__choice(void)
{
    char why[256] = "", err[256] = "";
    setenv("SESSMAX_NETEM", "builtin", 1);
    CU_ASSERT_EQUAL(netem_kernel_wanted(why, sizeof why, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(why, "SESSMAX_NETEM=builtin");
    setenv("SESSMAX_NETEM", "tc", 1);
    CU_ASSERT_EQUAL(netem_kernel_wanted(why, sizeof why, err, sizeof err), -1);
    CU_ASSERT(strstr(err, "expected auto, kernel or builtin") != NULL);
    unsetenv("SESSMAX_NETEM");
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_netem_kernel__params), UNIT_TEST(test_netem_kernel__choice), UNIT_END,
    };
    return unit_run("netem_kernel", tests, NULL, NULL);
}

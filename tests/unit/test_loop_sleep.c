/* test_loop_sleep.c -- the loop thread's wait in place of WinPR's Sleep(): it returns when one of
 * FreeRDP's handles is readable, skips closed ones, and reports nothing ready after its timeout;
 * off the loop, Sleep() is WinPR's and returns. */
#include <unistd.h>

#include <winpr/synch.h>

#include "compat/loop_sleep.h"
#include "unit.h"

/** A readable pipe among unset handles ends the wait at once. */
static void test_loop_sleep__readable(void)
{
    int p[2];
    CU_ASSERT_FATAL(pipe(p) == 0);
    CU_ASSERT_EQUAL(write(p[1], "x", 1), 1);
    int fds[3] = { -1, p[0], -1 };
    CU_ASSERT_EQUAL(loop_sleep_wait_fds(fds, 3, 60000), 1);
    close(p[0]);
    close(p[1]);
}

/** Nothing readable: not ready after the timeout (0 ms here). */
static void test_loop_sleep__nothing_ready(void)
{
    int p[2];
    CU_ASSERT_FATAL(pipe(p) == 0);
    int fds[1] = { p[0] };
    CU_ASSERT_EQUAL(loop_sleep_wait_fds(fds, 1, 0), 0);
    CU_ASSERT_EQUAL(loop_sleep_wait_fds(fds, 0, 0), 0);
    close(p[0]);
    close(p[1]);
}

/** Outside a session's check, Sleep() is WinPR's own: it returns. */
static void test_loop_sleep__off_loop(void)
{
    Sleep(1);
    loop_sleep_leave();
    Sleep(0);
    CU_PASS("returned");
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_loop_sleep__readable), UNIT_TEST(test_loop_sleep__nothing_ready),
        UNIT_TEST(test_loop_sleep__off_loop), UNIT_END,
    };
    return unit_run("loop_sleep", tests, NULL, NULL);
}

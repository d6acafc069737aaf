/* test_dialwait.c -- the backoff of an agent waiting for its controller: 0.5 s doubling to 5 s
 * with +-10 % jitter, the last attempt cut to the deadline, then give up; one attempt without a
 * wait; one log line at most every 5 s. */
#include "unit.h"

#include "agent/link/dialwait.h"

#define S 1000000ull

/* With rnd at both ends of its range the delays stay inside +-10 % of 0.5, 1, 2, 4, 5, 5 s. */
static void test_dialwait__doubles_to_five_seconds_with_jitter(void)
{
    static const int64_t step[] = { 500, 1000, 2000, 4000, 5000, 5000, 5000 };
    struct dialwait lo, mid, hi;
    dialwait_init(&lo, 10 * S, 600 * S);
    dialwait_init(&mid, 10 * S, 600 * S);
    dialwait_init(&hi, 10 * S, 600 * S);
    for (size_t i = 0; i < sizeof step / sizeof step[0]; i++) {
        int64_t a = dialwait_next_ms(&lo, 10 * S, 0), b = dialwait_next_ms(&mid, 10 * S, 50),
                c = dialwait_next_ms(&hi, 10 * S, 0xffffffffu);
        CU_ASSERT_EQUAL(a, step[i] - step[i] / 10);
        CU_ASSERT(b >= a && b <= c);
        CU_ASSERT(c <= step[i] + step[i] / 10);
        CU_ASSERT(c >= step[i] - step[i] / 10);
    }
    CU_ASSERT_EQUAL(lo.failures, 7);
}

/* The attempt before the deadline waits only until it; past the deadline the answer is -1. */
static void test_dialwait__last_attempt_at_the_deadline_then_give_up(void)
{
    struct dialwait d;
    dialwait_init(&d, 0, 3 * S);
    CU_ASSERT_EQUAL(dialwait_next_ms(&d, 0, 0), 450);
    CU_ASSERT_EQUAL(dialwait_next_ms(&d, S / 2, 0), 900);
    CU_ASSERT_EQUAL(dialwait_next_ms(&d, 2 * S, 0), 1000);       /* 1.8 s would pass the 3 s deadline */
    CU_ASSERT_EQUAL(dialwait_next_ms(&d, 3 * S, 0), -1);
    CU_ASSERT_EQUAL(dialwait_next_ms(&d, 3 * S - 500, 0), -1);  /* under a millisecond left */
    CU_ASSERT_EQUAL(d.failures, 5);
}

/* Without --controller-wait the first failure is the last. */
static void test_dialwait__no_wait_means_one_attempt(void)
{
    struct dialwait d;
    dialwait_init(&d, 7 * S, 0);
    CU_ASSERT_EQUAL(dialwait_next_ms(&d, 7 * S, 123), -1);
    CU_ASSERT_EQUAL(d.failures, 1);
}

/* The first failure is logged, then at most one every 5 s, whatever the attempt rate. */
static void test_dialwait__logs_at_most_every_five_seconds(void)
{
    struct dialwait d;
    dialwait_init(&d, 0, 60 * S);
    int logged = 0;
    for (uint64_t t = 0; t < 20 * S; t += S / 2)
        logged += dialwait_should_log(&d, t);
    CU_ASSERT_EQUAL(logged, 4);                                  /* at 0, 5, 10 and 15 s */
    CU_ASSERT_EQUAL(dialwait_should_log(&d, 20 * S), 1);
    CU_ASSERT_EQUAL(dialwait_should_log(&d, 20 * S + 1), 0);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_dialwait__doubles_to_five_seconds_with_jitter),
        UNIT_TEST(test_dialwait__last_attempt_at_the_deadline_then_give_up),
        UNIT_TEST(test_dialwait__no_wait_means_one_attempt),
        UNIT_TEST(test_dialwait__logs_at_most_every_five_seconds),
        UNIT_END,
    };
    return unit_run("dialwait", tests, NULL, NULL);
}

/* test_ledger.c -- the session ledger of a run: counts follow session events, only the owning
 * agent's sessions count, a lost agent's sessions fail without counting as a target fault. */
#include "unit.h"

#include "controller/run/ledger.h"

#include <string.h>

static void test_ledger__counts_follow_events(void)
{
    struct ledger l;
    CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 4), 0);
    ledger_launched(&l, 0, 0);
    ledger_launched(&l, 1, 1);
    ledger_launched(&l, 2, 0);
    CU_ASSERT_EQUAL(l.launched, 3);
    CU_ASSERT_EQUAL(l.assigned[0], 2);
    CU_ASSERT_EQUAL(l.assigned[1], 1);
    CU_ASSERT(ledger_in_flight(&l));
    ledger_event(&l, 0, SESSION_ACTIVE, FAIL_NONE);
    ledger_event(&l, 1, SESSION_ACTIVE, FAIL_NONE);
    ledger_event(&l, 0, SESSION_ACTIVE, FAIL_NONE);       /* twice: counted once */
    CU_ASSERT_EQUAL(l.active, 2);
    ledger_event(&l, 1, SESSION_ENDED, FAIL_NONE);
    ledger_event(&l, 2, SESSION_FAILED, FAIL_AUTH);
    ledger_event(&l, 2, SESSION_ENDED, FAIL_NONE);        /* after a terminal state: ignored */
    CU_ASSERT_EQUAL(l.active, 1);
    CU_ASSERT_EQUAL(l.ended, 1);
    CU_ASSERT_EQUAL(l.failed, 1);
    CU_ASSERT_FALSE(ledger_in_flight(&l));
    ledger_free(&l);
}

static void test_ledger__ownership(void)
{
    struct ledger l;
    CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 2), 0);
    ledger_launched(&l, 0, 3);
    CU_ASSERT(ledger_owns(&l, 3, 0));
    CU_ASSERT_FALSE(ledger_owns(&l, 2, 0));
    CU_ASSERT_FALSE(ledger_owns(&l, 3, 1));      /* not launched */
    CU_ASSERT_FALSE(ledger_owns(&l, 3, 2));      /* out of range */
    CU_ASSERT_FALSE(ledger_owns(&l, 3, UINT32_MAX));
    ledger_free(&l);
}

static void test_ledger__streak_and_lost_agent(void)
{
    struct ledger l;
    char text[200];
    CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 6), 0);
    for (uint32_t i = 0; i < 4; i++)
        ledger_launched(&l, i, (int)(i % 2));
    ledger_event(&l, 0, SESSION_FAILED, FAIL_AUTH);
    ledger_event(&l, 1, SESSION_FAILED, FAIL_AUTH);
    ledger_launch_failed(&l, 4, FAIL_LOST);
    CU_ASSERT_EQUAL(l.fail_streak, 3);
    ledger_streak_text(&l, text, sizeof text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "x2"));
    /* agent 1 lost: session 3 fails, the streak does not grow by it */
    CU_ASSERT_EQUAL(ledger_agent_lost(&l, 1), 1);
    CU_ASSERT_EQUAL(l.failed, 4);
    CU_ASSERT_EQUAL(l.fail_streak, 3);
    CU_ASSERT_EQUAL(l.streak_reasons[FAIL_LOST], 0);
    /* a session becoming active ends the streak */
    ledger_event(&l, 2, SESSION_ACTIVE, FAIL_NONE);
    CU_ASSERT_EQUAL(l.fail_streak, 0);
    ledger_free(&l);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_ledger__counts_follow_events),
        UNIT_TEST(test_ledger__ownership),
        UNIT_TEST(test_ledger__streak_and_lost_agent),
        UNIT_END,
    };
    return unit_run("ledger", tests, NULL, NULL);
}

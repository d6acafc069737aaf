/* test_ledger.c -- the session ledger of a run: counts follow session events, only the owning
 * agent's sessions count, a lost agent's sessions fail without counting as a target fault, and
 * the active count at any past moment is the count of that moment. */
#include "unit.h"

#include "controller/run/ledger.h"

#include <stdlib.h>
#include <string.h>

#define T(s) (1000000000ull + (uint64_t)(s) * 1000000u)   /* controller clock, seconds into a run */

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
    ledger_event(&l, 0, SESSION_ACTIVE, FAIL_NONE, T(0));
    ledger_event(&l, 1, SESSION_ACTIVE, FAIL_NONE, T(1));
    ledger_event(&l, 0, SESSION_ACTIVE, FAIL_NONE, T(0));       /* twice: counted once */
    CU_ASSERT_EQUAL(l.active, 2);
    ledger_event(&l, 1, SESSION_ENDED, FAIL_NONE, T(1));
    ledger_event(&l, 2, SESSION_FAILED, FAIL_AUTH, T(2));
    ledger_event(&l, 2, SESSION_ENDED, FAIL_NONE, T(2));        /* after a terminal state: ignored */
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
    ledger_event(&l, 0, SESSION_FAILED, FAIL_AUTH, T(0));
    ledger_event(&l, 1, SESSION_FAILED, FAIL_AUTH, T(1));
    ledger_launch_failed(&l, 4, FAIL_LOST);
    CU_ASSERT_EQUAL(l.fail_streak, 3);
    ledger_streak_text(&l, text, sizeof text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "x2"));
    /* agent 1 lost: session 3 fails, the streak does not grow by it */
    CU_ASSERT_EQUAL(ledger_agent_lost(&l, 1, T(9)), 1);
    CU_ASSERT_EQUAL(l.failed, 4);
    CU_ASSERT_EQUAL(l.fail_streak, 3);
    CU_ASSERT_EQUAL(l.streak_reasons[FAIL_LOST], 0);
    /* a session becoming active ends the streak */
    ledger_event(&l, 2, SESSION_ACTIVE, FAIL_NONE, T(2));
    CU_ASSERT_EQUAL(l.fail_streak, 0);
    ledger_free(&l);
}

/** A streak of connect failures (refused, timed out) is an unreachable target; one other reason
 * in it (the target answered and refused a logon) is not, nor is an empty streak. */
static void test_ledger__streak_unreachable(void)
{
    struct ledger l;
    CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 4), 0);
    CU_ASSERT_FALSE(ledger_streak_unreachable(&l));
    for (uint32_t i = 0; i < 4; i++)
        ledger_launched(&l, i, 0);
    ledger_event(&l, 0, SESSION_FAILED, FAIL_CONNECT, T(0));
    ledger_event(&l, 1, SESSION_FAILED, FAIL_CONNECT_TIMEOUT, T(1));
    CU_ASSERT_TRUE(ledger_streak_unreachable(&l));
    ledger_event(&l, 2, SESSION_FAILED, FAIL_AUTH, T(2));
    CU_ASSERT_FALSE(ledger_streak_unreachable(&l));
    ledger_event(&l, 3, SESSION_ACTIVE, FAIL_NONE, T(3));   /* the streak ends */
    CU_ASSERT_FALSE(ledger_streak_unreachable(&l));
    ledger_free(&l);
}

/** A streak of one reason only (every logon refused: auth) names that reason; a mixed or empty
 * streak does not. */
static void test_ledger__streak_only(void)
{
    struct ledger l;
    CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 3), 0);
    CU_ASSERT_FALSE(ledger_streak_only(&l, FAIL_AUTH));
    for (uint32_t i = 0; i < 3; i++)
        ledger_launched(&l, i, 0);
    ledger_event(&l, 0, SESSION_FAILED, FAIL_AUTH, T(0));
    ledger_event(&l, 1, SESSION_FAILED, FAIL_AUTH, T(1));
    CU_ASSERT_TRUE(ledger_streak_only(&l, FAIL_AUTH));
    CU_ASSERT_FALSE(ledger_streak_only(&l, FAIL_CONNECT));
    ledger_event(&l, 2, SESSION_FAILED, FAIL_TLS, T(2));
    CU_ASSERT_FALSE(ledger_streak_only(&l, FAIL_AUTH));
    ledger_free(&l);
}

/* Samples are counted against the sessions active when they were taken: events arriving late
 * and out of order (another agent's batch, a resumed agent's old batches) land in their place. */
static void test_ledger__active_at_a_past_moment(void)
{
    struct ledger l;
    CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 5), 0);
    for (uint32_t i = 0; i < 5; i++)
        ledger_launched(&l, i, 0);
    CU_ASSERT_EQUAL(ledger_active_at(&l, T(100)), 0);
    ledger_event(&l, 0, SESSION_ACTIVE, FAIL_NONE, T(10));
    ledger_event(&l, 1, SESSION_ACTIVE, FAIL_NONE, T(20));
    ledger_event(&l, 2, SESSION_ACTIVE, FAIL_NONE, T(30));
    ledger_event(&l, 3, SESSION_ACTIVE, FAIL_NONE, T(15));   /* arrives late: its moment still counts */
    ledger_event(&l, 0, SESSION_ENDED, FAIL_NONE, T(25));
    CU_ASSERT_EQUAL(l.active, 3);
    CU_ASSERT_EQUAL(ledger_active_at(&l, T(5)), 0);
    CU_ASSERT_EQUAL(ledger_active_at(&l, T(10)), 1);    /* an event at that very moment counts */
    CU_ASSERT_EQUAL(ledger_active_at(&l, T(16)), 2);
    CU_ASSERT_EQUAL(ledger_active_at(&l, T(22)), 3);
    CU_ASSERT_EQUAL(ledger_active_at(&l, T(26)), 2);
    CU_ASSERT_EQUAL(ledger_active_at(&l, T(31)), 3);
    /* the agent is lost at 40: from then on nothing of it is active, before that unchanged */
    CU_ASSERT_EQUAL(ledger_agent_lost(&l, 0, T(40)), 4);
    CU_ASSERT_EQUAL(ledger_active_at(&l, T(35)), 3);
    CU_ASSERT_EQUAL(ledger_active_at(&l, T(40)), 0);
    CU_ASSERT_EQUAL(l.active, 0);
    ledger_free(&l);
}

/* Many events in random order: every moment's count equals a brute-force count. */
static void test_ledger__active_at_matches_brute_force(void)
{
    enum { N = 400 };
    static uint64_t on[N], off[N];
    struct ledger l;
    CU_ASSERT_EQUAL_FATAL(ledger_init(&l, N), 0);
    srand(7);
    for (uint32_t i = 0; i < N; i++) {
        ledger_launched(&l, i, 0);
        on[i] = T(rand() % 1000);
        off[i] = on[i] + T(1 + rand() % 300) - T(0);
    }
    for (uint32_t i = 0; i < N; i++)      /* activations in index order, ends later in reverse */
        ledger_event(&l, i, SESSION_ACTIVE, FAIL_NONE, on[i]);
    for (uint32_t i = N; i-- > 0;)
        ledger_event(&l, i, i % 3 ? SESSION_ENDED : SESSION_FAILED, FAIL_DISCONNECT, off[i]);
    for (int s = 0; s < 1400; s += 7) {
        uint32_t want = 0;
        for (uint32_t i = 0; i < N; i++)
            want += on[i] <= T(s) && off[i] > T(s);
        CU_ASSERT_EQUAL(ledger_active_at(&l, T(s)), want);
    }
    ledger_free(&l);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_ledger__counts_follow_events),
        UNIT_TEST(test_ledger__ownership),
        UNIT_TEST(test_ledger__streak_and_lost_agent),
        UNIT_TEST(test_ledger__streak_unreachable), UNIT_TEST(test_ledger__streak_only),
        UNIT_TEST(test_ledger__active_at_a_past_moment),
        UNIT_TEST(test_ledger__active_at_matches_brute_force),
        UNIT_END,
    };
    return unit_run("ledger", tests, NULL, NULL);
}

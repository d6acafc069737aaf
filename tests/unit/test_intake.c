/* test_intake.c -- what the controller takes from an agent: only sessions it was given, and
 * only samples whose names are in the safe character set (a hostile agent cannot put markup
 * or metric lines into the store through a timer name); each sample stored with the sessions
 * active when the agent took it, on the agent's clock corrected by its measured offset. */
#include "unit.h"

#include "common/clock.h"
#include "controller/run/intake.h"
#include "controller/run/ledger.h"
#include "controller/run/plan.h"
#include "controller/run/runner.h"
#include "controller/score/score.h"
#include "db/store.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct proto_record sample(uint32_t session, const char *name)
{
    struct proto_record r = { .kind = PROTO_REC_SAMPLE };
    r.u.sample.session = session;
    snprintf(r.u.sample.name, sizeof r.u.sample.name, "%s", name);
    return r;
}

static void test_intake__refuses_unsafe_names_and_foreign_sessions(void)
{
    struct ledger l;
    CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 3), 0);
    ledger_launched(&l, 0, 1);
    ledger_launched(&l, 1, 2);
    struct proto_record ok = sample(0, "vsi");
    CU_ASSERT_PTR_NULL(intake_refusal(&l, 1, &ok));
    struct proto_record foreign = sample(1, "vsi");
    CU_ASSERT_PTR_NOT_NULL(intake_refusal(&l, 1, &foreign));
    struct proto_record out_of_range = sample(99, "vsi");
    CU_ASSERT_PTR_NOT_NULL(intake_refusal(&l, 1, &out_of_range));
    static const char *const evil[] = { "x\"}><script>", "a\nsessmax_smax 1", "=HYPERLINK(1)", "", "a b" };
    for (size_t i = 0; i < sizeof evil / sizeof evil[0]; i++) {
        struct proto_record r = sample(0, evil[i]);
        CU_ASSERT_PTR_NOT_NULL(intake_refusal(&l, 1, &r));
    }
    struct proto_record ses = { .kind = PROTO_REC_SESSION };
    ses.u.session.session = 1;
    CU_ASSERT_PTR_NULL(intake_refusal(&l, 2, &ses));
    CU_ASSERT_PTR_NOT_NULL(intake_refusal(&l, 1, &ses));
    struct proto_record health = { .kind = PROTO_REC_HEALTH };
    CU_ASSERT_PTR_NULL(intake_refusal(&l, 1, &health));
    ledger_free(&l);
}

static struct proto_record event(uint32_t session, enum session_event_kind kind, uint64_t t_us)
{
    struct proto_record r = { .kind = PROTO_REC_SESSION };
    r.u.session = (struct rec_session){ .session = session, .t_us = t_us, .kind = kind };
    return r;
}

static void deliver(struct agentpool_events *ev, struct agentpool_agent *a, struct proto_record *recs, uint32_t n)
{
    struct proto_records rs = { .seq = ++a->last_seq, .count = n, .recs = recs };
    ev->records(a, &rs, ev->arg);
}

/* Agent A's clock runs 5 s ahead of the controller's, agent B's is right. B's sessions become
 * active at controller times 10 s and 20 s; A reports a sample it took at controller time 15 s
 * (agent time 20 s) after both events arrived, and another one, late, taken at 5 s: they are
 * stored with 1 and 0 active sessions, not the 2 active when they arrived. */
static void test_intake__sample_counts_the_sessions_active_when_taken(void)
{
    char path[600], err[512];
    snprintf(path, sizeof path, "%s/intake.db", unit_tmpdir());
    unlink(path);
    struct plan plan = { 0 };
    struct score_params sp;
    score_params_default(&sp);
    struct runner r = { .plan = &plan, .out = stderr };
    r.st = store_open(path, STORE_WRITE, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.st);
    struct store_run_info info = { .name = "clock", .started_us = 1 };
    r.run = store_run_begin(r.st, &info);
    CU_ASSERT_FATAL(r.run > 0);
    CU_ASSERT_EQUAL_FATAL(ledger_init(&r.ledger, 3), 0);
    livescore_init(&r.live, &sp);
    progress_init(&r.progress, stderr, 0);
    struct agentpool_events ev = intake_events(&r);
    struct agentpool_agent a = { .slot = 0, .clock_offset_us = 5000000, .name = "a" };
    struct agentpool_agent b = { .slot = 1, .name = "b" };
    const uint64_t T0 = 1700000000000000ull, S = 1000000;
    ledger_launched(&r.ledger, 0, 0);
    ledger_launched(&r.ledger, 1, 1);
    ledger_launched(&r.ledger, 2, 1);
    struct proto_record from_b[] = { event(1, SESSION_ACTIVE, T0 + 10 * S), event(2, SESSION_ACTIVE, T0 + 20 * S) };
    deliver(&ev, &b, from_b, 2);
    struct proto_record from_a[] = { sample(0, "vsi"), sample(0, "vsi") };
    from_a[0].u.sample.t_us = T0 + 15 * S + 5 * S;   /* agent clock */
    from_a[1].u.sample.t_us = T0 + 5 * S + 5 * S;
    from_a[0].u.sample.value_us = 111;
    from_a[1].u.sample.value_us = 222;
    deliver(&ev, &a, from_a, 2);
    CU_ASSERT_EQUAL(r.ledger.active, 2);
    CU_ASSERT_EQUAL(store_flush(r.st), 0);
    struct store_samples ss;
    CU_ASSERT_EQUAL_FATAL(store_load_samples(r.st, r.run, &ss), 0);
    CU_ASSERT_EQUAL_FATAL(ss.count, 2);
    for (size_t i = 0; i < ss.count; i++)
        CU_ASSERT_EQUAL(ss.rows[i].active, ss.rows[i].value_us == 111 ? 1u : 0u);
    store_free_samples(&ss);
    livescore_free(&r.live);
    ledger_free(&r.ledger);
    store_close(r.st);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_intake__refuses_unsafe_names_and_foreign_sessions),
        UNIT_TEST(test_intake__sample_counts_the_sessions_active_when_taken),
        UNIT_END,
    };
    return unit_run("intake", tests, NULL, NULL);
}

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

/* A runner as a run has it when records arrive: a store with one run begun in a fresh file
 * `db` of the test's directory, a ledger of `sessions` sessions, a live score and progress. */
static void runner_open(struct runner *r, struct score_params *sp, const char *db, uint32_t sessions)
{
    char path[600], err[512];
    snprintf(path, sizeof path, "%s/%s", unit_tmpdir(), db);
    unlink(path);
    score_params_default(sp);
    r->st = store_open(path, STORE_WRITE, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->st);
    struct store_run_info info = { .name = "clock", .started_us = 1 };
    r->run = store_run_begin(r->st, &info);
    CU_ASSERT_FATAL(r->run > 0);
    CU_ASSERT_EQUAL_FATAL(ledger_init(&r->ledger, sessions), 0);
    livescore_init(&r->live, sp);
    progress_init(&r->progress, stderr, 0);
}

static void runner_close(struct runner *r)
{
    livescore_free(&r->live);
    ledger_free(&r->ledger);
    store_close(r->st);
}

/* Agent A's clock runs 5 s ahead of the controller's, agent B's is right. B's sessions become
 * active at controller times 10 s and 20 s; A reports a sample it took at controller time 15 s
 * (agent time 20 s) after both events arrived, and another one, late, taken at 5 s: they are
 * stored with 1 and 0 active sessions, not the 2 active when they arrived. */
static void test_intake__sample_counts_the_sessions_active_when_taken(void)
{
    struct plan plan = { 0 };
    struct score_params sp;
    struct runner r = { .plan = &plan, .out = stderr };
    runner_open(&r, &sp, "intake.db", 3);
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
    for (size_t i = 0; i < ss.count; i++) {
        CU_ASSERT_EQUAL(ss.rows[i].active, ss.rows[i].value_us == 111 ? 1u : 0u);
        CU_ASSERT_EQUAL(ss.rows[i].t_us, ss.rows[i].value_us == 111 ? T0 + 15 * S : T0 + 5 * S);
    }
    store_free_samples(&ss);
    runner_close(&r);
}

/* Agent A's clock runs 5 s ahead, agent B's 2 s behind: a session event, a traffic and a health
 * record of each, taken at the same controller time, are stored at that controller time; the
 * live score keeps the converted time too. */
static void test_intake__stores_every_time_on_the_controller_clock(void)
{
    struct plan plan = { 0 };
    struct score_params sp;
    struct runner r = { .plan = &plan, .out = stderr };
    runner_open(&r, &sp, "intake_clock.db", 2);
    struct agentpool_events ev = intake_events(&r);
    const uint64_t T0 = 1700000000000000ull, S = 1000000;
    const int64_t offset[2] = { 5 * (int64_t)S, -2 * (int64_t)S };
    struct agentpool_agent ag[2] = { { .slot = 0, .clock_offset_us = offset[0], .name = "a" },
                                     { .slot = 1, .clock_offset_us = offset[1], .name = "b" } };
    for (uint32_t i = 0; i < 2; i++) {
        ag[i].store_id = store_add_agent(r.st, r.run, ag[i].name, "127.0.0.1", 1);
        ledger_launched(&r.ledger, i, (int)i);
        CU_ASSERT_EQUAL(store_session_launch(r.st, r.run, i, ag[i].store_id, "u", T0), 0);
        uint64_t agent_t = T0 + 10 * S + (uint64_t)offset[i];
        struct proto_record recs[4] = { event(i, SESSION_ACTIVE, agent_t), sample(i, "vsi"),
                                        { .kind = PROTO_REC_TRAFFIC }, { .kind = PROTO_REC_HEALTH } };
        recs[1].u.sample.t_us = agent_t + S;
        recs[1].u.sample.is_measure = 1;
        recs[2].u.traffic = (struct rec_traffic){ .session = i, .t_us = agent_t + 2 * S, .bytes_in = 1 };
        recs[3].u.health = (struct rec_health){ .t_us = agent_t + 3 * S, .sessions_active = 1 };
        deliver(&ev, &ag[i], recs, 4);
    }
    CU_ASSERT_EQUAL(store_flush(r.st), 0);
    CU_ASSERT_EQUAL(r.ledger.active, 2);
    CU_ASSERT_EQUAL(ledger_active_at(&r.ledger, T0 + 10 * S - 1), 0);
    CU_ASSERT_EQUAL(ledger_active_at(&r.ledger, T0 + 10 * S), 2);
    struct store_samples ss;
    CU_ASSERT_EQUAL_FATAL(store_load_samples(r.st, r.run, &ss), 0);
    CU_ASSERT_EQUAL_FATAL(ss.count, 2);
    for (size_t i = 0; i < ss.count; i++) {
        CU_ASSERT_EQUAL(ss.rows[i].t_us, T0 + 11 * S);
        CU_ASSERT_EQUAL(ss.rows[i].active, i + 1);   /* b's session was not active yet when a's arrived */
    }
    store_free_samples(&ss);
    CU_ASSERT_EQUAL_FATAL(r.live.in.n, 2);
    CU_ASSERT_EQUAL(r.live.in.s[0].t_us, T0 + 11 * S);
    CU_ASSERT_EQUAL(r.live.in.s[1].t_us, T0 + 11 * S);
    struct store_session_row *sess;
    struct store_traffic_row *tr;
    struct store_health_row *h;
    size_t ns, nt, nh;
    CU_ASSERT_EQUAL_FATAL(store_load_sessions(r.st, r.run, &sess, &ns), 0);
    CU_ASSERT_EQUAL_FATAL(store_load_traffic(r.st, r.run, &tr, &nt), 0);
    CU_ASSERT_EQUAL_FATAL(store_load_health(r.st, r.run, &h, &nh), 0);
    CU_ASSERT_EQUAL_FATAL(ns + nt + nh, 6);
    for (size_t i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(sess[i].active_us, T0 + 10 * S);
        CU_ASSERT_EQUAL(tr[i].t.t_us, T0 + 12 * S);
        CU_ASSERT_EQUAL(h[i].h.t_us, T0 + 13 * S);
    }
    free(sess);
    free(tr);
    free(h);
    runner_close(&r);
}

/* An agent with external clients announces the capacity their measured costs allow: the ramp's
 * capacity of that agent follows it, never above what it declared; 0 (not known) changes nothing;
 * the record is stored as any health record. */
static void test_intake__capacity_from_measured_costs(void)
{
    struct plan plan = { 0 };
    struct score_params sp;
    struct runner r = { .plan = &plan, .out = stderr };
    runner_open(&r, &sp, "intake_capacity.db", 1);
    struct agentpool_events ev = intake_events(&r);
    struct agentpool_agent a = { .slot = 0, .name = "x", .capacity = 100, .declared = 100 };
    a.store_id = store_add_agent(r.st, r.run, a.name, "127.0.0.1", 100);
    static const uint32_t announced[] = { 7, 0, 500, 12 }, expect[] = { 7, 7, 100, 12 };
    for (size_t i = 0; i < 4; i++) {
        struct proto_record rec = { .kind = PROTO_REC_HEALTH_CAP };
        rec.u.health = (struct rec_health){ .t_us = 1 + i, .ext.sessions = 1, .ext_capacity = announced[i] };
        deliver(&ev, &a, &rec, 1);
        CU_ASSERT_EQUAL(a.capacity, expect[i]);
    }
    CU_ASSERT_EQUAL(a.declared, 100);
    CU_ASSERT_EQUAL(store_flush(r.st), 0);
    struct store_health_row *h;
    size_t nh;
    CU_ASSERT_EQUAL_FATAL(store_load_health(r.st, r.run, &h, &nh), 0);
    CU_ASSERT_EQUAL(nh, 4);
    free(h);
    runner_close(&r);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_intake__refuses_unsafe_names_and_foreign_sessions),
        UNIT_TEST(test_intake__sample_counts_the_sessions_active_when_taken),
        UNIT_TEST(test_intake__stores_every_time_on_the_controller_clock),
        UNIT_TEST(test_intake__capacity_from_measured_costs),
        UNIT_END,
    };
    return unit_run("intake", tests, NULL, NULL);
}

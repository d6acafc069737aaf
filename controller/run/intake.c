/* intake.c -- agents' events and records into the store, the ledger and the live score. */
#include "controller/run/intake.h"

#include "common/clock.h"
#include "common/log.h"
#include "common/names.h"
#include "controller/run/plan.h"
#include "controller/run/runner.h"
#include "db/store.h"

#include <stdio.h>

static void on_session(struct runner *r, const struct rec_session *e)
{
    ledger_event(&r->ledger, e->session, e->kind, e->reason);
    runner_stored(r, store_session_event(r->st, r->run, e), "session event");
}

const char *intake_refusal(const struct ledger *l, int slot, const struct proto_record *rec)
{
    uint32_t session;
    switch (rec->kind) {
    case PROTO_REC_SAMPLE:
        if (!name_is_safe(rec->u.sample.name))
            return "a sample name outside the safe character set";
        session = rec->u.sample.session;
        break;
    case PROTO_REC_SESSION: session = rec->u.session.session; break;
    case PROTO_REC_TRAFFIC: session = rec->u.traffic.session; break;
    default: return NULL;   /* health belongs to the agent itself */
    }
    return ledger_owns(l, slot, session) ? NULL : "a session it was not given";
}

static void records_cb(struct agentpool_agent *a, const struct proto_records *rs, void *arg)
{
    struct runner *r = arg;
    for (uint32_t i = 0; i < rs->count; i++) {
        const struct proto_record *rec = &rs->recs[i];
        const char *why = intake_refusal(&r->ledger, (int)a->slot, rec);
        if (why) {
            log_ratelimited(LOG_WARN, "refused-record", "agent %s reported %s; record ignored", a->name, why);
            continue;
        }
        switch (rec->kind) {
        case PROTO_REC_SAMPLE:
            r->samples++;
            runner_stored(r, store_add_sample(r->st, r->run, &rec->u.sample, r->ledger.active), "sample");
            livescore_add(&r->live, &rec->u.sample, r->ledger.active);
            break;
        case PROTO_REC_SESSION:
            on_session(r, &rec->u.session);
            break;
        case PROTO_REC_TRAFFIC:
            runner_stored(r, store_add_traffic(r->st, r->run, &rec->u.traffic), "traffic");
            break;
        case PROTO_REC_HEALTH:
            runner_stored(r, store_add_health(r->st, r->run, a->store_id, &rec->u.health), "health");
            break;
        }
    }
}

static void ready_cb(struct agentpool_agent *a, void *arg)
{
    struct runner *r = arg;
    int64_t id = store_add_agent(r->st, r->run, a->name, a->host, a->capacity);
    runner_stored(r, id > 0 ? 0 : -1, "agent");
    a->store_id = id > 0 ? id : 0;
    runner_note(r, "agent %s connected from %s (capacity %u) [%zu/%u]", a->name, a->host, a->capacity,
                agentpool_count(r->pool), r->plan->agents.count);
}

static void done_cb(struct agentpool_agent *a, const struct proto_done *d, void *arg)
{
    struct runner *r = arg;
    runner_stored(r, store_agent_status(r->st, a->store_id, "done", ""), "agent status");
    log_debug("agent %s finished (%u sessions ended, %u failed)", a->name, d->ended, d->failed);
    runner_stored(r, store_flush(r->st), "commit");
    agentpool_ack(a);
}

static void lost_cb(struct agentpool_agent *a, const char *reason, void *arg)
{
    struct runner *r = arg;
    char detail[RESULTS_DETAIL_LEN];
    snprintf(detail, sizeof detail, "agent %s lost: %s", a->name, reason);
    uint32_t n = ledger_agent_lost(&r->ledger, (int)a->slot);
    runner_stored(r, store_sessions_lost(r->st, r->run, a->store_id, FAIL_LOST, detail, clock_wall_us()), "lost");
    runner_stored(r, store_agent_status(r->st, a->store_id, "lost", reason), "agent status");
    runner_note(r, "%s; %u sessions marked lost, the run goes on", detail, n);
}

struct agentpool_events intake_events(struct runner *r)
{
    return (struct agentpool_events){ r, ready_cb, records_cb, done_cb, lost_cb };
}

/* intake.c -- agents' events and records into the store, the ledger and the live score. Every
 * time an agent sends (its wall clock) is stored on the controller's wall clock: less the
 * agent's clock offset measured at the handshake (agents.clock_offset_us keeps it), so samples,
 * sessions, traffic and health of different agents line up with each other and with the
 * controller's own times (launches, events). */
#include "controller/run/intake.h"

#include "common/clock.h"
#include "common/log.h"
#include "common/names.h"
#include "controller/run/phases.h"
#include "controller/run/plan.h"
#include "controller/run/runner.h"
#include "controller/run/webfeed.h"
#include "db/store.h"

#include <stdio.h>

/* The controller-clock time of something the agent timed with its own clock. */
static uint64_t ctl_time(const struct agentpool_agent *a, uint64_t agent_us)
{
    int64_t t = (int64_t)agent_us - a->clock_offset_us;
    return t > 0 ? (uint64_t)t : 0;
}

static void on_session(struct runner *r, const struct agentpool_agent *a, const struct rec_session *from_agent)
{
    struct rec_session e = *from_agent;
    e.t_us = ctl_time(a, e.t_us);
    ledger_event(&r->ledger, e.session, e.kind, e.reason, e.t_us);
    webfeed_session(r, &e);
    if (e.kind == SESSION_FAILED) {
        if (e.detail[0])
            snprintf(r->last_failure, sizeof r->last_failure, "%s", e.detail);
        snprintf(r->last_user, sizeof r->last_user, "%s", e.user);
        r->last_reason = e.reason;
    }
    runner_stored(r, store_session_event(r->st, r->run, &e), "session event");
}

/* A sample on the controller's clock, with the sessions active when it was taken. */
/* The capacity an agent with external clients derives from their measured costs
 * (agent/x11/capacity.h): the ramp places no more sessions on it than that, nor than declared. */
static void cost_capacity(struct runner *r, struct agentpool_agent *a, uint32_t derived)
{
    uint32_t cap = derived && derived < a->declared ? derived : a->declared;
    if (!derived || cap == a->capacity)
        return;
    a->capacity = cap;
    runner_note(r, "agent %s: capacity %u from its external clients' measured costs (declared %u)",
                a->name, cap, a->declared);
}

static void on_sample(struct runner *r, const struct agentpool_agent *a, const struct rec_sample *from_agent)
{
    struct rec_sample s = *from_agent;
    s.t_us = ctl_time(a, s.t_us);
    uint32_t active = ledger_active_at(&r->ledger, s.t_us);
    r->samples++;
    runner_stored(r, store_add_sample(r->st, r->run, &s, active), "sample");
    livescore_add(&r->live, &s, active);
    webfeed_sample(r, &s);
}

const char *intake_refusal(const struct ledger *l, int slot, const struct proto_record *rec)
{
    uint32_t session;
    switch (rec->kind) {
    case PROTO_REC_SAMPLE:
    case PROTO_REC_SAMPLE_AGENT:
        if (!name_is_safe(rec->u.sample.name))
            return "a sample name outside the safe character set";
        session = rec->u.sample.session;
        break;
    case PROTO_REC_SESSION: session = rec->u.session.session; break;
    case PROTO_REC_TRAFFIC:
    case PROTO_REC_TRAFFIC_RTT: session = rec->u.traffic.session; break;
    case PROTO_REC_LOGON: session = rec->u.logon.session; break;
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
        struct rec_traffic t;
        struct rec_health h;
        switch (rec->kind) {
        case PROTO_REC_SAMPLE:
        case PROTO_REC_SAMPLE_AGENT:
            on_sample(r, a, &rec->u.sample);
            break;
        case PROTO_REC_SESSION:
            on_session(r, a, &rec->u.session);
            break;
        case PROTO_REC_LOGON:
            runner_stored(r, store_session_logon(r->st, r->run, &rec->u.logon), "logon phases");
            break;
        case PROTO_REC_TRAFFIC:
        case PROTO_REC_TRAFFIC_RTT:
            t = rec->u.traffic;
            t.t_us = ctl_time(a, t.t_us);
            runner_stored(r, store_add_traffic(r->st, r->run, &t), "traffic");
            webfeed_traffic(r, &t);
            break;
        case PROTO_REC_HEALTH_CAP:
        case PROTO_REC_HEALTH_SCHED:
            cost_capacity(r, a, rec->u.health.ext_capacity);   /* and stored as any health */
            /* fall through */
        case PROTO_REC_HEALTH:
        case PROTO_REC_HEALTH_EXT:
            h = rec->u.health;
            h.t_us = ctl_time(a, h.t_us);
            runner_stored(r, store_add_health(r->st, r->run, a->store_id, &h), "health");
            webfeed_health(r, a->name, &h);
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
    if (id > 0)
        runner_stored(r, store_agent_clock(r->st, id, a->clock_offset_us, a->rtt_us), "agent clock");
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
    uint32_t n = ledger_agent_lost(&r->ledger, (int)a->slot, clock_wall_us());
    runner_stored(r, store_sessions_lost(r->st, r->run, a->store_id, FAIL_LOST, detail, clock_wall_us()), "lost");
    runner_stored(r, store_agent_status(r->st, a->store_id, "lost", reason), "agent status");
    webfeed_lost(r, a->name, n);
    runner_note(r, "%s; %u sessions marked lost, the run goes on", detail, n);
}

static void away_cb(struct agentpool_agent *a, const char *reason, void *arg)
{
    struct runner *r = arg;
    runner_stored(r, store_agent_status(r->st, a->store_id, "away", reason), "agent status");
    runner_note(r, "agent %s lost its link (%s); its sessions go on there, waiting up to %.0f s for it to come back",
                a->name, reason, r->plan->agents.grace_us / 1e6);
}

static void back_cb(struct agentpool_agent *a, void *arg)
{
    struct runner *r = arg;
    runner_stored(r, store_agent_status(r->st, a->store_id, "ready", ""), "agent status");
    runner_stored(r, store_agent_clock(r->st, a->store_id, a->clock_offset_us, a->rtt_us), "agent clock");
    runner_note(r, "agent %s is back after %.1f s (link resumed; results stored up to its batch %llu)", a->name,
                (clock_now_us() - a->away_since_us) / 1e6, (unsigned long long)a->last_seq);
    phases_resend(r, a);
}

static int commit_cb(void *arg)
{
    struct runner *r = arg;
    int rc = store_flush(r->st);
    runner_stored(r, rc, "commit");
    return rc;
}

struct agentpool_events intake_events(struct runner *r)
{
    return (struct agentpool_events){ r, ready_cb, records_cb, done_cb, lost_cb, away_cb, back_cb, commit_cb };
}

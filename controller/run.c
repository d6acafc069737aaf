/* run.c -- executes a plan (state machine in run.h): agents, ramp, logoff, persistence, faults.
 *
 * Invariants: the store is the only destination of results and is written on the loop thread;
 * a batch is acknowledged to its agent only after store_flush() committed it; sessions live in
 * `sess[]` with the state the store also has, so counts shown live match the database. */
#include "controller/run.h"

#include "common/clock.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/workload.h"
#include "controller/agentpool.h"
#include "controller/cmd.h"
#include "controller/plan.h"
#include "controller/plan_check.h"
#include "controller/progress.h"
#include "controller/ramp.h"
#include "controller/report.h"
#include "controller/score.h"
#include "controller/score_text.h"
#include "controller/summary.h"
#include "controller/verdict.h"
#include "db/store.h"

#include <event2/event.h>
#include <math.h>
#include <openssl/crypto.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TICK_MS 250
#define LOGOFF_GRACE_US 15000000ull
#define DRAIN_US 3000000ull

enum phase { PH_WAIT, PH_RAMP, PH_STEADY, PH_LOGOFF, PH_DRAIN, PH_END };
static const char *const phase_names[] = { "waiting for agents", "ramp", "steady", "logoff", "finishing", "end" };

enum sstate { S_NEW, S_LAUNCHED, S_ACTIVE, S_ENDED, S_FAILED };
struct sess {
    uint8_t state;
    int16_t agent;      /* slot, -1 none */
};

struct runner {
    struct plan_checked *pc;
    const struct plan *plan;
    const struct run_options *opt;
    struct event_base *base;
    struct store *st;
    int64_t run;
    struct pool *pool;
    char token[65];
    char password[512];
    struct sess *sess;
    uint32_t assigned[256];          /* sessions given to each agent slot */
    uint32_t launched, active, failed, ended, next_launch;
    uint32_t fail_streak, streak_reasons[FAIL__COUNT];
    enum phase phase;
    uint64_t t_start_us, t_ramp_us, t_steady_end_us, t_logoff_end_us, t_drain_end_us;
    struct event *tick, *launch_ev, *sig_int, *sig_term;
    struct score_sample *ss;
    double *index;
    size_t nss, capss, scored_nss;
    uint64_t last_score_us, samples;
    struct score_result live;
    double live_index;
    uint64_t cross_at_us;
    int aborted, failed_run, store_errors;
    int exit_code;
    char message[512];
    struct progress progress;
    FILE *out;
};

static void begin_logoff(struct runner *r, const char *why);

static void note(struct runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct runner *r, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    progress_note(&r->progress, "%s", line);
    if (r->st && r->run > 0)
        store_add_event(r->st, r->run, clock_wall_us(), "info", line);
}

static void stored(struct runner *r, int rc, const char *what)
{
    if (rc >= 0)
        return;
    r->store_errors++;
    log_ratelimited(LOG_ERROR, "store", "results store: %s failed: %s", what, store_errmsg(r->st));
}

/* --- sessions ------------------------------------------------------------------------------ */

static void launch(struct runner *r, uint32_t index)
{
    struct ramp_slot slots[256];
    size_t n = pool_count(r->pool);
    for (size_t i = 0; i < n && i < 256; i++) {
        struct pool_agent *a = pool_agent(r->pool, i);
        slots[i] = (struct ramp_slot){ a->capacity, r->assigned[i], a->state == POOL_AGENT_READY };
    }
    int pick = ramp_pick_agent(slots, n < 256 ? n : 256);
    char user[RESULTS_NAME_LEN];
    plan_user_name(r->plan, index, user, sizeof user);
    uint64_t now = clock_wall_us();
    r->launched++;
    if (pick < 0) {
        struct rec_session ev = { .session = index, .t_us = now, .kind = SESSION_FAILED, .reason = FAIL_LOST };
        snprintf(ev.user, sizeof ev.user, "%s", user);
        snprintf(ev.detail, sizeof ev.detail, "no live agent with free capacity");
        stored(r, store_session_launch(r->st, r->run, index, 0, user, now), "session launch");
        stored(r, store_session_event(r->st, r->run, &ev), "session event");
        r->sess[index].state = S_FAILED;
        r->failed++;
        r->fail_streak++;
        r->streak_reasons[FAIL_LOST]++;
        return;
    }
    struct pool_agent *a = pool_agent(r->pool, (size_t)pick);
    r->sess[index] = (struct sess){ S_LAUNCHED, (int16_t)pick };
    r->assigned[pick]++;
    stored(r, store_session_launch(r->st, r->run, index, a->store_id, user, now), "session launch");
    struct proto_msg m = { .type = PROTO_START };
    m.u.start.index = index;
    m.u.start.user = user;
    m.u.start.password = r->password;
    m.u.start.seed = r->plan->seed * 1000003ull + index;
    pool_send(a, &m);
}

static void launch_cb(evutil_socket_t fd, short what, void *arg)
{
    struct runner *r = arg;
    (void)fd;
    (void)what;
    if (r->phase != PH_RAMP)
        return;
    uint64_t elapsed = clock_now_us() - r->t_ramp_us;
    const struct plan *p = r->plan;
    while (r->next_launch < p->sessions &&
           ramp_launch_offset_us(r->next_launch, p->sessions, p->launch_window_us) <= elapsed)
        launch(r, r->next_launch++);
    if (r->next_launch < p->sessions) {
        uint64_t due = ramp_launch_offset_us(r->next_launch, p->sessions, p->launch_window_us) - elapsed;
        struct timeval tv = { (time_t)(due / 1000000), (suseconds_t)(due % 1000000) };
        evtimer_add(r->launch_ev, &tv);
        return;
    }
    r->phase = PH_STEADY;
    uint64_t rest = p->launch_window_us > elapsed ? p->launch_window_us - elapsed : 0;
    r->t_steady_end_us = clock_now_us() + rest + p->steady_state_us;
    note(r, "all %u sessions launched; steady state for %.0f s", p->sessions, (rest + p->steady_state_us) / 1e6);
}

static void session_failed(struct runner *r, uint32_t i, enum failure_reason reason)
{
    if (r->sess[i].state == S_ACTIVE)
        r->active--;
    r->sess[i].state = S_FAILED;
    r->failed++;
    r->fail_streak++;
    r->streak_reasons[reason < FAIL__COUNT ? reason : FAIL_INTERNAL]++;
}

static void on_session(struct runner *r, const struct rec_session *e)
{
    struct sess *s = &r->sess[e->session];
    int live = s->state == S_LAUNCHED || s->state == S_ACTIVE;
    switch (e->kind) {
    case SESSION_ACTIVE:
        if (s->state == S_LAUNCHED) {
            s->state = S_ACTIVE;
            r->active++;
            r->fail_streak = 0;
            memset(r->streak_reasons, 0, sizeof r->streak_reasons);
        }
        break;
    case SESSION_FAILED:
        if (live)
            session_failed(r, e->session, e->reason);
        break;
    case SESSION_ENDED:
        if (live) {
            if (s->state == S_ACTIVE)
                r->active--;
            s->state = S_ENDED;
            r->ended++;
        }
        break;
    default:
        break;
    }
    stored(r, store_session_event(r->st, r->run, e), "session event");
}

/* Only sessions this agent was given may be reported by it. */
static int owns(struct runner *r, struct pool_agent *a, uint32_t session)
{
    if (session < r->plan->sessions && r->sess[session].agent == (int16_t)a->slot)
        return 1;
    log_ratelimited(LOG_WARN, "foreign-session", "agent %s reported session %u it was not given; ignored",
                    a->name, session);
    return 0;
}

static void add_score_sample(struct runner *r, const struct rec_sample *s)
{
    if (!s->is_measure || strcmp(s->name, r->pc->score.params.measure) != 0)
        return;
    if (r->nss == r->capss) {
        size_t cap = r->capss ? r->capss * 2 : 4096;
        struct score_sample *n = realloc(r->ss, cap * sizeof *n);
        if (!n)
            return;
        r->ss = n;
        r->capss = cap;
    }
    r->ss[r->nss++] = (struct score_sample){ s->t_us, s->value_us, r->active, s->ok };
}

static void records_cb(struct pool_agent *a, const struct proto_records *rs, void *arg)
{
    struct runner *r = arg;
    for (uint32_t i = 0; i < rs->count; i++) {
        const struct proto_record *rec = &rs->recs[i];
        switch (rec->kind) {
        case PROTO_REC_SAMPLE:
            if (!owns(r, a, rec->u.sample.session))
                break;
            r->samples++;
            stored(r, store_add_sample(r->st, r->run, &rec->u.sample, r->active), "sample");
            add_score_sample(r, &rec->u.sample);
            break;
        case PROTO_REC_SESSION:
            if (owns(r, a, rec->u.session.session))
                on_session(r, &rec->u.session);
            break;
        case PROTO_REC_TRAFFIC:
            if (owns(r, a, rec->u.traffic.session))
                stored(r, store_add_traffic(r->st, r->run, &rec->u.traffic), "traffic");
            break;
        case PROTO_REC_HEALTH:
            stored(r, store_add_health(r->st, r->run, a->store_id, &rec->u.health), "health");
            break;
        }
    }
}

/* --- agents -------------------------------------------------------------------------------- */

static void ready_cb(struct pool_agent *a, void *arg)
{
    struct runner *r = arg;
    int64_t id = store_add_agent(r->st, r->run, a->name, a->host, a->capacity);
    stored(r, id > 0 ? 0 : -1, "agent");
    a->store_id = id > 0 ? id : 0;
    note(r, "agent %s connected from %s (capacity %u) [%zu/%u]", a->name, a->host, a->capacity,
         pool_count(r->pool), r->plan->agents.count);
}

static void done_cb(struct pool_agent *a, const struct proto_done *d, void *arg)
{
    struct runner *r = arg;
    stored(r, store_agent_status(r->st, a->store_id, "done", ""), "agent status");
    log_debug("agent %s finished (%u sessions ended, %u failed)", a->name, d->ended, d->failed);
    stored(r, store_flush(r->st), "commit");
    pool_ack(a);
}

static void lost_cb(struct pool_agent *a, const char *reason, void *arg)
{
    struct runner *r = arg;
    char detail[RESULTS_DETAIL_LEN];
    snprintf(detail, sizeof detail, "agent %s lost: %s", a->name, reason);
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->plan->sessions; i++)
        if (r->sess[i].agent == (int16_t)a->slot &&
            (r->sess[i].state == S_LAUNCHED || r->sess[i].state == S_ACTIVE)) {
            session_failed(r, i, FAIL_LOST);
            n++;
        }
    r->fail_streak -= n < r->fail_streak ? n : r->fail_streak;   /* an agent fault is not a target fault */
    r->streak_reasons[FAIL_LOST] = 0;
    stored(r, store_sessions_lost(r->st, r->run, a->store_id, FAIL_LOST, detail, clock_wall_us()), "lost");
    stored(r, store_agent_status(r->st, a->store_id, "lost", reason), "agent status");
    note(r, "%s; %u sessions marked lost, the run goes on", detail, n);
}

static int agents_settled(struct runner *r)
{
    for (size_t i = 0; i < pool_count(r->pool); i++)
        if (pool_agent(r->pool, i)->state == POOL_AGENT_READY)
            return 0;
    return 1;
}

static int agents_alive(struct runner *r)
{
    int n = 0;
    for (size_t i = 0; i < pool_count(r->pool); i++)
        n += pool_agent(r->pool, i)->state == POOL_AGENT_READY;
    return n;
}

/* --- phases -------------------------------------------------------------------------------- */

static void send_config(struct runner *r, struct pool_agent *a)
{
    const struct plan *p = r->plan;
    struct proto_msg m = { .type = PROTO_CONFIG };
    struct proto_config *c = &m.u.config;
    c->host = p->target.host;
    c->port = p->target.port;
    c->fingerprint = p->target.fingerprint ? p->target.fingerprint : "";
    c->no_verify = (uint8_t)p->target.no_verify;
    c->security = (char *)plan_security_name(p->target.security);
    c->domain = p->target.domain ? p->target.domain : "";
    c->gateway_host = p->transport == PLAN_TRANSPORT_GATEWAY ? p->gateway.host : "";
    c->gateway_port = p->gateway.port;
    c->workload_name = p->workload_path;
    c->workload_text = r->pc->wl_text;
    c->connect_timeout_ms = 30000;
    c->traffic_interval_ms = 5000;
    c->health_interval_ms = 2000;
    pool_send(a, &m);
}

static void start_ramp(struct runner *r)
{
    size_t n = pool_count(r->pool);
    uint64_t cap = 0;
    for (size_t i = 0; i < n; i++)
        cap += pool_agent(r->pool, i)->capacity;
    if (cap < r->plan->sessions) {
        snprintf(r->message, sizeof r->message, "the agents can host %llu sessions in total, the plan needs %u "
                 "(start agents with a larger --capacity, or more agents)", (unsigned long long)cap, r->plan->sessions);
        r->failed_run = 1;
        r->exit_code = EX_CONFIG;
        r->phase = PH_LOGOFF;
        begin_logoff(r, NULL);
        return;
    }
    pool_close_listener(r->pool);
    for (size_t i = 0; i < n; i++)
        send_config(r, pool_agent(r->pool, i));
    r->phase = PH_RAMP;
    r->t_ramp_us = clock_now_us();
    note(r, "ramp: %u sessions over %.0f s on %zu agents", r->plan->sessions, r->plan->launch_window_us / 1e6, n);
    event_active(r->launch_ev, EV_TIMEOUT, 0);
}

static void begin_logoff(struct runner *r, const char *why)
{
    if (r->phase >= PH_LOGOFF && why)
        return;
    if (why)
        note(r, "%s", why);
    r->phase = PH_LOGOFF;
    evtimer_del(r->launch_ev);
    uint32_t deadline_ms = (uint32_t)(r->plan->logoff_deadline_us / 1000);
    struct proto_msg m = { .type = PROTO_STOP };
    m.u.stop_deadline_ms = deadline_ms;
    for (size_t i = 0; i < pool_count(r->pool); i++) {
        struct pool_agent *a = pool_agent(r->pool, i);
        if (a->state == POOL_AGENT_READY)
            pool_send(a, &m);
    }
    r->t_logoff_end_us = clock_now_us() + r->plan->logoff_deadline_us + LOGOFF_GRACE_US;
}

static void begin_drain(struct runner *r)
{
    r->phase = PH_DRAIN;
    r->t_drain_end_us = clock_now_us() + DRAIN_US;
}

static void live_score(struct runner *r, uint64_t now)
{
    if (r->nss == r->scored_nss || now - r->last_score_us < 1000000)
        return;
    double *idx = realloc(r->index, r->nss * sizeof *idx);
    if (!idx)
        return;
    r->index = idx;
    char err[200];
    uint64_t t0 = clock_now_us();
    if (score_compute(&r->pc->score.params, r->ss, r->nss, &r->live, r->index, err, sizeof err) == 0) {
        r->live_index = NAN;
        for (size_t i = r->nss; i-- > 0;)
            if (!isnan(r->index[i])) {
                r->live_index = r->index[i];
                break;
            }
    }
    r->scored_nss = r->nss;
    /* never spend more than ~10% of the loop on the live score */
    r->last_score_us = now + 10 * (clock_now_us() - t0);
}

static void check_early_stop(struct runner *r, uint64_t now)
{
    if (!r->plan->early_stop || r->phase > PH_STEADY || r->live.status != SCORE_OK || !r->live.reached)
        return;
    if (!r->cross_at_us) {
        r->cross_at_us = now;
        note(r, "index crossed the threshold (%.0f ms > %.0f ms) at %u active sessions; stopping in %.0f s",
             r->live.cross_index_ms, r->live.threshold_ms, r->live.cross_active, r->plan->early_stop_margin_us / 1e6);
    }
    if (now - r->cross_at_us >= r->plan->early_stop_margin_us)
        begin_logoff(r, "early stop: the margin after the threshold crossing is over");
}

static void reasons_text(const uint32_t *counts, char *buf, size_t len)
{
    buf[0] = 0;
    for (int i = 1; i < FAIL__COUNT; i++)
        if (counts[i])
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s x%u", buf[0] ? ", " : "",
                     failure_reason_name((enum failure_reason)i), counts[i]);
}

/* The target is gone (or refuses everybody): the last sessions all failed and none is active. */
static void check_target(struct runner *r)
{
    uint32_t k = r->plan->sessions < 5 ? r->plan->sessions : 5;
    if (r->phase < PH_RAMP || r->phase > PH_STEADY || r->active > 0 || r->fail_streak < k)
        return;
    int in_flight = 0;
    for (uint32_t i = 0; i < r->plan->sessions && !in_flight; i++)
        in_flight = r->sess[i].state == S_LAUNCHED;
    if (in_flight && r->next_launch < r->plan->sessions && r->fail_streak < 2 * k)
        return;
    char reasons[200];
    reasons_text(r->streak_reasons, reasons, sizeof reasons);
    snprintf(r->message, sizeof r->message, "target %.100s:%u unavailable: the last %u sessions failed (%s) and none "
             "is active", r->plan->target.host, r->plan->target.port, r->fail_streak, reasons);
    r->failed_run = 1;
    begin_logoff(r, r->message);
}

static void show(struct runner *r, uint64_t now)
{
    const struct plan *p = r->plan;
    struct progress_state s = { phase_names[r->phase], p->sessions, r->launched, r->active, r->failed, r->ended,
                                (uint32_t)agents_alive(r), p->agents.count, r->live_index, NAN, NAN, 0, -1,
                                r->samples };
    if (r->live.status == SCORE_OK && r->nss) {
        s.threshold_ms = r->live.threshold_ms;
        s.baseline_ms = r->live.baseline_ms;
        s.crossed = !isnan(r->live_index) && r->live_index > r->live.threshold_ms;
    }
    if (r->phase == PH_RAMP || r->phase == PH_STEADY) {
        uint64_t end = r->t_ramp_us + p->launch_window_us + p->steady_state_us;
        s.left_s = end > now ? (end - now) / 1e6 : 0;
    } else if (r->phase == PH_LOGOFF) {
        s.left_s = r->t_logoff_end_us > now ? (r->t_logoff_end_us - now) / 1e6 : 0;
    }
    progress_show(&r->progress, &s, now);
}

static void commit_and_ack(struct runner *r)
{
    if (store_flush(r->st) < 0) {
        stored(r, -1, "commit");
        return;
    }
    for (size_t i = 0; i < pool_count(r->pool); i++)
        pool_ack(pool_agent(r->pool, i));
}

static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
    struct runner *r = arg;
    (void)fd;
    (void)what;
    uint64_t now = clock_now_us();
    commit_and_ack(r);
    live_score(r, now);
    switch (r->phase) {
    case PH_WAIT:
        if (pool_count(r->pool) >= r->plan->agents.count) {
            start_ramp(r);
        } else if (now - r->t_start_us > r->plan->agents.wait_us) {
            snprintf(r->message, sizeof r->message, "only %zu of %u agents connected within %.0f s",
                     pool_count(r->pool), r->plan->agents.count, r->plan->agents.wait_us / 1e6);
            r->failed_run = 1;
            r->exit_code = EX_UNAVAILABLE;
            begin_logoff(r, NULL);
        }
        break;
    case PH_RAMP:
    case PH_STEADY:
        check_early_stop(r, now);
        check_target(r);
        if (r->phase == PH_STEADY && now >= r->t_steady_end_us)
            begin_logoff(r, "steady state over: logging every session off");
        if (r->phase <= PH_STEADY && agents_alive(r) == 0) {
            snprintf(r->message, sizeof r->message, "every agent was lost");
            r->failed_run = 1;
            begin_logoff(r, r->message);
        }
        break;
    case PH_LOGOFF:
        if (agents_settled(r)) {
            begin_drain(r);
        } else if (now > r->t_logoff_end_us) {
            for (size_t i = 0; i < pool_count(r->pool); i++)
                if (pool_agent(r->pool, i)->state == POOL_AGENT_READY)
                    pool_drop(pool_agent(r->pool, i), "did not finish the logoff within the deadline");
        }
        break;
    case PH_DRAIN: {
        int open = 0;
        for (size_t i = 0; i < pool_count(r->pool); i++)
            open += pool_agent(r->pool, i)->wire != NULL;
        if (!open || now > r->t_drain_end_us) {
            r->phase = PH_END;
            event_base_loopexit(r->base, NULL);
        }
        break;
    }
    case PH_END:
        break;
    }
    show(r, now);
}

static void signal_cb(evutil_socket_t sig, short what, void *arg)
{
    struct runner *r = arg;
    (void)what;
    if (!r->aborted && r->phase < PH_LOGOFF) {
        r->aborted = 1;
        snprintf(r->message, sizeof r->message, "interrupted by signal %d", (int)sig);
        begin_logoff(r, "interrupted: logging every session off (press Ctrl-C again to stop at once)");
        return;
    }
    r->aborted = 1;
    if (!r->message[0])
        snprintf(r->message, sizeof r->message, "interrupted by signal %d", (int)sig);
    note(r, "stopping now: sessions still running are recorded as lost");
    for (size_t i = 0; i < pool_count(r->pool); i++)
        if (pool_agent(r->pool, i)->state == POOL_AGENT_READY)
            pool_drop(pool_agent(r->pool, i), "the run was interrupted");
    begin_drain(r);
}

/* --- setup and the end --------------------------------------------------------------------- */

static int open_store(struct runner *r, const char *path)
{
    char err[512];
    r->st = store_open(path, STORE_WRITE, err, sizeof err);
    if (!r->st) {
        fprintf(stderr, "sessmax run: %s\n", err);
        return EX_IOERR;
    }
    int stale = store_mark_stale_runs(r->st);
    if (stale > 0)
        fprintf(r->out, "%s: %d earlier run(s) were left running by a killed controller; marked aborted\n", path, stale);
    store_set_batch(r->st, 20000, 1000000);
    const struct plan *p = r->plan;
    char target[300];
    snprintf(target, sizeof target, "%s:%u", p->target.host, p->target.port);
    struct store_run_info info = { p->name, plan_transport_name(p->transport), p->platform, p->network, target,
                                   workload_name(r->pc->wl), workload_hash(r->pc->wl), p->text, r->pc->score_json,
                                   p->sessions, clock_wall_us() };
    r->run = store_run_begin(r->st, &info);
    if (r->run <= 0 || store_flush(r->st) < 0) {
        fprintf(stderr, "sessmax run: %s: cannot start a run: %s\n", path, store_errmsg(r->st));
        return EX_IOERR;
    }
    return 0;
}

static int get_token(struct runner *r)
{
    if (r->plan->agents.mode == PLAN_AGENTS_LOCAL)
        return proto_new_token(r->token) == 0 ? 0 : EX_SOFTWARE;
    const char *t = getenv("SESSMAX_TOKEN");
    if (!t || strlen(t) < 16 || strlen(t) >= sizeof r->token) {
        fprintf(stderr, "sessmax run: remote agents need a shared token of 16-64 characters in SESSMAX_TOKEN "
                        "(on the controller and on every agent), e.g. export SESSMAX_TOKEN=$(openssl rand -hex 32)\n");
        return EX_CONFIG;
    }
    snprintf(r->token, sizeof r->token, "%s", t);
    return 0;
}

static int start_pool(struct runner *r, const char *db_path)
{
    const struct plan *p = r->plan;
    char err[512], log_path[1024], shot_path[1024];
    const char *agent_log = r->opt->agent_log;
    if (!agent_log) {
        snprintf(log_path, sizeof log_path, "%s.agents.log", db_path);
        agent_log = log_path;
    }
    /* PNGs of timed-out waits go beside the results: <db>.shots/run-<id>/<user>-loop<k>-<timer>.png */
    snprintf(shot_path, sizeof shot_path, "%s.shots", db_path);
    mkdir(shot_path, 0755);
    snprintf(shot_path, sizeof shot_path, "%s.shots/run-%lld", db_path, (long long)r->run);
    const char *shot_dir = (mkdir(shot_path, 0755) == 0 || errno == EEXIST) ? shot_path : NULL;
    struct pool_config pc = { p->agents.mode == PLAN_AGENTS_LOCAL, p->agents.count, p->agents.listen,
                              p->agents.tls, r->token, p->agents.cpus,
                              p->agents.capacity ? p->agents.capacity
                                                 : p->agents.mode == PLAN_AGENTS_LOCAL ? p->sessions : 0,
                              (uint32_t)(p->agents.heartbeat_timeout_us / 1000),
                              r->opt->agent_bin ? r->opt->agent_bin : getenv("SESSMAX_AGENT_BIN"), agent_log,
                              shot_dir };
    struct pool_events ev = { r, ready_cb, records_cb, done_cb, lost_cb };
    r->pool = pool_new(r->base, &pc, &ev, err, sizeof err);
    if (!r->pool) {
        fprintf(stderr, "sessmax run: %s\n", err);
        return EX_UNAVAILABLE;
    }
    if (pc.local) {
        note(r, "started %u local agents on %s%s%s (log: %s)", p->agents.count, pool_address(r->pool),
             p->agents.cpus ? ", pinned to CPUs " : "", p->agents.cpus ? p->agents.cpus : "", agent_log);
        return 0;
    }
    note(r, "waiting up to %.0f s for %u agents on %s", p->agents.wait_us / 1e6, p->agents.count, pool_address(r->pool));
    if (p->agents.tls)
        note(r, "start each agent with: SESSMAX_TOKEN=... sessmax-agent connect HOST:%s --tls-pin %s",
             strrchr(pool_address(r->pool), ':') + 1, pool_tls_fingerprint(r->pool));
    else
        note(r, "WARNING: the agent link is plain TCP: session passwords cross the network unencrypted "
                "(set agents.tls: true)");
    return 0;
}

static int finish(struct runner *r, struct run_outcome *out)
{
    const char *status = r->aborted ? "aborted" : r->failed_run ? "failed" : "completed";
    if (!r->message[0])
        snprintf(r->message, sizeof r->message, "%u sessions: %u ended cleanly, %u failed", r->launched, r->ended,
                 r->failed);
    stored(r, store_flush(r->st), "commit");
    stored(r, store_run_end(r->st, r->run, status, clock_wall_us(), r->message), "run end");
    snprintf(out->status, sizeof out->status, "%s", status);
    snprintf(out->message, sizeof out->message, "%.250s", r->message);
    progress_done(&r->progress);
    fprintf(r->out, "run %lld %s: %s\n", (long long)r->run, status, r->message);
    if (r->exit_code)
        return r->exit_code;

    struct summary sum;
    struct verdict v;
    char err[512];
    if (summary_load(r->st, r->run, NULL, &sum, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax run: cannot score run %lld: %s\n", (long long)r->run, err);
        return EX_SOFTWARE;
    }
    int code = EX_DATAERR;
    if (verdict_evaluate(&sum, &v, err, sizeof err) == 0) {
        char reasons[1024];
        verdict_reasons(&v, reasons, sizeof reasons);
        struct store_score sc = { SCORE_VERSION, sum.score.baseline_ms, sum.score.threshold_ms, sum.score.smax,
                                  sum.score.reached, sum.launched, sum.active, sum.stuck, verdict_name(v.kind), reasons };
        stored(r, store_run_set_score(r->st, r->run, &sc), "score");
        score_text_print(r->out, &sum, &v);
        code = verdict_exit_code(v.kind);
        if ((r->aborted || r->failed_run || r->store_errors) && code == EXIT_PASS)
            code = EXIT_INCONCLUSIVE;
        if (r->opt->verdict_path && verdict_write_json(&sum, &v, r->opt->verdict_path, err, sizeof err) < 0)
            fprintf(stderr, "sessmax run: %s\n", err);
        if (r->opt->report_path) {
            if (report_write_summary(&sum, &v, r->opt->report_path, err, sizeof err) < 0)
                fprintf(stderr, "sessmax run: %s\n", err);
            else
                fprintf(r->out, "report: %s\n", r->opt->report_path);
        }
    } else {
        fprintf(stderr, "sessmax run: %s\n", err);
    }
    summary_free(&sum);
    stored(r, store_flush(r->st), "commit");
    return code;
}

static int setup_loop(struct runner *r)
{
    r->base = event_base_new();
    if (!r->base)
        return -1;
    r->tick = event_new(r->base, -1, EV_PERSIST, tick_cb, r);
    r->launch_ev = evtimer_new(r->base, launch_cb, r);
    r->sig_int = evsignal_new(r->base, SIGINT, signal_cb, r);
    r->sig_term = evsignal_new(r->base, SIGTERM, signal_cb, r);
    struct timeval tv = { 0, TICK_MS * 1000 };
    if (!r->tick || !r->launch_ev || !r->sig_int || !r->sig_term || event_add(r->tick, &tv) < 0 ||
        event_add(r->sig_int, NULL) < 0 || event_add(r->sig_term, NULL) < 0)
        return -1;
    return 0;
}

static void teardown(struct runner *r)
{
    pool_free(r->pool);
    if (r->tick) event_free(r->tick);
    if (r->launch_ev) event_free(r->launch_ev);
    if (r->sig_int) event_free(r->sig_int);
    if (r->sig_term) event_free(r->sig_term);
    if (r->base) event_base_free(r->base);
    store_close(r->st);
    free(r->sess);
    free(r->ss);
    free(r->index);
    OPENSSL_cleanse(r->password, sizeof r->password);
    OPENSSL_cleanse(r->token, sizeof r->token);
}

int run_execute(struct plan_checked *pc, const struct run_options *o, struct run_outcome *out)
{
    struct runner r = { .pc = pc, .plan = pc->plan, .opt = o, .run = -1, .live_index = NAN };
    r.out = o->out ? o->out : stdout;
    memset(out, 0, sizeof *out);
    out->run_id = -1;
    progress_init(&r.progress, r.out, o->tty);
    const char *db_path = o->db_path ? o->db_path : pc->plan->results;
    char err[512];
    int code;
    r.sess = calloc(pc->plan->sessions, sizeof *r.sess);
    if (!r.sess || setup_loop(&r) < 0) {
        fprintf(stderr, "sessmax run: out of memory\n");
        code = EX_SOFTWARE;
        goto out;
    }
    for (uint32_t i = 0; i < pc->plan->sessions; i++)
        r.sess[i].agent = -1;
    if (plan_read_password(pc->plan, r.password, sizeof r.password, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax run: %s\n", err);
        code = EX_CONFIG;
        goto out;
    }
    if ((code = get_token(&r)) != 0 || (code = open_store(&r, db_path)) != 0)
        goto out;
    out->run_id = r.run;
    fprintf(r.out, "run %lld of plan '%s' -> %s\n", (long long)r.run, pc->plan->name, db_path);
    r.t_start_us = clock_now_us();
    if ((code = start_pool(&r, db_path)) != 0) {
        snprintf(r.message, sizeof r.message, "agents could not start");
        r.failed_run = 1;
        r.exit_code = code;
        code = finish(&r, out);
        goto out;
    }
    event_base_dispatch(r.base);
    code = finish(&r, out);
out:
    teardown(&r);
    return code;
}

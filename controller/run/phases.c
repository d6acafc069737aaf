/* phases.c -- waiting for agents, the ramp, the steady state, logoff and the final drain. */
#include "controller/run/phases.h"

#include "common/clock.h"
#include "common/proto.h"
#include "controller/run/agentpool.h"
#include "controller/run/plan.h"
#include "controller/run/plan_check.h"
#include "controller/run/ramp.h"
#include "controller/run/runner.h"
#include "controller/run/webfeed.h"
#include "controller/run/targetload.h"
#include "controller/score/verdict.h"
#include "db/store.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#define LOGOFF_GRACE_US 15000000ull      /* after the agents' logoff deadline */
#define DRAIN_US 3000000ull              /* last records and acknowledgements */
#define TARGET_GONE_STREAK 5             /* failures in a row, none active: the target is gone */
#define SEED_STRIDE 1000003ull           /* session seed = plan seed * stride + index */

static const char *const phase_names[] = { "waiting for agents", "pre-flight", "ramp", "steady", "logoff", "finishing",
                                            "end" };

/* --- the ramp ------------------------------------------------------------------------------ */

static void send_start(struct runner *r, struct agentpool_agent *a, uint32_t index)
{
    char user[RESULTS_NAME_LEN];
    plan_user_name(r->plan, index, user, sizeof user);
    struct proto_msg m = { .type = PROTO_START };
    m.u.start.index = index;
    m.u.start.user = user;
    m.u.start.password = r->password;
    m.u.start.seed = r->plan->seed * SEED_STRIDE + index;
    agentpool_send(a, &m);
}

static void launch(struct runner *r, uint32_t index)
{
    struct ramp_slot slots[RUN_MAX_AGENTS];
    size_t n = agentpool_count(r->pool);
    if (n > RUN_MAX_AGENTS)
        n = RUN_MAX_AGENTS;
    for (size_t i = 0; i < n; i++) {
        struct agentpool_agent *a = agentpool_agent(r->pool, i);
        slots[i] = (struct ramp_slot){ a->capacity, r->ledger.assigned[i], a->state == AGENTPOOL_AGENT_READY };
    }
    int pick = ramp_pick_agent(slots, n);
    char user[RESULTS_NAME_LEN];
    plan_user_name(r->plan, index, user, sizeof user);
    uint64_t now = clock_wall_us();
    if (pick < 0) {
        struct rec_session ev = { .session = index, .t_us = now, .kind = SESSION_FAILED, .reason = FAIL_LOST };
        snprintf(ev.user, sizeof ev.user, "%s", user);
        snprintf(ev.detail, sizeof ev.detail, "no live agent with free capacity");
        runner_stored(r, store_session_launch(r->st, r->run, index, 0, user, now), "session launch");
        runner_stored(r, store_session_event(r->st, r->run, &ev), "session event");
        ledger_launch_failed(&r->ledger, index, FAIL_LOST);
        webfeed_session(r, &ev);
        return;
    }
    struct agentpool_agent *a = agentpool_agent(r->pool, (size_t)pick);
    ledger_launched(&r->ledger, index, pick);
    runner_stored(r, store_session_launch(r->st, r->run, index, a->store_id, user, now), "session launch");
    send_start(r, a, index);
}

void phases_launch_cb(evutil_socket_t fd, short what, void *arg)
{
    struct runner *r = arg;
    (void)fd;
    (void)what;
    if (r->phase != RUNNER_RAMP)
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
    r->phase = RUNNER_STEADY;
    uint64_t rest = p->launch_window_us > elapsed ? p->launch_window_us - elapsed : 0;
    r->t_steady_end_us = clock_now_us() + rest + p->steady_state_us;
    runner_note(r, "all %u sessions launched; steady state for %.0f s", p->sessions,
                (rest + p->steady_state_us) / 1e6);
}

/* --- the pre-flight ------------------------------------------------------------------------ */

/* The ramp's launches from now on; the sessions launched already (the pre-flight's) keep theirs. */
static void begin_ramp(struct runner *r)
{
    r->phase = RUNNER_RAMP;
    r->t_ramp_us = clock_now_us();
    runner_note(r, "ramp: %u sessions over %.0f s on %zu agents", r->plan->sessions - r->next_launch,
                r->plan->launch_window_us / 1e6, agentpool_count(r->pool));
    event_active(r->launch_ev, EV_TIMEOUT, 0);
}

/* The pre-flight is the run's first session, launched alone before the ramp on the agent the ramp
 * would pick, with the plan's target, pin, network profile, credentials and workload: the ramp
 * starts once its logon condition held (it stays on as the ramp's first session), and the run
 * stops in seconds when its logon failed instead of after the ramp. No extra logon, connection or
 * record: tests and targets that count them see the same run; remote agents do it as local ones. */
static void start_preflight(struct runner *r)
{
    char user[RESULTS_NAME_LEN];
    plan_user_name(r->plan, 0, user, sizeof user);
    r->phase = RUNNER_PREFLIGHT;
    r->t_ramp_us = clock_now_us();
    runner_note(r, "pre-flight: logging %s on before the ramp (`preflight: false` or --no-preflight skip this)", user);
    launch(r, r->next_launch++);
}

/* The pre-flight session failed: the run fails with a line that says why, and the code for it --
 * a refused logon is the verdict's 77, an unreachable target 69, a TLS failure 78. */
static void preflight_failed(struct runner *r)
{
    const struct plan *p = r->plan;
    char user[RESULTS_NAME_LEN], words[RESULTS_NAME_LEN + 80];
    plan_user_name(p, 0, user, sizeof user);
    const char *detail = r->last_failure[0] ? r->last_failure : "no detail";
    enum failure_reason why = r->last_user[0] ? r->last_reason : FAIL_LOST;
    switch (why) {
    case FAIL_AUTH:   /* the detail's own "authentication failed: " would say it twice */
        verdict_auth_words(user, words, sizeof words);
        if (!strncmp(detail, "authentication failed: ", 23))
            detail += 23;
        snprintf(r->message, sizeof r->message, "pre-flight failed: %s: %s", words, detail);
        break;
    case FAIL_CONNECT:
    case FAIL_CONNECT_TIMEOUT:
        snprintf(r->message, sizeof r->message, "pre-flight failed: target %.100s:%u unavailable: %s", p->target.host,
                 p->target.port, detail);
        r->end_code = EX_UNAVAILABLE;
        snprintf(r->end_why, sizeof r->end_why, "(unavailable): the pre-flight logon could not reach the target "
                 "%.100s:%u", p->target.host, p->target.port);
        break;
    case FAIL_TLS:
        snprintf(r->message, sizeof r->message, "pre-flight failed: TLS with the target %.100s:%u failed: %s "
                 "(`sessmax-agent probe %.100s:%u` prints its certificate's fingerprint and security layers)",
                 p->target.host, p->target.port, detail, p->target.host, p->target.port);
        r->end_code = EX_CONFIG;
        snprintf(r->end_why, sizeof r->end_why, "(configuration): the target's TLS does not match the plan's "
                 "fingerprint, verify or security");
        break;
    default:
        snprintf(r->message, sizeof r->message, "pre-flight failed: %s: %s: %s", user,
                 r->last_user[0] ? failure_reason_name(why) : "lost", detail);
        break;
    }
    r->failed_run = 1;
    phases_begin_logoff(r, r->message);
}

static void tick_preflight(struct runner *r, uint64_t now)
{
    const struct ledger_session *first = &r->ledger.sess[0];
    if (first->state == LEDGER_ACTIVE || first->state == LEDGER_ENDED) {
        runner_note(r, "pre-flight: the first session logged on in %.1f s", (now - r->t_ramp_us) / 1e6);
        begin_ramp(r);
    } else if (first->state == LEDGER_FAILED) {
        preflight_failed(r);
    } else if (runner_agents_alive(r) == 0) {
        snprintf(r->message, sizeof r->message, "every agent was lost");
        r->failed_run = 1;
        phases_begin_logoff(r, r->message);
    }
}

static void send_config(struct runner *r, struct agentpool_agent *a)
{
    struct proto_msg m;
    plan_check_config_msg(r->pc, &m);
    agentpool_send(a, &m);
}

static void start_ramp(struct runner *r)
{
    size_t n = agentpool_count(r->pool);
    uint64_t cap = 0;
    for (size_t i = 0; i < n; i++)
        cap += agentpool_agent(r->pool, i)->capacity;
    if (cap < r->plan->sessions) {
        snprintf(r->message, sizeof r->message, "the agents can host %llu sessions in total, the plan needs %u "
                 "(start agents with a larger --capacity, or more agents)", (unsigned long long)cap, r->plan->sessions);
        r->failed_run = 1;
        r->exit_code = EX_CONFIG;
        r->phase = RUNNER_LOGOFF;
        phases_begin_logoff(r, NULL);
        return;
    }
    if (r->plan->agents.mode == PLAN_AGENTS_LOCAL || !r->plan->agents.grace_us)
        agentpool_close_listener(r->pool);   /* else agents whose link breaks come back through it */
    for (size_t i = 0; i < n; i++)
        send_config(r, agentpool_agent(r->pool, i));
    r->configured = 1;
    if (r->preflight) {
        start_preflight(r);
        return;
    }
    begin_ramp(r);
}

/* --- the end of the run -------------------------------------------------------------------- */

void phases_begin_logoff(struct runner *r, const char *why)
{
    if (r->phase >= RUNNER_LOGOFF && why)
        return;
    if (why)
        runner_note(r, "%s", why);
    r->phase = RUNNER_LOGOFF;
    evtimer_del(r->launch_ev);
    struct proto_msg m = { .type = PROTO_STOP };
    m.u.stop_deadline_ms = (uint32_t)(r->plan->logoff_deadline_us / 1000);
    for (size_t i = 0; i < agentpool_count(r->pool); i++) {
        struct agentpool_agent *a = agentpool_agent(r->pool, i);
        if (a->state == AGENTPOOL_AGENT_READY)
            agentpool_send(a, &m);
    }
    r->t_logoff_end_us = clock_now_us() + r->plan->logoff_deadline_us + LOGOFF_GRACE_US;
}

static void begin_drain(struct runner *r)
{
    r->phase = RUNNER_DRAIN;
    r->t_drain_end_us = clock_now_us() + DRAIN_US;
}

static void check_early_stop(struct runner *r, uint64_t now)
{
    const struct score_result *s = &r->live.result;
    if (!r->plan->early_stop || r->phase > RUNNER_STEADY || s->status != SCORE_OK || !s->reached)
        return;
    if (!r->cross_at_us) {
        r->cross_at_us = now;
        runner_note(r, "index crossed the threshold (%.0f ms > %.0f ms) at %u active sessions; stopping in %.0f s",
                    s->cross_index_ms, s->threshold_ms, s->cross_active, r->plan->early_stop_margin_us / 1e6);
    }
    if (now - r->cross_at_us >= r->plan->early_stop_margin_us)
        phases_begin_logoff(r, "early stop: the margin after the threshold crossing is over");
}

/* The target is gone (or refuses everybody): the last sessions all failed and none is active. */
static void check_target(struct runner *r)
{
    const struct ledger *l = &r->ledger;
    uint32_t k = r->plan->sessions < TARGET_GONE_STREAK ? r->plan->sessions : TARGET_GONE_STREAK;
    if (r->phase < RUNNER_RAMP || r->phase > RUNNER_STEADY || l->active > 0 || l->fail_streak < k)
        return;
    if (ledger_in_flight(l) && r->next_launch < r->plan->sessions && l->fail_streak < 2 * k)
        return;
    char reasons[200];
    ledger_streak_text(l, reasons, sizeof reasons);
    if (ledger_streak_only(l, FAIL_AUTH)) {   /* it answers, and refuses the plan's credentials */
        char words[RESULTS_NAME_LEN + 80];
        verdict_auth_words(r->last_user, words, sizeof words);
        snprintf(r->message, sizeof r->message, "%s: the last %u sessions failed (%s) and none is active", words,
                 l->fail_streak, reasons);
    } else {
        snprintf(r->message, sizeof r->message, "target %.100s:%u unavailable: the last %u sessions failed (%s) and "
                 "none is active", r->plan->target.host, r->plan->target.port, l->fail_streak, reasons);
    }
    size_t n = strlen(r->message);
    if (r->last_failure[0])   /* what the agent saw: the peer, the errno, FreeRDP's error */
        snprintf(r->message + n, sizeof r->message - n, "; last: %s", r->last_failure);
    r->failed_run = 1;
    if (ledger_streak_unreachable(l)) {
        r->end_code = EX_UNAVAILABLE;
        snprintf(r->end_why, sizeof r->end_why, "(unavailable): no session could reach the target %.100s:%u",
                 r->plan->target.host, r->plan->target.port);
    }
    phases_begin_logoff(r, r->message);
}

static int agents_settled(struct runner *r)
{
    return runner_agents_alive(r) == 0;
}

/* --- the tick ------------------------------------------------------------------------------ */

static void show(struct runner *r, uint64_t now)
{
    const struct plan *p = r->plan;
    const struct ledger *l = &r->ledger;
    struct progress_state s = { phase_names[r->phase], p->sessions, l->launched, l->active, l->failed, l->ended,
                                (uint32_t)runner_agents_alive(r), p->agents.count, r->live.index_ms, NAN, NAN, 0, -1,
                                r->samples };
    if (r->live.result.status == SCORE_OK && r->live.nss) {
        s.threshold_ms = r->live.result.threshold_ms;
        s.baseline_ms = r->live.result.baseline_ms;
        s.crossed = !isnan(r->live.index_ms) && r->live.index_ms > r->live.result.threshold_ms;
    }
    if (r->phase == RUNNER_RAMP || r->phase == RUNNER_STEADY) {
        uint64_t end = r->t_ramp_us + p->launch_window_us + p->steady_state_us;
        s.left_s = end > now ? (end - now) / 1e6 : 0;
    } else if (r->phase == RUNNER_LOGOFF) {
        s.left_s = r->t_logoff_end_us > now ? (r->t_logoff_end_us - now) / 1e6 : 0;
    }
    progress_show(&r->progress, &s, now);
    webfeed_counts(r, &s, now);
}

static void commit_and_ack(struct runner *r)
{
    uint64_t t0 = clock_now_us();
    int rc = store_flush(r->st);
    uint64_t took = clock_now_us() - t0;
    r->commits++;
    r->commit_us += took;
    r->commit_max_us = took > r->commit_max_us ? took : r->commit_max_us;
    if (rc < 0) {
        runner_stored(r, -1, "commit");
        return;
    }
    for (size_t i = 0; i < agentpool_count(r->pool); i++)
        agentpool_ack(agentpool_agent(r->pool, i));
}

static void drop_ready_agents(struct runner *r, const char *reason)
{
    for (size_t i = 0; i < agentpool_count(r->pool); i++) {
        struct agentpool_agent *a = agentpool_agent(r->pool, i);
        if (a->state == AGENTPOOL_AGENT_READY || a->state == AGENTPOOL_AGENT_AWAY)
            agentpool_drop(a, reason);
    }
}

void phases_resend(struct runner *r, struct agentpool_agent *a)
{
    if (r->configured)
        send_config(r, a);
    for (uint32_t i = 0; i < r->ledger.sessions; i++)
        if (ledger_owns(&r->ledger, (int)a->slot, i) && r->ledger.sess[i].state == LEDGER_LAUNCHED)
            send_start(r, a, i);
    if (r->phase >= RUNNER_LOGOFF) {
        struct proto_msg m = { .type = PROTO_STOP };
        m.u.stop_deadline_ms = (uint32_t)(r->plan->logoff_deadline_us / 1000);
        agentpool_send(a, &m);
    }
}

static void tick_wait(struct runner *r, uint64_t now)
{
    if (agentpool_count(r->pool) >= r->plan->agents.count) {
        start_ramp(r);
    } else if (now - r->t_start_us > r->plan->agents.wait_us) {
        snprintf(r->message, sizeof r->message, "only %zu of %u agents connected within %.0f s",
                 agentpool_count(r->pool), r->plan->agents.count, r->plan->agents.wait_us / 1e6);
        r->failed_run = 1;
        r->exit_code = EX_UNAVAILABLE;
        phases_begin_logoff(r, NULL);
    }
}

static void tick_running(struct runner *r, uint64_t now)
{
    check_early_stop(r, now);
    check_target(r);
    const struct ledger *l = &r->ledger;
    if (r->phase == RUNNER_STEADY && r->plan->loops && l->failed + l->ended >= r->plan->sessions) {
        char why[96];
        snprintf(why, sizeof why, "every session ran its %u loops (or failed)", r->plan->loops);
        phases_begin_logoff(r, why);
    }
    if (r->phase == RUNNER_STEADY && now >= r->t_steady_end_us)
        phases_begin_logoff(r, r->plan->loops ? "steady state over before every session ran its loops: logging "
                            "every session off" : "steady state over: logging every session off");
    if (r->phase <= RUNNER_STEADY && runner_agents_alive(r) == 0) {
        snprintf(r->message, sizeof r->message, "every agent was lost");
        r->failed_run = 1;
        phases_begin_logoff(r, r->message);
    }
}

static void tick_drain(struct runner *r, uint64_t now)
{
    int open = 0;
    for (size_t i = 0; i < agentpool_count(r->pool); i++)
        open += agentpool_agent(r->pool, i)->wire != NULL;
    if (!open || now > r->t_drain_end_us) {
        r->phase = RUNNER_END;
        event_base_loopexit(r->base, NULL);
    }
}

void phases_tick_cb(evutil_socket_t fd, short what, void *arg)
{
    struct runner *r = arg;
    (void)fd;
    (void)what;
    uint64_t now = clock_now_us();
    ticklag_tick(&r->lag, now, PHASES_TICK_MS * 1000ull);
    struct store_target_load tl;
    if (r->target_load && now >= r->target_load_next_us) {
        r->target_load_next_us = now + PHASES_TARGET_LOAD_US;
        if (targetload_sample(r->target_load, clock_wall_us(), &tl) > 0) {
            runner_stored(r, store_add_target_load(r->st, r->run, &tl), "target load");
            webfeed_target(r, &tl);
        }
    }
    commit_and_ack(r);
    livescore_update(&r->live, now);
    switch (r->phase) {
    case RUNNER_WAIT:
        tick_wait(r, now);
        break;
    case RUNNER_PREFLIGHT:
        tick_preflight(r, now);
        break;
    case RUNNER_RAMP:
    case RUNNER_STEADY:
        tick_running(r, now);
        break;
    case RUNNER_LOGOFF:
        if (agents_settled(r))
            begin_drain(r);
        else if (now > r->t_logoff_end_us)
            drop_ready_agents(r, "did not finish the logoff within the deadline");
        break;
    case RUNNER_DRAIN:
        tick_drain(r, now);
        break;
    case RUNNER_END:
        break;
    }
    show(r, now);
}

void phases_signal_cb(evutil_socket_t sig, short what, void *arg)
{
    struct runner *r = arg;
    (void)what;
    if (!r->aborted && r->phase < RUNNER_LOGOFF) {
        r->aborted = 1;
        snprintf(r->message, sizeof r->message, "interrupted by signal %d", (int)sig);
        phases_begin_logoff(r, "interrupted: logging every session off (press Ctrl-C again to stop at once)");
        return;
    }
    r->aborted = 1;
    if (!r->message[0])
        snprintf(r->message, sizeof r->message, "interrupted by signal %d", (int)sig);
    runner_note(r, "stopping now: sessions still running are recorded as lost");
    drop_ready_agents(r, "the run was interrupted");
    begin_drain(r);
}

/* interp.c -- runs one session's workload on the agent's libevent loop (contract: interp.h).
 *
 *   IDLE --interp_start--> LOGON --logon condition--> RUN (loop, loop, ...) --interp_logoff-->
 *   LOGOFF (logoff steps) --> DONE (on_finished FAIL_NONE)
 *   LOGON --timeout--> DONE (on_logon ok=0; the engine fails the session)
 *   RUN/LOGOFF --wait timeout with on_timeout: fail--> DONE (on_finished FAIL_WAIT_TIMEOUT)
 *   any --driver call failed--> DEAD (silent: the engine reports why)
 *
 * The position in the workload is a stack of frames (the loop, a repeat's steps, a timer's
 * steps). Three one-shot timers drive everything, each re-armed explicitly: ev_step (the next
 * step: after a think, between typed characters, or "now" after a condition held), ev_tick
 * (`stable` conditions) and ev_timeout (the deadline of the wait or until being waited for);
 * the logon condition's watch and repaint requests are in interp_logon.c. A `wait` right after an input
 * step starts watching just before the step's last input (prearm_wait), so a change the input
 * causes in the step's trailing pause counts. Timer samples below their plausibility floor (the
 * fastest recent echo or `min:`) are stored as suspect. Callbacks into the engine (on_logon, on_finished)
 * come from the interpreter's timers, never from inside an engine call, and nothing touches the
 * interpreter after them (the engine may free it there). Paints read pixels only when they touch
 * a watched region. */
#include "agent/interp/interp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/interp/cond.h"
#include "agent/interp/interp_logon.h"
#include "agent/interp/keys.h"
#include "agent/interp/measure.h"
#include "agent/interp/state.h"
#include "common/clock.h"
#include "common/names.h"
#include "common/workload.h"

static void interp_rearm_tick(struct interp *in)
{
    uint64_t due = 0;
    for (int i = 0; i < CS_COUNT; i++) {
        uint64_t t = in->cs_active[i] ? cond_next_tick_us(&in->cs[i]) : 0;
        if (t && (!due || t < due))
            due = t;
    }
    if (!due) {
        evtimer_del(in->ev_tick);
        return;
    }
    uint64_t now = clock_now_us();
    interp_arm(in->ev_tick, due > now ? due - now : 0);
}

static void interp_stop_all(struct interp *in)
{
    evtimer_del(in->ev_step);
    evtimer_del(in->ev_tick);
    evtimer_del(in->ev_timeout);
    evtimer_del(in->ev_quiet);
    free(in->typed);
    in->typed = NULL;
    in->prearmed = NULL;
    in->cs_active[CS_WAIT] = in->cs_active[CS_TIMER] = in->cs_active[CS_FAIL] = 0;
    cond_end(&in->cs[CS_WAIT]);
    cond_end(&in->cs[CS_TIMER]);
    cond_end(&in->cs[CS_FAIL]);
    in->timer = NULL;
    in->wait_step = NULL;
    in->blocked = BL_NONE;
}

/* A driver call failed: the session cannot send any more; the engine reports why. */
static void die(struct interp *in)
{
    interp_stop_all(in);
    in->phase = PH_DEAD;
}

/* Ends the workload; on_finished is called from ev_step. */
static void finish(struct interp *in, enum failure_reason reason, const char *detail)
{
    interp_stop_all(in);
    in->phase = PH_DONE;
    in->finish_reason = reason;
    snprintf(in->finish_detail, sizeof in->finish_detail, "%s", detail ? detail : "");
    interp_arm_step(in, 0);
}

static void emit(void *ctx, const struct rec_sample *s)
{
    struct interp *in = ctx;
    if (in->host.sink && in->host.sink->sample)
        in->host.sink->sample(in->host.sink->ctx, s);
}

/* One sample that ended at monotonic end_us; share_us: the agent's share of it (UINT64_MAX: none). */
static void sample(struct interp *in, const char *name, int64_t value_us, uint64_t end_us, int ok, uint64_t share_us)
{
    uint64_t now = clock_now_us();
    struct rec_sample s = { .session = in->host.session_index, .loop = in->loops,
                            .t_us = clock_wall_us() - (now > end_us ? now - end_us : 0),
                            .value_us = value_us < 0 ? 0 : value_us, .ok = (uint8_t)ok };
    if (share_us != UINT64_MAX && ok != SAMPLE_FAILED && in->host.ops->ready_us) {
        s.has_agent = 1;
        s.agent_us = share_us > UINT32_MAX ? UINT32_MAX : (uint32_t)share_us;
    }
    snprintf(s.name, sizeof s.name, "%s", name);
    emit(in, &s);
    if (in->phase == PH_RUN && in->measures)
        measure_track_feed(in->measures, &s, emit, in);
}

static void interp_save_shot(struct interp *in, const char *what)
{
    if (!in->host.shot_dir || !in->host.ops->save_png)
        return;
    /* The user name and the timer name come from outside: each becomes one safe file-name
     * component, so a user pattern with "../" or '/' cannot write outside shot_dir. */
    char path[1024], who[RESULTS_NAME_LEN], name[RESULTS_NAME_LEN];
    if (in->host.user)
        name_sanitize(in->host.user, who, sizeof who);
    else
        snprintf(who, sizeof who, "session%u", in->host.session_index);
    name_sanitize(what, name, sizeof name);
    if (in->phase == PH_LOGON)
        snprintf(path, sizeof path, "%s/%s-logon.png", in->host.shot_dir, who);
    else
        snprintf(path, sizeof path, "%s/%s-loop%u-%s.png", in->host.shot_dir, who, in->loops, name);
    in->host.ops->save_png(in->host.sess, path);
}

/* Called just before every input is sent. */
static void note_input(struct interp *in)
{
    uint64_t now = clock_now_us();
    if (in->timer && !in->timer_input_us)
        in->timer_input_us = now;
    if (!in->echo_probe_us && in->phase == PH_RUN && !in->timer)   /* timed inputs are no yardstick */
        in->echo_probe_us = now;
}

uint64_t interp_echo_us(const struct interp *in)
{
    size_t n = in->necho < ECHO_RING ? in->necho : ECHO_RING;
    if (n < 3)
        return 0;
    uint64_t least = in->echo[0];
    for (size_t i = 1; i < n; i++)
        least = in->echo[i] < least ? in->echo[i] : least;
    return least;
}

/* Is an ok sample below the timer's plausibility floor: faster than `min`, or (min: echo) faster
 * than every recent echo of the session's inputs (the least time from an untimed input to the
 * first paint after it), or met before the timer's first input (then it cannot be the response
 * to it)? The least, not a typical echo: the server may answer an action on another path than
 * its echoes (simhost: a worker thread, against the one event loop that echoes every session's
 * keys), and under load that path can be the faster one, so real samples fell below the median. */
static int implausible(const struct interp *in, const struct workload_wait *w, uint64_t start, uint64_t end_us)
{
    if (in->timer_input_us && end_us <= in->timer_input_us)
        return 1;
    return interp_floor_rejects(w, end_us > start ? end_us - start : 0, interp_echo_us(in));
}

int interp_floor_rejects(const struct workload_wait *w, uint64_t value_us, uint64_t echo_us)
{
    if (w->min == WORKLOAD_MIN_FIXED)
        return value_us < w->min_us;
    return w->min == WORKLOAD_MIN_ECHO && echo_us && value_us < echo_us;
}

/* The running timer ends: one sample from its first input to met_us (ok) or end_us (timeout). */
static void end_timer(struct interp *in, int ok, uint64_t end_us)
{
    uint64_t start = in->timer_input_us ? in->timer_input_us : in->timer_start_us;
    const char *name = in->timer->name;
    int status = !ok ? SAMPLE_FAILED : implausible(in, &in->timer->wait, start, end_us) ? SAMPLE_SUSPECT : SAMPLE_OK;
    in->timer = NULL;
    in->cs_active[CS_TIMER] = in->cs_active[CS_FAIL] = 0;
    cond_end(&in->cs[CS_TIMER]);
    cond_end(&in->cs[CS_FAIL]);
    memset(&in->cs[CS_FAIL], 0, sizeof in->cs[CS_FAIL]);   /* no stale `met` for the next timer */
    sample(in, name, (int64_t)end_us - (int64_t)start, end_us, status,
           ok ? in->share_us[CS_TIMER] + in->timer_late_us : UINT64_MAX);
    if (ok && in->host.shot_timers && in->loops == 0)
        interp_save_shot(in, name);
}

/* A wait step right after the input step at f->i starts watching now, before that step's
 * (last) input: a change the input causes during the step's trailing pause is not missed. */
static void prearm_wait(struct interp *in, const struct frame *f)
{
    if (f->i + 1 >= f->n || f->steps[f->i + 1].kind != WORKLOAD_STEP_WAIT || in->cs_active[CS_WAIT])
        return;
    struct screen_view buf;
    const struct workload_step *w = &f->steps[f->i + 1];
    in->share_us[CS_WAIT] = 0;
    cond_begin(&in->cs[CS_WAIT], &w->wait, interp_view(in, &buf), clock_now_us());
    in->cs_active[CS_WAIT] = !in->cs[CS_WAIT].met;
    in->prearmed = w;
    interp_rearm_tick(in);
}

static void push(struct interp *in, const struct workload_step *steps, size_t n, uint32_t passes,
                 const struct workload_step *timer)
{
    if (in->depth == FRAMES_MAX) {
        finish(in, FAIL_INTERNAL, "workload nests deeper than the interpreter allows");
        return;
    }
    in->stack[in->depth++] = (struct frame){ steps, n, 0, passes ? passes - 1 : 0, timer };
}

/* A frame's steps are all done. Returns 1 to keep running steps now, 0 to return to the loop. */
static int pop(struct interp *in)
{
    struct frame *f = &in->stack[in->depth - 1];
    if (f->rep_left > 0) {
        f->rep_left--;
        f->i = 0;
        return 1;
    }
    if (f->timer) {
        in->depth--;
        if (f->timer->fail.n && in->cs[CS_FAIL].met) {   /* an error showed up while the steps ran */
            end_timer(in, 0, in->cs[CS_FAIL].met_us);
            return 1;
        }
        if (in->cs[CS_TIMER].met) {
            end_timer(in, 1, in->cs[CS_TIMER].met_us);
            return 1;
        }
        in->blocked = BL_UNTIL;
        interp_arm(in->ev_timeout, f->timer->wait.timeout_us);
        return 0;
    }
    if (in->depth > 1) {
        in->depth--;
        return 1;
    }
    if (in->phase == PH_LOGOFF) {
        finish(in, FAIL_NONE, NULL);
        return 0;
    }
    in->loops++;                             /* the loop starts again, after a turn of the event loop */
    if (in->measures)
        measure_track_reset(in->measures);
    f->i = 0;
    if (in->host.max_loops && in->loops >= in->host.max_loops)
        in->loops_done = 1;                  /* step_cb reports it; no further loop starts */
    interp_arm_step(in, 0);
    return 0;
}

/* Sends the next character of a type step. Returns 1 to go on now, 0 when ev_step is armed. */
static int type_step(struct interp *in, struct frame *f, const struct workload_step *s)
{
    if (!in->typed) {
        size_t need = workload_expand(s->text, in->host.user, NULL, 0) + 1;
        if (!(in->typed = malloc(need))) {
            finish(in, FAIL_INTERNAL, "out of memory");
            return 0;
        }
        workload_expand(s->text, in->host.user, in->typed, need);
        in->type_pos = in->typed;
    }
    uint32_t cp = keys_utf8_next(&in->type_pos);
    if (!*in->type_pos)
        prearm_wait(in, f);
    note_input(in);
    if (cp && keys_type_codepoint(in->host.ops, in->host.sess, cp) != 0) {
        die(in);
        return 0;
    }
    if (*in->type_pos) {
        interp_arm_step(in, s->rate_us);
        return 0;
    }
    free(in->typed);
    in->typed = NULL;
    f->i++;
    if (f->timer && f->i == f->n)            /* the timer's until starts right after its last input */
        return 1;
    interp_arm_step(in, s->rate_us);
    return 0;
}

/* Starts a wait step. Returns 1 when it already holds. */
static int wait_step(struct interp *in, const struct workload_step *s)
{
    struct screen_view buf;
    uint64_t now = clock_now_us();
    if (in->prearmed == s) {
        in->prearmed = NULL;
        if (in->cs[CS_WAIT].met)
            return 1;
    } else if ((in->share_us[CS_WAIT] = 0, cond_begin(&in->cs[CS_WAIT], &s->wait, interp_view(in, &buf), now))) {
        return 1;
    }
    in->cs_active[CS_WAIT] = 1;
    in->wait_step = s;
    in->blocked = BL_WAIT;
    interp_arm(in->ev_timeout, s->wait.timeout_us);
    interp_rearm_tick(in);
    return 0;
}

static void timer_step(struct interp *in, const struct workload_step *s)
{
    struct screen_view buf;
    in->timer = s;
    in->timer_start_us = clock_now_us();
    in->timer_input_us = 0;
    in->share_us[CS_TIMER] = in->share_us[CS_FAIL] = 0;
    in->timer_late_us = 0;
    cond_begin(&in->cs[CS_TIMER], &s->wait, interp_view(in, &buf), in->timer_start_us);
    in->cs_active[CS_TIMER] = !in->cs[CS_TIMER].met;
    in->cs_active[CS_FAIL] = 0;
    if (s->fail.n) {
        cond_begin(&in->cs[CS_FAIL], &s->fail, interp_view(in, &buf), in->timer_start_us);
        in->cs_active[CS_FAIL] = !in->cs[CS_FAIL].met;
    }
    interp_rearm_tick(in);
    push(in, s->steps, s->nsteps, 1, s);
}

/* Executes one step. Returns 1 to go on with the next step now, 0 when waiting for an event. */
static int exec(struct interp *in, struct frame *f)
{
    const struct workload_step *s = &f->steps[f->i];
    const struct driver_ops *ops = in->host.ops;
    void *sess = in->host.sess;
    int rc = 0;
    switch (s->kind) {
    case WORKLOAD_STEP_TYPE:
        return type_step(in, f, s);
    case WORKLOAD_STEP_THINK:
        f->i++;
        interp_arm_step(in, think_draw_us(&in->rng, s->think_min_us, s->think_max_us));
        return 0;
    case WORKLOAD_STEP_WAIT:
        if (!wait_step(in, s))
            return 0;
        f->i++;
        return 1;
    case WORKLOAD_STEP_TIMER:
        f->i++;
        timer_step(in, s);
        return in->phase == PH_RUN || in->phase == PH_LOGOFF;
    case WORKLOAD_STEP_REPEAT:
        f->i++;
        push(in, s->steps, s->nsteps, s->count, NULL);
        return in->phase == PH_RUN || in->phase == PH_LOGOFF;
    case WORKLOAD_STEP_KEY:
        prearm_wait(in, f);
        note_input(in);
        rc = keys_chord(ops, sess, s->chord, s->nchord);
        break;
    case WORKLOAD_STEP_CLICK:
        prearm_wait(in, f);
        note_input(in);
        rc = keys_click(ops, sess, s->x, s->y, s->button, s->double_click);
        break;
    case WORKLOAD_STEP_MOVE:
        prearm_wait(in, f);
        note_input(in);
        rc = keys_move(ops, sess, s->x, s->y);
        break;
    }
    if (rc != 0) {
        die(in);
        return 0;
    }
    f->i++;
    if (f->timer && f->i == f->n)            /* the timer's until starts right after its last input */
        return 1;
    if (s->pause_us) {
        interp_arm_step(in, s->pause_us);
        return 0;
    }
    return 1;
}

static void run(struct interp *in)
{
    while ((in->phase == PH_RUN || in->phase == PH_LOGOFF) && in->blocked == BL_NONE && in->depth > 0) {
        struct frame *f = &in->stack[in->depth - 1];
        if (!(f->i < f->n ? exec(in, f) : pop(in)))
            return;
    }
}

static void interp_begin_steps(struct interp *in, enum phase phase, const struct workload_step *steps, size_t n)
{
    in->phase = phase;
    in->depth = 0;
    push(in, steps, n, 1, NULL);
    interp_arm_step(in, 0);
}

/* From ev_step after the logon condition held: LOGON -> RUN, then on_logon(ok=1). Touches the
 * interpreter no more after on_logon (the engine may free it there). */
static void logon_enter_run(struct interp *in)
{
    int64_t logon_us = (int64_t)(in->cs[CS_WAIT].met_us - in->t0_us);
    interp_begin_steps(in, PH_RUN, in->wl->loop, in->wl->nloop);
    if (in->host.on_logon)
        in->host.on_logon(in->host.sess, 1, logon_us);
}

/* The logon deadline passed at now: a screenshot, then DEAD and on_logon(ok=0). */
static void logon_timeout(struct interp *in, uint64_t now)
{
    interp_save_shot(in, "logon");
    interp_stop_all(in);
    in->phase = PH_DEAD;
    if (in->host.on_logon)
        in->host.on_logon(in->host.sess, 0, (int64_t)(now - in->t0_us));
}

static void step_cb(evutil_socket_t fd, short what, void *arg)
{
    struct interp *in = arg;
    (void)fd;
    (void)what;
    uint64_t now = clock_now_us();
    if (in->timer && in->timer_input_us && !in->cs[CS_TIMER].met && in->step_due_us && now > in->step_due_us)
        in->timer_late_us += now - in->step_due_us;     /* a later input of the timer went out late */
    in->step_due_us = 0;
    if (in->phase == PH_LOGON && in->logon_met) {
        logon_enter_run(in);
        return;
    }
    if (in->phase == PH_RUN && in->loops_done) {
        if (in->loops_done++ == 1 && in->host.on_loops_done)
            in->host.on_loops_done(in->host.sess);   /* may call interp_logoff: nothing after */
        return;
    }
    if (in->phase == PH_DONE) {
        in->phase = PH_DEAD;                 /* report once */
        if (in->host.on_finished)
            in->host.on_finished(in->host.sess, in->finish_reason, in->finish_detail);
        return;
    }
    run(in);
}

/* A wait/until condition held: the workload goes on. */
static void on_met(struct interp *in, int which)
{
    if (in->phase == PH_LOGON) {
        interp_logon_met(in);
        return;
    }
    if (which == CS_WAIT) {
        in->cs_active[CS_WAIT] = 0;
        in->wait_step = NULL;
        if (in->blocked == BL_WAIT) {
            in->blocked = BL_NONE;
            in->stack[in->depth - 1].i++;
            evtimer_del(in->ev_timeout);
            interp_arm_step(in, 0);
        }
        return;
    }
    in->cs_active[which] = 0;
    if (in->blocked == BL_UNTIL) {           /* else the timer's steps still run; pop() ends it */
        in->blocked = BL_NONE;
        evtimer_del(in->ev_timeout);
        if (which == CS_FAIL) {
            uint64_t at = in->cs[CS_FAIL].met_us;
            char name[RESULTS_NAME_LEN];
            snprintf(name, sizeof name, "%s", in->timer->name);
            end_timer(in, 0, at);            /* a failed sample at once: the error is on screen */
            interp_save_shot(in, name);
        } else {
            end_timer(in, 1, in->cs[CS_TIMER].met_us);
        }
        interp_arm_step(in, 0);
    } else if (which == CS_FAIL) {
        in->cs_active[CS_TIMER] = 0;          /* pop() sees cs[CS_FAIL].met */
    }
}

static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
    struct interp *in = arg;
    struct screen_view buf;
    const struct screen_view *v = NULL;
    int fetched = 0;
    (void)fd;
    (void)what;
    uint64_t now = clock_now_us();
    for (int i = 0; i < CS_COUNT && in->phase != PH_DEAD && in->phase != PH_DONE; i++) {
        if (!in->cs_active[i] || !cond_next_tick_us(&in->cs[i]) || cond_next_tick_us(&in->cs[i]) > now)
            continue;
        if (!fetched++)
            v = interp_view(in, &buf);
        if (cond_on_tick(&in->cs[i], v, now))
            on_met(in, i);
    }
    if (in->phase != PH_DEAD && in->phase != PH_DONE)
        interp_rearm_tick(in);
}

static void timeout_cb(evutil_socket_t fd, short what, void *arg)
{
    struct interp *in = arg;
    char cond[96], detail[RESULTS_DETAIL_LEN], name[RESULTS_NAME_LEN];
    (void)fd;
    (void)what;
    uint64_t now = clock_now_us();
    if (in->phase == PH_LOGON) {
        logon_timeout(in, now);
        return;
    }
    const struct workload_wait *w;
    if (in->blocked == BL_UNTIL) {
        w = &in->timer->wait;
        snprintf(name, sizeof name, "%s", in->timer->name);
        cond_describe(&in->cs[CS_TIMER], cond, sizeof cond);
        end_timer(in, 0, now);
    } else if (in->blocked == BL_WAIT) {
        w = &in->wait_step->wait;
        snprintf(name, sizeof name, "wait.L%d", in->wait_step->line);
        cond_describe(&in->cs[CS_WAIT], cond, sizeof cond);
        sample(in, name, (int64_t)w->timeout_us, now, 0, UINT64_MAX);
        in->cs_active[CS_WAIT] = 0;
        cond_end(&in->cs[CS_WAIT]);
        in->wait_step = NULL;
        in->stack[in->depth - 1].i++;
    } else {
        return;
    }
    in->blocked = BL_NONE;
    interp_save_shot(in, name);
    if (snprintf(detail, sizeof detail, "%s: %s did not hold within %llums (%s:%d:%d)", name, cond,
                 (unsigned long long)(w->timeout_us / 1000), in->wl->file, w->line, w->col) >= (int)sizeof detail)
        detail[sizeof detail - 2] = '~';       /* truncated, still one line */
    if (w->on_timeout_fail) {
        finish(in, FAIL_WAIT_TIMEOUT, detail);
        return;
    }
    interp_rearm_tick(in);
    interp_arm_step(in, 0);
}

struct interp *interp_new(const struct workload *wl, const struct interp_host *host)
{
    struct interp *in = calloc(1, sizeof *in);
    if (!in)
        return NULL;
    in->wl = wl;
    in->host = *host;
    think_seed(&in->rng, host->seed);
    in->ev_step = evtimer_new(host->base, step_cb, in);
    in->ev_tick = evtimer_new(host->base, tick_cb, in);
    in->ev_timeout = evtimer_new(host->base, timeout_cb, in);
    in->ev_quiet = interp_logon_new_quiet(in);
    in->measures = wl->nmeasures ? measure_track_new(wl) : NULL;
    if (!in->ev_step || !in->ev_tick || !in->ev_timeout || !in->ev_quiet || (wl->nmeasures && !in->measures)) {
        interp_free(in);
        return NULL;
    }
    return in;
}

void interp_start(struct interp *in, uint64_t t0_us)
{
    if (in->phase != PH_IDLE)
        return;
    if (interp_logon_begin(in, t0_us))
        interp_logon_met(in);
    else
        interp_rearm_tick(in);
}

void interp_on_paint(struct interp *in, const struct rect *rects, size_t n)
{
    struct screen_view buf;
    const struct screen_view *v = NULL;
    int fetched = 0;
    uint64_t now = clock_now_us();
    if (in->phase != PH_LOGON && in->phase != PH_RUN && in->phase != PH_LOGOFF)
        return;
    if (in->echo_probe_us && n > 0) {
        in->echo[in->necho++ % ECHO_RING] = now - in->echo_probe_us;
        in->echo_probe_us = 0;
    }
    uint64_t ready = in->host.ops->ready_us ? in->host.ops->ready_us(in->host.sess) : 0;
    uint64_t share = ready && ready < now ? now - ready : 0;
    for (int i = 0; i < CS_COUNT; i++) {
        if (!in->cs_active[i] || !cond_wants_paint(&in->cs[i], rects, n))
            continue;
        in->share_us[i] = share;
        if (in->phase == PH_LOGON)
            in->logon_paint_us = now;
        if (!fetched++)
            v = interp_view(in, &buf);
        if (cond_on_paint(&in->cs[i], v, rects, n, now))
            on_met(in, i);
    }
    if (fetched)
        interp_rearm_tick(in);
}

void interp_logoff(struct interp *in)
{
    if (in->phase == PH_IDLE || in->phase == PH_LOGON) {
        finish(in, FAIL_NONE, NULL);
        return;
    }
    if (in->phase != PH_RUN)
        return;
    interp_stop_all(in);
    if (in->wl->nlogoff == 0)
        finish(in, FAIL_NONE, NULL);
    else
        interp_begin_steps(in, PH_LOGOFF, in->wl->logoff, in->wl->nlogoff);
}

uint32_t interp_logon_repaints(const struct interp *in)
{
    return in->repaints;
}

uint32_t interp_loops(const struct interp *in)
{
    return in->loops;
}

void interp_free(struct interp *in)
{
    if (!in)
        return;
    struct event *evs[] = { in->ev_step, in->ev_tick, in->ev_timeout, in->ev_quiet };
    for (size_t i = 0; i < sizeof evs / sizeof *evs; i++)
        if (evs[i])
            event_free(evs[i]);
    measure_track_free(in->measures);
    cond_end(&in->cs[CS_WAIT]);
    cond_end(&in->cs[CS_TIMER]);
    free(in->typed);
    free(in);
}

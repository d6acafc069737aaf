/* session_life.c -- the records, the end and the orderly logoff every session kind shares (see
 * session_life.h and the state diagram in session.h). */
#include "agent/engine/session_life.h"

#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/engine/logon_phases.h"
#include "agent/interp/interp.h"
#include "common/clock.h"
#include "common/log.h"

static void finish_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct session_life *l = arg;
    l->finish_pending = 0;
    session_life_end(l, l->finish_reason, l->finish_detail);
}

int session_life_init(struct session_life *l, const struct session_host *h,
                      const struct engine_session_spec *spec, const struct session_life_ops *ops,
                      void *owner)
{
    memset(l, 0, sizeof *l);
    l->h = h;
    l->ops = ops;
    l->owner = owner;
    l->index = spec->session_index;
    snprintf(l->user, sizeof l->user, "%s", spec->user ? spec->user : "");
    l->password = strdup(spec->password ? spec->password : "");
    l->wl = spec->workload;
    l->seed = spec->seed;
    l->finish_ev = event_new(h->base, -1, 0, finish_cb, l);
    return l->password && l->finish_ev ? 0 : -1;
}

void session_life_release(struct session_life *l)
{
    interp_free(l->interp);
    l->interp = NULL;
    session_life_wipe_password(l);
    if (l->finish_ev)
        event_free(l->finish_ev);
    l->finish_ev = NULL;
}

void session_life_emit(struct session_life *l, enum session_event_kind kind, int64_t value_us,
                       enum failure_reason reason, const char *detail)
{
    struct rec_session r = { .session = l->index, .t_us = clock_wall_us(), .kind = kind,
                             .value_us = value_us, .reason = reason };
    snprintf(r.user, sizeof r.user, "%s", l->user);
    if (detail)
        snprintf(r.detail, sizeof r.detail, "%s", detail);
    if (l->h->sink->session)
        l->h->sink->session(l->h->sink->ctx, &r);
}

void session_life_wipe_password(struct session_life *l)
{
    if (!l->password)
        return;
    explicit_bzero(l->password, strlen(l->password));
    free(l->password);
    l->password = NULL;
}

int session_life_terminal(const struct session_life *l)
{
    return l->state == SESSION_ST_DONE || l->state == SESSION_ST_FAILED;
}

int session_life_launch(struct session_life *l)
{
    if (l->state != SESSION_ST_NEW)
        return -1;
    l->state = SESSION_ST_CONNECTING;
    l->launched_us = clock_now_us();
    session_life_emit(l, SESSION_LAUNCHED, 0, FAIL_NONE, NULL);
    return 0;
}

void session_life_end(struct session_life *l, enum failure_reason reason, const char *detail)
{
    if (session_life_terminal(l))
        return;
    l->ops->teardown(l->owner);
    l->final_reason = reason;
    if (reason == FAIL_NONE) {
        l->state = SESSION_ST_DONE;
        session_life_emit(l, SESSION_ENDED, 0, FAIL_NONE, detail);
    } else {
        l->state = SESSION_ST_FAILED;
        session_life_emit(l, SESSION_FAILED, 0, reason, detail);
        log_ratelimited(LOG_INFO, "session-failed", "session %u (%s): %s: %s", l->index, l->user,
                        failure_reason_name(reason), detail ? detail : "");
    }
    if (l->h->on_terminal)
        l->h->on_terminal(l->h->arg);
}

void session_life_finish_later(struct session_life *l, enum failure_reason reason, const char *detail)
{
    if (l->finish_pending || session_life_terminal(l))
        return;
    l->finish_pending = 1;
    l->finish_reason = reason;
    snprintf(l->finish_detail, sizeof l->finish_detail, "%s", detail ? detail : "");
    if (reason != FAIL_NONE && l->ops->evidence)
        l->ops->evidence(l->owner, l->finish_detail, sizeof l->finish_detail);
    event_active(l->finish_ev, EV_TIMEOUT, 0);
}

void session_life_active(struct session_life *l, int64_t logon_us, const char *detail,
                         const struct logon_marks *marks)
{
    uint64_t ready_us = l->t0_us + (uint64_t)(logon_us > 0 ? logon_us : 0);
    int64_t total_us = l->launched_us && ready_us >= l->launched_us ? (int64_t)(ready_us - l->launched_us)
                                                                     : logon_us;
    l->state = SESSION_ST_RUNNING;
    session_life_emit(l, SESSION_ACTIVE, total_us, FAIL_NONE, detail && *detail ? detail : NULL);
    if (marks && l->h->sink->logon) {
        struct rec_logon r = { .session = l->index, .t_us = clock_wall_us() };
        logon_phases_compute(marks, l->launched_us, ready_us, r.phase_us);
        l->h->sink->logon(l->h->sink->ctx, &r);
    }
    if (l->logoff_requested) {
        l->logoff_requested = 0;
        session_life_logoff(l);
    }
}

int session_life_logoff(struct session_life *l)
{
    switch (l->state) {
    case SESSION_ST_NEW:
    case SESSION_ST_CONNECTING:
        return 1;
    case SESSION_ST_LOGON:
        /* let the logon finish first (the desktop then logs off), unless there is no workload */
        l->logoff_requested = 1;
        if (!l->interp)
            session_life_finish_later(l, FAIL_NONE, "logoff");
        break;
    case SESSION_ST_RUNNING:
        l->state = SESSION_ST_LOGOFF;
        session_life_emit(l, SESSION_LOGOFF, 0, FAIL_NONE, NULL);
        if (l->interp)
            interp_logoff(l->interp);
        else
            session_life_finish_later(l, FAIL_NONE, "logoff");
        break;
    default:
        break;
    }
    return 0;
}

void session_life_tap(const struct session_life *l, const struct rect *rects, size_t n)
{
    if (l->h->paint_tap)
        l->h->paint_tap(l->h->tap_arg, l->index, rects, n);
}

int session_life_start_interp(struct session_life *l, const struct session_life_calls *calls)
{
    const struct engine_config *cfg = l->h->cfg;
    struct interp_host ih = {
        .sess = l->owner, .ops = calls->driver, .base = l->h->base, .sink = l->h->sink,
        .session_index = l->index, .seed = l->seed, .shot_dir = cfg->shot_dir,
        .shot_timers = cfg->shot_timers, .max_loops = cfg->max_loops,
        .on_loops_done = calls->on_loops_done, .user = l->user, .on_logon = calls->on_logon,
        .on_finished = calls->on_finished,
    };
    if (!(l->interp = interp_new(l->wl, &ih))) {
        session_life_finish_later(l, FAIL_INTERNAL, "cannot create the workload interpreter");
        return -1;
    }
    interp_start(l->interp, l->t0_us);
    return 0;
}

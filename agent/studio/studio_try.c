/* studio_try.c -- one try of recorded steps by the workload interpreter (studio_try.h). The
 * interpreter's driver is a thin shim whose `sess` is the try, so its callbacks (logon, loops
 * done, finished) find it; each call goes on to the session's own driver. The end is reported
 * from an event of its own, one loop turn later, so done() may free the try and its interpreter
 * (which must not be freed inside its own callbacks). */
#include "agent/studio/studio_try.h"

#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/interp/interp.h"
#include "common/clock.h"
#include "common/workload.h"

#define TRY_TAIL_US 10000   /* the 10ms think studio_rec_try_yaml ends the loop with */

struct studio_try {
    const struct driver_ops *ops;
    void *sess;
    struct workload *wl;
    struct interp *in;
    struct result_sink sink;
    struct event *end_ev;
    uint64_t start_us, echo_hint_us;
    int ended;
    struct studio_try_result res;
    void (*done)(void *arg, const struct studio_try_result *r);
    void *arg;
};

static int sh_key(void *t, uint32_t code, int down)
{
    struct studio_try *s = t;
    return s->ops->key(s->sess, code, down);
}

static int sh_unicode(void *t, uint16_t u, int down)
{
    struct studio_try *s = t;
    return s->ops->unicode(s->sess, u, down);
}

static int sh_mouse(void *t, uint16_t flags, uint16_t x, uint16_t y)
{
    struct studio_try *s = t;
    return s->ops->mouse(s->sess, flags, x, y);
}

static int sh_screen(void *t, struct screen_view *out)
{
    struct studio_try *s = t;
    return s->ops->screen(s->sess, out);
}

static const struct driver_ops shim = {
    .key = sh_key, .unicode = sh_unicode, .mouse = sh_mouse, .screen = sh_screen,
};

/* The floor of the last timer of the try's loop (its `until`'s `min`). */
static void note_floor(struct studio_try *t)
{
    const struct workload_step *timer = NULL;
    for (size_t i = 0; i < t->wl->nloop; i++)
        if (t->wl->loop[i].kind == WORKLOAD_STEP_TIMER)
            timer = &t->wl->loop[i];
    t->res.echo_us = interp_echo_us(t->in);
    if (!timer)
        return;
    t->res.floor_echo = timer->wait.min == WORKLOAD_MIN_ECHO;
    uint64_t echo = t->res.echo_us ? t->res.echo_us : t->echo_hint_us;
    t->res.floor_hinted = t->res.floor_echo && !t->res.echo_us && echo;
    t->res.floor_us = timer->wait.min == WORKLOAD_MIN_FIXED ? timer->wait.min_us : t->res.floor_echo ? echo : 0;
    t->res.floor_rejects = t->res.timed && (t->res.status == SAMPLE_SUSPECT ||
                           (t->res.status == SAMPLE_OK &&
                            interp_floor_rejects(&timer->wait, (uint64_t)t->res.value_us, echo)));
}

/* The steps ended (or failed): report on the next loop turn. */
static void end_now(struct studio_try *t)
{
    if (t->ended)
        return;
    t->ended = 1;
    uint64_t now = clock_now_us();
    t->res.elapsed_us = (int64_t)(now - t->start_us) - (t->res.failed ? 0 : TRY_TAIL_US);
    if (t->res.elapsed_us < 0)
        t->res.elapsed_us = 0;
    note_floor(t);
    event_active(t->end_ev, EV_TIMEOUT, 0);
}

static void end_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct studio_try *t = arg;
    t->done(t->arg, &t->res);   /* may free t */
}

static void on_sample(void *ctx, const struct rec_sample *s)
{
    struct studio_try *t = ctx;
    if (s->is_measure || !strncmp(s->name, "wait.L", 6))
        return;
    t->res.timed = 1;
    snprintf(t->res.timer, sizeof t->res.timer, "%s", s->name);
    t->res.value_us = s->value_us;
    t->res.status = s->ok;
}

static void on_logon(void *t, int ok, int64_t logon_us)
{
    (void)logon_us;
    struct studio_try *s = t;
    if (!ok) {
        s->res.failed = 1;
        snprintf(s->res.detail, sizeof s->res.detail, "the session showed no screen");
        end_now(s);
    }
}

static void on_loops_done(void *t) { end_now(t); }

static void on_finished(void *t, enum failure_reason reason, const char *detail)
{
    struct studio_try *s = t;
    if (reason != FAIL_NONE) {
        s->res.failed = 1;
        snprintf(s->res.detail, sizeof s->res.detail, "%s", detail && *detail ? detail : failure_reason_name(reason));
    }
    end_now(s);
}

struct studio_try *studio_try_start(struct event_base *base, const struct driver_ops *ops, void *sess,
                                    struct workload *wl, const char *user, uint64_t echo_hint_us,
                                    void (*done)(void *arg, const struct studio_try_result *r), void *arg)
{
    struct studio_try *t = calloc(1, sizeof *t);
    if (!t) {
        workload_free(wl);
        return NULL;
    }
    *t = (struct studio_try){ .ops = ops, .sess = sess, .wl = wl, .done = done, .arg = arg, .echo_hint_us = echo_hint_us,
                              .sink = { .sample = on_sample } };
    t->sink.ctx = t;
    struct interp_host host = {
        .sess = t, .ops = &shim, .base = base, .sink = &t->sink, .seed = 1, .user = user,
        .on_logon = on_logon, .max_loops = 1, .on_loops_done = on_loops_done, .on_finished = on_finished,
    };
    t->end_ev = event_new(base, -1, 0, end_cb, t);
    if (!t->end_ev || !(t->in = interp_new(wl, &host))) {
        studio_try_free(t);
        return NULL;
    }
    t->start_us = clock_now_us();
    interp_start(t->in, t->start_us);
    return t;
}

void studio_try_paint(struct studio_try *t, const struct rect *rects, size_t n)
{
    if (t && !t->ended)
        interp_on_paint(t->in, rects, n);
}

void studio_try_free(struct studio_try *t)
{
    if (!t)
        return;
    interp_free(t->in);
    if (t->end_ev)
        event_free(t->end_ev);
    workload_free(t->wl);
    free(t);
}

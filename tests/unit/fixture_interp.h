/* fixture_interp.h -- a fake driver and host for the workload interpreter's tests
 * (test_interp_steps.c, test_interp_waits.c): a 128x96 frame buffer, an "application" that paints
 * a rectangle after a trigger key, a log of every input, and run()/go()/done() that load a workload,
 * drive the interpreter on a real event_base until it finishes, and free it all. Static functions
 * and state, one copy per test executable. */
#ifndef SESSMAX_FIXTURE_INTERP_H
#define SESSMAX_FIXTURE_INTERP_H

#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/interp/interp.h"
#include "common/clock.h"
#include "common/workload.h"
#include "unit.h"

#define FW 128
#define FH 96

struct fake {
    uint8_t fb[FW * FH * 4];
    char log[2048];
    int inputs, fail_keys;
    struct event_base *base;
    struct interp *in;
    struct workload *wl;
    /* the "application": on release of trigger_sc, paints app_rect app_paints times, 2 ms apart */
    uint32_t trigger_sc;
    struct workload_rect app_rect;
    int app_paints, app_left;
    uint32_t colour;
    /* the keyboard's echo: on release of scancode sc (< 128) with reply_us[sc] > 0, paints
     * reply_rect reply_us[sc] - 1 µs later (1: at once, on the next turn of the loop) */
    uint64_t reply_us[128];
    struct workload_rect reply_rect;
    struct event *reply_ev[128];
    struct event *app_ev, *logon_ev, *poll_ev, *guard_ev;
    int stop_inputs, stop_samples;
    uint32_t stop_loops;
    int logoff_sent, free_on_finish;
    struct rec_sample samples[32];
    int nsamples;
    int logon_calls, logon_ok;
    int64_t logon_us;
    int finished;
    enum failure_reason reason;
    char detail[RESULTS_DETAIL_LEN];
    char pngs[4][512];
    int npngs;
    int timed_out;
    int refreshes, paint_on_refresh;
};

static struct fake F;

static void logf_(const char *fmt, unsigned a, unsigned b, unsigned c)
{
    size_t n = strlen(F.log);
    snprintf(F.log + n, sizeof F.log - n, fmt, a, b, c);
    F.inputs++;
}

static void paint(struct workload_rect r)
{
    F.colour += 0x204080;   /* visible at RGB565 precision */
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++)
            memcpy(F.fb + ((size_t)y * FW + (size_t)x) * 4, &F.colour, 4);
    struct rect pr = { r.x, r.y, r.w, r.h };
    interp_on_paint(F.in, &pr, 1);
}

static void app_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd; (void)what; (void)arg;
    paint(F.app_rect);
    if (--F.app_left > 0) {
        struct timeval tv = { 0, 2000 };
        evtimer_add(F.app_ev, &tv);
    }
}

static void reply_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd; (void)what; (void)arg;
    paint(F.reply_rect);
}

static int f_key(void *s, uint32_t sc, int down)
{
    (void)s;
    logf_("k%x%c ", sc, down ? '+' : '-', 0);
    if (F.fail_keys)
        return -1;
    if (!down && sc < 128 && F.reply_us[sc]) {
        if (!F.reply_ev[sc])
            F.reply_ev[sc] = evtimer_new(F.base, reply_cb, NULL);
        struct timeval tv = { (time_t)((F.reply_us[sc] - 1) / 1000000), (suseconds_t)((F.reply_us[sc] - 1) % 1000000) };
        evtimer_add(F.reply_ev[sc], &tv);
    }
    if (!down && sc == F.trigger_sc && F.app_paints) {
        F.app_left = F.app_paints;
        struct timeval tv = { 0, 3000 };
        evtimer_add(F.app_ev, &tv);
    }
    return 0;
}

static int f_uni(void *s, uint16_t u, int down) { (void)s; logf_("u%x%c ", u, down ? '+' : '-', 0); return 0; }
static int f_mouse(void *s, uint16_t fl, uint16_t x, uint16_t y) { (void)s; logf_("m%x@%u,%u ", fl, x, y); return 0; }

static int f_screen(void *s, struct screen_view *v)
{
    (void)s;
    *v = (struct screen_view){ F.fb, FW, FH, FW * 4, 4 };
    return 0;
}

static int f_png(void *s, const char *path)
{
    (void)s;
    if (F.npngs < 4)
        snprintf(F.pngs[F.npngs++], sizeof F.pngs[0], "%s", path);
    return 0;
}

static int f_refresh(void *s)
{
    (void)s;
    F.refreshes++;
    if (F.paint_on_refresh)             /* a server that paints only when asked to */
        paint((struct workload_rect){ 0, 86, 128, 10 });
    return 0;
}

static const struct driver_ops ops = { f_key, f_uni, f_mouse, f_screen, f_png, f_refresh };

static void on_sample(void *ctx, const struct rec_sample *s)
{
    (void)ctx;
    if (F.nsamples < 32)
        F.samples[F.nsamples++] = *s;
}

static const struct result_sink sink = { .sample = on_sample };

static void on_logon(void *sess, int ok, int64_t us)
{
    (void)sess;
    F.logon_calls++;
    F.logon_ok = ok;
    F.logon_us = us;
    if (!ok)
        event_base_loopbreak(F.base);
}

static void on_finished(void *sess, enum failure_reason r, const char *detail)
{
    (void)sess;
    F.finished++;
    F.reason = r;
    snprintf(F.detail, sizeof F.detail, "%s", detail);
    if (F.free_on_finish) {           /* as the engine does: free from inside the callback */
        interp_free(F.in);
        F.in = NULL;
    }
    event_base_loopbreak(F.base);
}

static void poll_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd; (void)what; (void)arg;
    if (F.in && !F.logoff_sent && ((F.stop_inputs && F.inputs >= F.stop_inputs) ||
                                   (F.stop_samples && F.nsamples >= F.stop_samples) ||
                                   (F.stop_loops && interp_loops(F.in) >= F.stop_loops))) {
        F.logoff_sent = 1;
        interp_logoff(F.in);
    }
    struct timeval tv = { 0, 1000 };
    evtimer_add(F.poll_ev, &tv);
}

static void logon_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd; (void)what;
    paint(*(struct workload_rect *)arg);
}

static void guard_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd; (void)what; (void)arg;
    F.timed_out = 1;
    event_base_loopbreak(F.base);
}

static struct workload_rect taskbar = { 0, 86, 128, 10 };

/* Loads `yaml`, runs the interpreter until it finishes (or the logon fails, or 20 s pass). */
static void run(const char *yaml)
{
    char err[WORKLOAD_ERR_LEN];
    memset(&F, 0, sizeof F);
    F.wl = workload_load_string("t.yaml", yaml, strlen(yaml), err, sizeof err);
    if (!F.wl)
        fprintf(stderr, "\n  %s\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(F.wl);
    F.base = event_base_new();
    F.app_ev = evtimer_new(F.base, app_cb, NULL);
    F.logon_ev = evtimer_new(F.base, logon_cb, &taskbar);
    F.poll_ev = evtimer_new(F.base, poll_cb, NULL);
    F.guard_ev = evtimer_new(F.base, guard_cb, NULL);
}

static int shot_timers;
static uint32_t max_loops;

static void on_loops_done(void *sess)
{
    (void)sess;
    F.logoff_sent = 1;
    interp_logoff(F.in);
}

static void go(const char *user, const char *shot_dir, uint64_t seed, int paint_taskbar)
{
    struct interp_host host = { .sess = &F, .ops = &ops, .base = F.base, .sink = &sink, .session_index = 7,
                                .seed = seed, .shot_dir = shot_dir, .user = user, .shot_timers = shot_timers,
                                .max_loops = max_loops, .on_loops_done = on_loops_done,
                                .on_logon = on_logon, .on_finished = on_finished };
    F.in = interp_new(F.wl, &host);
    CU_ASSERT_PTR_NOT_NULL_FATAL(F.in);
    struct timeval ms1 = { 0, 1000 }, ms3 = { 0, 3000 }, guard = { 20, 0 };
    evtimer_add(F.poll_ev, &ms1);
    evtimer_add(F.guard_ev, &guard);
    if (paint_taskbar)
        evtimer_add(F.logon_ev, &ms3);
    interp_start(F.in, clock_now_us());
    event_base_dispatch(F.base);
    CU_ASSERT_FALSE(F.timed_out);
    if (getenv("TEST_VERBOSE")) {
        fprintf(stderr, "\n  log: %s\n  logon %d ok %d finished %d reason %d detail %s\n", F.log, F.logon_calls,
                F.logon_ok, F.finished, F.reason, F.detail);
        for (int i = 0; i < F.nsamples; i++)
            fprintf(stderr, "  sample %s loop %u ok %u v %lld\n", F.samples[i].name, F.samples[i].loop,
                    F.samples[i].ok, (long long)F.samples[i].value_us);
    }
}

static void done(void)
{
    interp_free(F.in);
    event_free(F.app_ev);
    event_free(F.logon_ev);
    event_free(F.poll_ev);
    event_free(F.guard_ev);
    for (int i = 0; i < 128; i++)
        if (F.reply_ev[i])
            event_free(F.reply_ev[i]);
    event_base_free(F.base);
    workload_free(F.wl);
}

/* The application paints `paints` times a 10x10 square at (x, 20), 3 ms after the release of the
 * key of scancode `sc`, then every 2 ms. */
static void app_on_key(uint32_t sc, int x, int paints)
{
    F.trigger_sc = sc;
    F.app_rect = (struct workload_rect){ x, 20, 10, 10 };
    F.app_paints = paints;
}

#define HEAD "version: 1\nname: t\ndesktop: {width: 128, height: 96, bpp: 32}\n" \
             "regions: {taskbar: [0, 86, 128, 10], win: [10, 10, 50, 40]}\n"

#endif

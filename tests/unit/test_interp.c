/* test_interp.c -- the workload interpreter on a real event_base with a fake driver: step order,
 * logon, timers and measure groups, timeouts (failed samples, PNGs, on_timeout), driver failure,
 * logoff at any time, seeded think times. Short durations; asserts order and outcomes only. */
#include "unit.h"

#include <event2/event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/interp.h"
#include "agent/measure.h"
#include "agent/think.h"
#include "common/clock.h"
#include "common/keymap.h"
#include "common/workload.h"

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

static int f_key(void *s, uint32_t sc, int down)
{
    (void)s;
    logf_("k%x%c ", sc, down ? '+' : '-', 0);
    if (F.fail_keys)
        return -1;
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
    event_base_free(F.base);
    workload_free(F.wl);
}

#define HEAD "version: 1\nname: t\ndesktop: {width: 128, height: 96, bpp: 32}\n" \
             "regions: {taskbar: [0, 86, 128, 10], win: [10, 10, 50, 40]}\n"

static void test_interp__step_order(void)
{
    run(HEAD
        "defaults: {type_rate: 1ms}\n"
        "logon: {pixel: {x: 0, y: 0, rgb: \"#000000\"}}\n"
        "loop:\n"
        "  - think: 1ms\n"
        "  - key: ctrl+alt+t\n"
        "  - type: \"Hi {user}\xc3\xa9\"\n"
        "  - click: win\n"
        "  - move: {x: 3, y: 4}\n"
        "  - think: 10s\n"
        "logoff:\n"
        "  - key: win+r\n"
        "  - type: \"x\\n\"\n");
    F.stop_inputs = 6 + 4 + 2 + 2 + 4 + 2 + 2 + 3 + 1;
    go("Ab", NULL, 1, 0);
    CU_ASSERT_STRING_EQUAL(F.log,
        "k1d+ k38+ k14+ k14- k38- k1d- "
        "k2a+ k23+ k23- k2a- k17+ k17- k39+ k39- k2a+ k1e+ k1e- k2a- k30+ k30- ue9+ ue9- "
        "m800@35,30 m9000@35,30 m1000@35,30 m800@3,4 "
        "k15b+ k13+ k13- k15b- k2d+ k2d- k1c+ k1c- ");
    CU_ASSERT_EQUAL(F.logon_calls, 1);
    CU_ASSERT_EQUAL(F.logon_ok, 1);
    CU_ASSERT_EQUAL(F.finished, 1);
    CU_ASSERT_EQUAL(F.reason, FAIL_NONE);
    CU_ASSERT_EQUAL(F.nsamples, 0);
    CU_ASSERT_EQUAL(interp_loops(F.in), 0);
    done();
}

static void test_interp__timers_and_measure(void)
{
    run(HEAD
        "defaults: {min: 0}\n"
        "logon: {change: taskbar, stable: {region: taskbar, for: 5ms}, timeout: 10s}\n"
        "loop:\n"
        "  - think: 30ms\n"
        "  - timer: a\n"
        "    steps: [{key: enter}]\n"
        "    until: {change: win, timeout: 10s}\n"
        "  - timer: b\n"
        "    steps: [{key: enter}]\n"
        "    until: {change: win, stable: {region: win, for: 5ms}, timeout: 10s}\n"
        "measures: {m: {a: 1, b: 0.5}}\n");
    F.trigger_sc = KEYMAP_SC_ENTER;
    F.app_rect = (struct workload_rect){ 20, 20, 10, 10 };
    F.app_paints = 2;
    F.stop_loops = 2;
    go("u", NULL, 1, 1);
    CU_ASSERT_EQUAL(F.logon_ok, 1);
    CU_ASSERT(F.logon_us > 0);
    CU_ASSERT_EQUAL(F.finished, 1);
    CU_ASSERT_EQUAL(F.reason, FAIL_NONE);
    CU_ASSERT_FATAL(F.nsamples >= 6);
    const char *names[] = { "a", "b", "m", "a", "b", "m" };
    for (int i = 0; i < 6; i++) {
        const struct rec_sample *s = &F.samples[i];
        CU_ASSERT_STRING_EQUAL(s->name, names[i]);
        CU_ASSERT_EQUAL(s->loop, (uint32_t)(i / 3));
        CU_ASSERT_EQUAL(s->session, 7);
        CU_ASSERT_EQUAL(s->ok, 1);
        CU_ASSERT_EQUAL(s->is_measure, i % 3 == 2);
        CU_ASSERT(s->value_us > 0);
        CU_ASSERT(s->t_us > 0);
        if (i % 3 == 2)
            CU_ASSERT_EQUAL(s->value_us, llround(F.samples[i - 2].value_us + 0.5 * F.samples[i - 1].value_us));
    }
    done();
}

static void test_interp__timeout_continues(void)
{
    run(HEAD
        "logon: {pixel: {x: 0, y: 0, rgb: \"#000000\"}}\n"
        "loop:\n"
        "  - timer: slow\n"
        "    steps: [{key: f1}]\n"
        "    until: {change: win, timeout: 20ms}\n"
        "  - wait: {pixel: {x: 0, y: 0, rgb: \"#ffffff\"}, timeout: 10ms}\n"
        "  - timer: a\n"
        "    steps: [{key: enter}]\n"
        "    until: {change: win}\n"
        "  - think: 1s\n"
        "measures: {m: {slow: 1, a: 1}}\n");
    F.trigger_sc = KEYMAP_SC_ENTER;
    F.app_rect = (struct workload_rect){ 20, 20, 10, 10 };
    F.app_paints = 1;
    F.stop_samples = 4;
    go("u1", "/shots", 1, 0);
    CU_ASSERT_EQUAL(F.finished, 1);
    CU_ASSERT_EQUAL(F.reason, FAIL_NONE);
    CU_ASSERT_EQUAL_FATAL(F.nsamples, 4);
    CU_ASSERT_STRING_EQUAL(F.samples[0].name, "slow");
    CU_ASSERT_EQUAL(F.samples[0].ok, 0);
    CU_ASSERT_STRING_EQUAL(F.samples[1].name, "wait.L10");
    CU_ASSERT_EQUAL(F.samples[1].ok, 0);
    CU_ASSERT_EQUAL(F.samples[1].value_us, 10000);
    CU_ASSERT_STRING_EQUAL(F.samples[2].name, "a");
    CU_ASSERT_EQUAL(F.samples[2].ok, 1);
    CU_ASSERT_STRING_EQUAL(F.samples[3].name, "m");
    CU_ASSERT_EQUAL(F.samples[3].ok, 0);            /* a member failed: the group fails */
    CU_ASSERT_EQUAL(F.samples[3].is_measure, 1);
    CU_ASSERT_EQUAL_FATAL(F.npngs, 2);
    CU_ASSERT_STRING_EQUAL(F.pngs[0], "/shots/u1-loop0-slow.png");
    CU_ASSERT_STRING_EQUAL(F.pngs[1], "/shots/u1-loop0-wait.L10.png");
    done();
}

/* until.fail: the error shows up -> a failed sample at once (the 60 s timeout never runs out:
 * the 20 s guard would end the test first), a screenshot, and the loop goes on. */
static void test_interp__fail_condition(void)
{
    run(HEAD
        "logon: {pixel: {x: 0, y: 0, rgb: \"#000000\"}}\n"
        "loop:\n"
        "  - timer: copy\n"
        "    steps: [{key: enter}]\n"
        "    until: {pixel: {x: 25, y: 25, rgb: \"#ffffff\"}, timeout: 60s, fail: {change: win}}\n"
        "  - timer: next\n"
        "    steps: [{key: f1}]\n"
        "    until: {stable: {region: win, for: 5ms}}\n");
    F.trigger_sc = KEYMAP_SC_ENTER;
    F.app_rect = (struct workload_rect){ 20, 20, 10, 10 };
    F.app_paints = 1;
    F.stop_samples = 2;
    go("u1", "/shots", 1, 0);
    CU_ASSERT_EQUAL(F.finished, 1);
    CU_ASSERT_EQUAL_FATAL(F.nsamples, 2);
    CU_ASSERT_STRING_EQUAL(F.samples[0].name, "copy");
    CU_ASSERT_EQUAL(F.samples[0].ok, 0);
    CU_ASSERT(F.samples[0].value_us < 60000000);
    CU_ASSERT_STRING_EQUAL(F.samples[1].name, "next");
    /* held (not failed); suspect, since a bare `stable` holds at the last paint, before f1 */
    CU_ASSERT_EQUAL(F.samples[1].ok, SAMPLE_SUSPECT);
    CU_ASSERT_EQUAL_FATAL(F.npngs, 1);
    CU_ASSERT_STRING_EQUAL(F.pngs[0], "/shots/u1-loop0-copy.png");
    done();
}

static void test_interp__timeout_fails(void)
{
    run(HEAD
        "logon: {pixel: {x: 0, y: 0, rgb: \"#000000\"}}\n"
        "loop:\n"
        "  - timer: slow\n"
        "    steps: [{key: f1}]\n"
        "    until: {change: win, timeout: 10ms, on_timeout: fail}\n"
        "  - key: f2\n");
    F.free_on_finish = 1;
    go("u1", NULL, 1, 0);
    CU_ASSERT_EQUAL(F.finished, 1);
    CU_ASSERT_EQUAL(F.reason, FAIL_WAIT_TIMEOUT);
    CU_ASSERT_STRING_EQUAL(F.detail, "slow: change win did not hold within 10ms (t.yaml:9:12)");
    CU_ASSERT_STRING_EQUAL(F.log, "k3b+ k3b- ");    /* f2 never pressed */
    CU_ASSERT_EQUAL(F.nsamples, 1);
    CU_ASSERT_EQUAL(F.samples[0].ok, 0);
    CU_ASSERT_EQUAL(F.npngs, 0);                    /* no shot_dir: no PNG */
    done();
}

static void test_interp__logon_timeout(void)
{
    run(HEAD "logon: {change: taskbar, timeout: 10ms}\nloop: [{key: a}, {think: 1s}]\n");
    go("u2", "/s", 1, 0);
    CU_ASSERT_EQUAL(F.logon_calls, 1);
    CU_ASSERT_EQUAL(F.logon_ok, 0);
    CU_ASSERT(F.logon_us > 0);
    CU_ASSERT_EQUAL(F.finished, 0);
    CU_ASSERT_EQUAL(F.inputs, 0);
    CU_ASSERT_EQUAL_FATAL(F.npngs, 1);
    CU_ASSERT_STRING_EQUAL(F.pngs[0], "/s/u2-logon.png");
    done();
}

/** A user name with "../" or '/' (a user pattern from a plan) names a file inside shot_dir. */
static void test_interp__shot_name_stays_inside(void)
{
    run(HEAD "logon: {change: taskbar, timeout: 10ms}\nloop: [{key: a}, {think: 1s}]\n");
    go("../../etc/u2", "/s", 1, 0);
    CU_ASSERT_EQUAL_FATAL(F.npngs, 1);
    CU_ASSERT_STRING_EQUAL(F.pngs[0], "/s/_._.._etc_u2-logon.png");
    CU_ASSERT_PTR_NULL(strchr(F.pngs[0] + 3, '/'));        /* one component under /s/ */
    done();
}

static void test_interp__logoff_before_logon(void)
{
    run(HEAD "logon: {change: taskbar, timeout: 10s}\nloop: [{key: a}, {think: 1s}]\nlogoff: [{key: b}]\n");
    struct interp_host host = { .sess = &F, .ops = &ops, .base = F.base, .sink = &sink,
                                .on_logon = on_logon, .on_finished = on_finished };
    F.in = interp_new(F.wl, &host);
    interp_start(F.in, clock_now_us());
    interp_logoff(F.in);
    CU_ASSERT_EQUAL(F.finished, 0);                 /* never called back from inside a call */
    interp_logoff(F.in);
    event_base_dispatch(F.base);
    CU_ASSERT_EQUAL(F.finished, 1);
    CU_ASSERT_EQUAL(F.reason, FAIL_NONE);
    CU_ASSERT_EQUAL(F.logon_calls, 0);
    CU_ASSERT_EQUAL(F.inputs, 0);
    done();
}

static void test_interp__driver_failure(void)
{
    run(HEAD "logon: {pixel: {x: 0, y: 0, rgb: \"#000000\"}}\nloop: [{key: a}, {think: 1ms}]\n");
    F.fail_keys = 1;
    struct interp_host host = { .sess = &F, .ops = &ops, .base = F.base, .sink = &sink,
                                .on_logon = on_logon, .on_finished = on_finished };
    F.in = interp_new(F.wl, &host);
    interp_start(F.in, clock_now_us());
    event_base_dispatch(F.base);                    /* returns: the interpreter left no events */
    CU_ASSERT_EQUAL(F.logon_calls, 1);
    CU_ASSERT_STRING_EQUAL(F.log, "k1e+ ");
    CU_ASSERT_EQUAL(F.finished, 0);                 /* the engine reports the failure */
    done();
}


/* A timer below its floor is suspect, not ok; so is one whose condition held before its input. */
static void test_interp__suspect_samples(void)
{
    run(HEAD
        "logon: {pixel: {x: 0, y: 0, rgb: \"#000000\"}}\n"
        "loop:\n"
        "  - timer: fast\n"
        "    steps: [{key: enter}]\n"
        "    until: {change: win, min: 500ms}\n"
        "  - timer: early\n"
        "    steps: [{think: 30ms}, {key: f1}]\n"
        "    until: {change: win, min: 0}\n"
        "  - timer: fine\n"
        "    steps: [{key: enter}]\n"
        "    until: {change: win, min: 1ms}\n"
        "  - think: 1s\n");
    F.trigger_sc = KEYMAP_SC_ENTER;      /* the app paints win 3 ms after enter, ten times */
    F.app_rect = (struct workload_rect){ 20, 20, 10, 10 };
    F.app_paints = 10;
    F.stop_samples = 3;
    go("u", NULL, 1, 0);
    CU_ASSERT_EQUAL_FATAL(F.nsamples, 3);
    CU_ASSERT_STRING_EQUAL(F.samples[0].name, "fast");
    CU_ASSERT_EQUAL(F.samples[0].ok, SAMPLE_SUSPECT);
    CU_ASSERT_STRING_EQUAL(F.samples[1].name, "early");     /* enter's paints went on meanwhile */
    CU_ASSERT_EQUAL(F.samples[1].ok, SAMPLE_SUSPECT);
    CU_ASSERT_EQUAL(F.samples[2].ok, SAMPLE_OK);
    done();
}

/* A wait after an input step watches from that step's last input: a change during the step's
 * trailing pause (type rate, key pause) is seen. Without a wait, the pause really pauses. */
static void test_interp__wait_armed_at_input(void)
{
    run(HEAD
        "logon: {pixel: {x: 0, y: 0, rgb: \"#000000\"}}\n"
        "loop:\n"
        "  - {type: \"ab\", rate: 40ms}\n"
        "  - wait: {change: win, timeout: 5ms, on_timeout: fail}\n"
        "  - {key: b, pause: 40ms}\n"
        "  - wait: {change: win, timeout: 5ms, on_timeout: fail}\n"
        "  - {key: b, pause: 40ms}\n"
        "  - timer: after_pause\n"
        "    until: {change: win, timeout: 20ms}\n"
        "  - think: 1s\n");
    F.trigger_sc = 0x30;                 /* 'b': the app paints win once, 3 ms after */
    F.app_rect = (struct workload_rect){ 20, 20, 10, 10 };
    F.app_paints = 1;
    F.stop_samples = 1;
    go("u", NULL, 1, 0);
    CU_ASSERT_EQUAL(F.reason, FAIL_NONE);
    CU_ASSERT_EQUAL_FATAL(F.nsamples, 1);
    CU_ASSERT_STRING_EQUAL(F.samples[0].name, "after_pause");
    CU_ASSERT_EQUAL(F.samples[0].ok, SAMPLE_FAILED);          /* the paint came during the pause */
    done();
}

/* `except`: paints inside the excluded area (the echo) never satisfy a change. */
static void test_interp__change_except(void)
{
    run("version: 1\nname: t\ndesktop: {width: 128, height: 96, bpp: 32}\n"
        "regions: {win: [10, 10, 50, 40], echo: [15, 15, 20, 20]}\n"
        "logon: {pixel: {x: 0, y: 0, rgb: \"#000000\"}}\n"
        "loop:\n"
        "  - timer: t\n"
        "    steps: [{key: enter}]\n"
        "    until: {change: {region: win, except: echo}, timeout: 30ms, min: 0}\n"
        "  - think: 1s\n");
    F.trigger_sc = KEYMAP_SC_ENTER;
    F.app_rect = (struct workload_rect){ 20, 20, 10, 10 };   /* inside echo */
    F.app_paints = 3;
    F.stop_samples = 1;
    go("u", NULL, 1, 0);
    CU_ASSERT_EQUAL_FATAL(F.nsamples, 1);
    CU_ASSERT_EQUAL(F.samples[0].ok, SAMPLE_FAILED);
    done();
    run("version: 1\nname: t\ndesktop: {width: 128, height: 96, bpp: 32}\n"
        "regions: {win: [10, 10, 50, 40], echo: [15, 15, 20, 20]}\n"
        "logon: {pixel: {x: 0, y: 0, rgb: \"#000000\"}}\n"
        "loop:\n"
        "  - timer: t\n"
        "    steps: [{key: enter}]\n"
        "    until: {change: {region: win, except: echo}, timeout: 1s, min: 0}\n"
        "  - think: 1s\n");
    F.trigger_sc = KEYMAP_SC_ENTER;
    F.app_rect = (struct workload_rect){ 30, 20, 10, 10 };   /* half outside echo */
    F.app_paints = 1;
    F.stop_samples = 1;
    go("u", NULL, 1, 0);
    CU_ASSERT_EQUAL_FATAL(F.nsamples, 1);
    CU_ASSERT_EQUAL(F.samples[0].ok, SAMPLE_OK);
    done();
}

/* A logon that sees no paint asks for a repaint, and the repaint makes it. PNGs of every timer
 * of the first loop when asked. */
static void test_interp__logon_repaint_and_timer_shots(void)
{
    run(HEAD
        "logon: {change: taskbar, repaint_after: 5ms, timeout: 5s}\n"
        "loop:\n"
        "  - {timer: a, steps: [{key: enter}], until: {change: win, min: 0}}\n"
        "  - think: 2ms\n");
    F.paint_on_refresh = 1;
    F.trigger_sc = KEYMAP_SC_ENTER;
    F.app_rect = (struct workload_rect){ 20, 20, 10, 10 };
    F.app_paints = 1;
    F.stop_loops = 2;
    shot_timers = 1;
    go("u5", "/d", 1, 0);
    shot_timers = 0;
    CU_ASSERT_EQUAL(F.logon_ok, 1);
    CU_ASSERT_EQUAL(F.refreshes, 1);
    CU_ASSERT_EQUAL(interp_logon_repaints(F.in), 1);
    CU_ASSERT(F.nsamples >= 2);
    CU_ASSERT_EQUAL_FATAL(F.npngs, 1);                       /* loop 0 only */
    CU_ASSERT_STRING_EQUAL(F.pngs[0], "/d/u5-loop0-a.png");
    done();
}

/* max_loops: the session stops exactly at the end of its last loop, before any input of the
 * next one, and the engine's logoff follows. */
static void test_interp__exact_loops(void)
{
    run(HEAD
        "logon: {pixel: {x: 0, y: 0, rgb: \"#000000\"}}\n"
        "loop: [{key: a}, {think: 2ms}]\n"
        "logoff: [{key: b}]\n");
    max_loops = 3;
    go("u", NULL, 1, 0);
    max_loops = 0;
    CU_ASSERT_EQUAL(F.finished, 1);
    CU_ASSERT_EQUAL(interp_loops(F.in), 3);
    CU_ASSERT_STRING_EQUAL(F.log, "k1e+ k1e- k1e+ k1e- k1e+ k1e- k30+ k30- ");
    done();
}

static void test_interp__think_seeded(void)
{
    struct think_rng a, b, c;
    think_seed(&a, 42);
    think_seed(&b, 42);
    think_seed(&c, 43);
    int differs = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = think_draw_us(&a, 2000000, 5000000), y = think_draw_us(&b, 2000000, 5000000);
        CU_ASSERT_EQUAL(x, y);
        CU_ASSERT(x >= 2000000 && x <= 5000000);
        differs |= x != think_draw_us(&c, 2000000, 5000000);
    }
    CU_ASSERT(differs);
    CU_ASSERT_EQUAL(think_draw_us(&a, 7, 7), 7);
    CU_ASSERT_EQUAL(think_draw_us(&a, 7, 3), 7);
    int seen[4] = { 0 };
    for (int i = 0; i < 400; i++)
        seen[think_draw_us(&a, 0, 3)]++;
    CU_ASSERT(seen[0] && seen[1] && seen[2] && seen[3]);   /* both ends reachable */
}

static void emit_rec(void *ctx, const struct rec_sample *s)
{
    struct rec_sample *out = ctx;
    int i = 0;
    while (out[i].name[0])
        i++;
    out[i] = *s;
}

static void feed(struct measure_track *mt, const char *name, int64_t v, int ok, struct rec_sample *out)
{
    struct rec_sample s = { .session = 3, .loop = 1, .t_us = 99, .value_us = v, .ok = (uint8_t)ok };
    snprintf(s.name, sizeof s.name, "%s", name);
    measure_track_feed(mt, &s, emit_rec, out);
}

static void test_interp__measure_groups(void)
{
    const char *y = HEAD "logon: {change: screen}\nloop:\n"
        "  - {timer: a, until: {change: win}}\n  - {timer: b, until: {change: win}}\n"
        "  - {timer: c, until: {change: win}}\n"
        "measures: {g1: {a: 0.2, b: 0.75}, g2: {c: 2}}\n";
    char err[WORKLOAD_ERR_LEN];
    struct workload *wl = workload_load_string("m.yaml", y, strlen(y), err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    struct measure_track *mt = measure_track_new(wl);
    struct rec_sample out[8];
    memset(out, 0, sizeof out);
    feed(mt, "a", 1000, 1, out);
    CU_ASSERT_EQUAL(out[0].name[0], '\0');
    feed(mt, "a", 3000, 1, out);                    /* latest sample counts */
    feed(mt, "c", 500, 1, out);
    CU_ASSERT_STRING_EQUAL(out[0].name, "g2");
    CU_ASSERT_EQUAL(out[0].value_us, 1000);
    feed(mt, "b", 2000, 0, out);
    CU_ASSERT_STRING_EQUAL(out[1].name, "g1");
    CU_ASSERT_EQUAL(out[1].value_us, 600 + 1500);
    CU_ASSERT_EQUAL(out[1].ok, 0);
    CU_ASSERT_EQUAL(out[1].is_measure, 1);
    CU_ASSERT_EQUAL(out[1].session, 3);
    CU_ASSERT_EQUAL(out[1].loop, 1);
    feed(mt, "b", 2000, 1, out);                    /* once per loop */
    CU_ASSERT_EQUAL(out[2].name[0], '\0');
    measure_track_reset(mt);
    feed(mt, "b", 2000, 1, out);
    feed(mt, "a", 1000, 1, out);
    CU_ASSERT_STRING_EQUAL(out[2].name, "g1");
    CU_ASSERT_EQUAL(out[2].value_us, 200 + 1500);
    CU_ASSERT_EQUAL(out[2].ok, 1);
    measure_track_free(mt);
    workload_free(wl);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_interp__step_order),
        UNIT_TEST(test_interp__timers_and_measure),
        UNIT_TEST(test_interp__timeout_continues),
        UNIT_TEST(test_interp__timeout_fails),
        UNIT_TEST(test_interp__fail_condition),
        UNIT_TEST(test_interp__logon_timeout),
        UNIT_TEST(test_interp__shot_name_stays_inside),
        UNIT_TEST(test_interp__logoff_before_logon),
        UNIT_TEST(test_interp__driver_failure),
        UNIT_TEST(test_interp__suspect_samples),
        UNIT_TEST(test_interp__wait_armed_at_input),
        UNIT_TEST(test_interp__change_except),
        UNIT_TEST(test_interp__logon_repaint_and_timer_shots),
        UNIT_TEST(test_interp__exact_loops),
        UNIT_TEST(test_interp__think_seeded),
        UNIT_TEST(test_interp__measure_groups),
        UNIT_END,
    };
    return unit_run("interp", tests, NULL, NULL);
}

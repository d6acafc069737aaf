/* test_interp_steps.c -- the workload interpreter on a real event_base with a fake driver
 * (fixture_interp.h): step order and the inputs each step sends, timers and measure groups, logoff
 * before logon, driver failure, an exact number of loops, seeded think times. Waits, timeouts and
 * screenshots: test_interp_waits.c. Short durations; asserts order and outcomes only. */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/interp/measure.h"
#include "agent/interp/think.h"
#include "common/keymap.h"
#include "fixture_interp.h"

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
    app_on_key(KEYMAP_SC_ENTER, 20, 2);
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

/* Each ok sample carries the agent's share of the paint that ended it: a change timer that of the
 * paint it held at, a stable one that of its last paint (driver ready_us 3 ms before it asks);
 * the measure group the weighted sum. The share is a part of the value, never more. */
static void test_interp__agent_share(void)
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
    app_on_key(KEYMAP_SC_ENTER, 20, 2);
    F.stop_loops = 1;
    F.ready_lag_us = 3000;
    go("u", NULL, 1, 1);
    CU_ASSERT_FATAL(F.nsamples >= 3);
    for (int i = 0; i < 3; i++) {
        const struct rec_sample *s = &F.samples[i];
        CU_ASSERT_EQUAL(s->has_agent, 1);
        CU_ASSERT((int64_t)s->agent_us <= s->value_us);
    }
    CU_ASSERT(F.samples[0].agent_us > 0 && F.samples[0].agent_us <= 3000);   /* ready was read after the paint's now */
    CU_ASSERT(F.samples[1].agent_us > 0 && F.samples[1].agent_us <= 3000);
    CU_ASSERT_EQUAL(F.samples[2].agent_us, llround(F.samples[0].agent_us + 0.5 * F.samples[1].agent_us));
    done();
}

/* Timed-out samples carry no share, nor do any when the driver cannot tell (ready_us NULL is the
 * x11 kind's case; a failed sample is the other). */
static void test_interp__agent_share_failed(void)
{
    struct rec_sample out[4];
    const char *y = HEAD "logon: {change: screen}\nloop:\n  - {timer: a, until: {change: win}}\n"
        "measures: {g: {a: 1}}\n";
    char err[WORKLOAD_ERR_LEN];
    struct workload *wl = workload_load_string("m.yaml", y, strlen(y), err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    struct measure_track *mt = measure_track_new(wl);
    memset(out, 0, sizeof out);
    struct rec_sample a = { .value_us = 900, .ok = SAMPLE_OK, .has_agent = 1, .agent_us = 40 };
    snprintf(a.name, sizeof a.name, "a");
    measure_track_feed(mt, &a, emit_rec, out);
    CU_ASSERT_EQUAL(out[0].has_agent, 1);
    CU_ASSERT_EQUAL(out[0].agent_us, 40);
    measure_track_reset(mt);
    a.has_agent = 0;
    measure_track_feed(mt, &a, emit_rec, out);
    CU_ASSERT_EQUAL(out[1].has_agent, 0);           /* a member without one: the group has none */
    measure_track_reset(mt);
    a.has_agent = 1;
    a.ok = SAMPLE_FAILED;
    measure_track_feed(mt, &a, emit_rec, out);
    CU_ASSERT_EQUAL(out[2].has_agent, 0);
    measure_track_free(mt);
    workload_free(wl);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_interp__step_order),
        UNIT_TEST(test_interp__timers_and_measure),
        UNIT_TEST(test_interp__logoff_before_logon),
        UNIT_TEST(test_interp__driver_failure),
        UNIT_TEST(test_interp__exact_loops),
        UNIT_TEST(test_interp__think_seeded),
        UNIT_TEST(test_interp__measure_groups),
        UNIT_TEST(test_interp__agent_share),
        UNIT_TEST(test_interp__agent_share_failed),
        UNIT_END,
    };
    return unit_run("interp_steps", tests, NULL, NULL);
}

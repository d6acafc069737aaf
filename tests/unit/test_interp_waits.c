/* test_interp_waits.c -- the workload interpreter's waits on a real event_base with a fake driver
 * (fixture_interp.h): a timeout that continues or fails the session, until.fail, logon timeout,
 * screenshots and their names, suspect samples, a wait armed at its step's input, `except` areas,
 * a logon repaint. Short durations; asserts order and outcomes only. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/keymap.h"
#include "fixture_interp.h"

/* Runs the loaded workload as `user` (seed 1, no taskbar paint) until it has taken `n` samples. */
static void go_samples(int n, const char *user, const char *shot_dir)
{
    F.stop_samples = n;
    go(user, shot_dir, 1, 0);
}

/* Loads a workload of HEAD, a logon that holds at once (the black pixel at 0,0) and `loop`, lets
 * Enter make the app paint win once, and runs it as u1 (screenshots under /shots) until `n` samples. */
static void go_loop_on_enter(const char *loop, int n)
{
    char yaml[2048];
    int len = snprintf(yaml, sizeof yaml, HEAD "logon: {pixel: {x: 0, y: 0, rgb: \"#000000\"}}\nloop:\n%s", loop);
    CU_ASSERT_FATAL(len > 0 && (size_t)len < sizeof yaml);
    run(yaml);
    app_on_key(KEYMAP_SC_ENTER, 20, 1);
    go_samples(n, "u1", "/shots");
}

static void test_interp__timeout_continues(void)
{
    go_loop_on_enter(
        "  - timer: slow\n"
        "    steps: [{key: f1}]\n"
        "    until: {change: win, timeout: 20ms}\n"
        "  - wait: {pixel: {x: 0, y: 0, rgb: \"#ffffff\"}, timeout: 10ms}\n"
        "  - timer: a\n"
        "    steps: [{key: enter}]\n"
        "    until: {change: win}\n"
        "  - think: 1s\n"
        "measures: {m: {slow: 1, a: 1}}\n", 4);
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
    go_loop_on_enter(
        "  - timer: copy\n"
        "    steps: [{key: enter}]\n"
        "    until: {pixel: {x: 25, y: 25, rgb: \"#ffffff\"}, timeout: 60s, fail: {change: win}}\n"
        "  - timer: next\n"
        "    steps: [{key: f1}]\n"
        "    until: {stable: {region: win, for: 5ms}}\n", 2);
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
    app_on_key(KEYMAP_SC_ENTER, 20, 10);   /* the app paints win 3 ms after enter, ten times */
    go_samples(3, "u", NULL);
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
    app_on_key(0x30, 20, 1);   /* 'b': the app paints win once, 3 ms after */
    go_samples(1, "u", NULL);
    CU_ASSERT_EQUAL(F.reason, FAIL_NONE);
    CU_ASSERT_EQUAL_FATAL(F.nsamples, 1);
    CU_ASSERT_STRING_EQUAL(F.samples[0].name, "after_pause");
    CU_ASSERT_EQUAL(F.samples[0].ok, SAMPLE_FAILED);          /* the paint came during the pause */
    done();
}

/* `except`: paints inside the excluded area (the echo) never satisfy a change. */
static void test_interp__change_except(void)
{
    static const struct { const char *timeout; int x, paints, ok; } cases[] = {
        { "30ms", 20, 3, SAMPLE_FAILED },   /* inside echo */
        { "1s", 30, 1, SAMPLE_OK },         /* half outside echo */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char yaml[1024];
        snprintf(yaml, sizeof yaml,
                 "version: 1\nname: t\ndesktop: {width: 128, height: 96, bpp: 32}\n"
                 "regions: {win: [10, 10, 50, 40], echo: [15, 15, 20, 20]}\n"
                 "logon: {pixel: {x: 0, y: 0, rgb: \"#000000\"}}\n"
                 "loop:\n"
                 "  - timer: t\n"
                 "    steps: [{key: enter}]\n"
                 "    until: {change: {region: win, except: echo}, timeout: %s, min: 0}\n"
                 "  - think: 1s\n", cases[i].timeout);
        run(yaml);
        app_on_key(KEYMAP_SC_ENTER, cases[i].x, cases[i].paints);
        go_samples(1, "u", NULL);
        CU_ASSERT_EQUAL_FATAL(F.nsamples, 1);
        CU_ASSERT_EQUAL(F.samples[0].ok, cases[i].ok);
        done();
    }
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
    app_on_key(KEYMAP_SC_ENTER, 20, 1);
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

/* min: echo (the default) is the fastest of the session's recent echoes, not a typical one: the
 * untimed keys echo after 30 ms once and 300 ms three times; a timer answered after 100 ms (below
 * the median echo, above the fastest) is ok, one met at once (below every echo: the echo of its
 * own key, say) is suspect. */
static void test_interp__echo_floor(void)
{
    run(HEAD
        "logon: {pixel: {x: 0, y: 0, rgb: \"#000000\"}}\n"
        "loop:\n"
        "  - key: a\n"
        "  - key: s\n"
        "  - think: 400ms\n"
        "  - key: s\n"
        "  - think: 400ms\n"
        "  - key: s\n"
        "  - think: 400ms\n"
        "  - timer: answered\n"
        "    steps: [{key: b}]\n"
        "    until: {change: win}\n"
        "  - think: 200ms\n"
        "  - timer: at_once\n"
        "    steps: [{key: c}]\n"
        "    until: {change: win}\n"
        "  - think: 1s\n");
    F.reply_rect = (struct workload_rect){ 20, 20, 10, 10 };
    F.reply_us[0x1E] = 30000;    /* a */
    F.reply_us[0x1F] = 300000;   /* s */
    F.reply_us[0x30] = 100000;   /* b */
    F.reply_us[0x2E] = 1;        /* c */
    go_samples(2, "u", NULL);
    CU_ASSERT_EQUAL_FATAL(F.nsamples, 2);
    CU_ASSERT_TRUE(interp_echo_us(F.in) >= 30000 && interp_echo_us(F.in) < 100000);
    CU_ASSERT_STRING_EQUAL(F.samples[0].name, "answered");
    CU_ASSERT_EQUAL(F.samples[0].ok, SAMPLE_OK);
    CU_ASSERT_STRING_EQUAL(F.samples[1].name, "at_once");
    CU_ASSERT_EQUAL(F.samples[1].ok, SAMPLE_SUSPECT);
    done();
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_interp__timeout_continues),
        UNIT_TEST(test_interp__timeout_fails),
        UNIT_TEST(test_interp__fail_condition),
        UNIT_TEST(test_interp__logon_timeout),
        UNIT_TEST(test_interp__shot_name_stays_inside),
        UNIT_TEST(test_interp__suspect_samples),
        UNIT_TEST(test_interp__echo_floor),
        UNIT_TEST(test_interp__wait_armed_at_input),
        UNIT_TEST(test_interp__change_except),
        UNIT_TEST(test_interp__logon_repaint_and_timer_shots),
        UNIT_END,
    };
    return unit_run("interp_waits", tests, NULL, NULL);
}

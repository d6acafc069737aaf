/* test_sim_cost.c -- the cost model: calibration yields positive, scale-proportional costs; the
 * capacity formula; and --predict's walk of a workload loop (commands, keystrokes, think, typing
 * and settle time, what each timer triggers, the measure group) and its printed figures. */
#include "unit.h"

#include "simhost/desktop/cost.h"
#include "simhost/model/predict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fixture_font.h"

static void test_sim_cost__capacity_formula(void)
{
    struct sim_costs c;
    struct sim_loop l;
    memset(&c, 0, sizeof c);
    memset(&l, 0, sizeof l);
    c.work_s[SIM_CMD_ZIP9] = 0.4;
    c.paint_s[SIM_CMD_ZIP9] = 0.1;
    c.work_s[SIM_CMD_CPU] = 0.2;
    c.key_s = 0.001;
    l.actions[SIM_CMD_ZIP9] = 1;
    l.actions[SIM_CMD_CPU] = 2;
    l.keystrokes = 100;
    l.think_s = 20;
    l.typing_s = 7;
    l.settle_s = 2;
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_action_s(&c, SIM_CMD_ZIP9), 0.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_loop_cpu_s(&c, &l), 0.5 + 0.4 + 0.1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_loop_user_s(&l), 29, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_loop_len_s(&c, &l), 30, 1e-9);   /* + the loop's own response */
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_capacity(&c, &l, 1), 30.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_capacity(&c, &l, 2.5), 75.0, 1e-9);
    /* a timer's CPU per sample: its actions and echoes over its occurrences */
    struct sim_loop_timer t = { .count = 2, .keystrokes = 4 };
    t.actions[SIM_CMD_ZIP9] = 2;
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_timer_cpu_s(&c, &t), 0.5 + 0.002, 1e-9);
    t.count = 0;
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_timer_cpu_s(&c, &t), 0, 1e-12);
    memset(&l, 0, sizeof l);
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_capacity(&c, &l, 1), 0, 1e-12);   /* nothing to carry */
}

static void test_sim_cost__calibration(void)
{
    struct sim_costs a, b;
    char err[512], dir[1024];
    snprintf(dir, sizeof dir, "%s/calib", unit_tmpdir());
    CU_ASSERT_EQUAL_FATAL(sim_cost_calibrate(&a, dir, 0.02, &font, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(sim_cost_calibrate(&b, dir, 0.08, &font, err, sizeof err), 0);
    enum sim_cmd_kind kinds[] = { SIM_CMD_EDIT, SIM_CMD_ZIP9, SIM_CMD_ZIP1, SIM_CMD_CPU };
    double sa = 0, sb = 0;
    for (size_t i = 0; i < 4; i++) {
        CU_ASSERT(a.work_s[kinds[i]] > 0);
        CU_ASSERT(a.paint_s[kinds[i]] > 0);
        sa += a.work_s[kinds[i]];
        sb += b.work_s[kinds[i]];
    }
    CU_ASSERT(a.key_s > 0 && a.key_s < sim_cost_action_s(&a, SIM_CMD_ZIP9));
    /* the paint goes through the session's encoder: a 16-bpp window's pixels, compressed */
    for (size_t i = 0; i < 4; i++) {
        CU_ASSERT(a.paint_raw[kinds[i]] >= 200LL * 200 * 2);
        CU_ASSERT(a.paint_bytes[kinds[i]] > 0 && a.paint_bytes[kinds[i]] < a.paint_raw[kinds[i]] / 2);
    }
    CU_ASSERT(a.tls_byte_s > 0);
    /* 4x the scale costs more work (not asserting a ratio: the machine is shared and noisy) */
    CU_ASSERT(sb > sa);
    CU_ASSERT_EQUAL_FATAL(sim_cost_calibrate_reps(&b, dir, 0.02, &font, 3, err, sizeof err), 0);
    CU_ASSERT_EQUAL(b.reps, 3);
    CU_ASSERT(b.work_s[SIM_CMD_ZIP9] > 0 && b.paint_s[SIM_CMD_ZIP9] > 0 && b.key_s > 0);
    CU_ASSERT_EQUAL(sim_cost_calibrate(&a, "/proc/no/such/dir", 0.02, &font, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/proc/no/such/dir"));
}

/* The real-session calibration's scaling: one factor on every action's work and paint and on the
 * key echo, so the loop costs the measured figure and each timer's demand grows by the same
 * factor; nothing changes when either figure is not positive. */
static void test_sim_cost__scale_to(void)
{
    struct sim_costs c, orig;
    struct sim_loop l;
    memset(&c, 0, sizeof c);
    memset(&l, 0, sizeof l);
    c.work_s[SIM_CMD_ZIP9] = 0.3, c.paint_s[SIM_CMD_ZIP9] = 0.01;
    c.work_s[SIM_CMD_EDIT] = 0.05, c.paint_s[SIM_CMD_EDIT] = 0.002;
    c.key_s = 0.0002;
    l.actions[SIM_CMD_ZIP9] = 1, l.actions[SIM_CMD_EDIT] = 2, l.keystrokes = 100;
    struct sim_loop_timer t = { .count = 1, .keystrokes = 3 };
    t.actions[SIM_CMD_ZIP9] = 1;
    orig = c;
    double model = sim_cost_loop_cpu_s(&c, &l), timer = sim_cost_timer_cpu_s(&c, &t);
    CU_ASSERT_DOUBLE_EQUAL(model, 0.31 + 0.104 + 0.02, 1e-9);
    double f = sim_cost_scale_to(&c, &l, 0.5642);
    CU_ASSERT_DOUBLE_EQUAL(f, 0.5642 / model, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_loop_cpu_s(&c, &l), 0.5642, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_timer_cpu_s(&c, &t), timer * f, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(c.work_s[SIM_CMD_EDIT], 0.05 * f, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c.paint_s[SIM_CMD_EDIT], 0.002 * f, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c.key_s, 0.0002 * f, 1e-12);
    c = orig;
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_scale_to(&c, &l, 0), 1, 1e-12);   /* no measurement: unchanged */
    CU_ASSERT_DOUBLE_EQUAL(c.work_s[SIM_CMD_ZIP9], 0.3, 1e-12);
    memset(&l, 0, sizeof l);
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_scale_to(&c, &l, 0.5), 1, 1e-12);  /* a loop with no CPU */
    CU_ASSERT_DOUBLE_EQUAL(c.key_s, 0.0002, 1e-12);
}

/* Each figure of a repeated calibration is the least of its measurements, field by field. */
static void test_sim_cost__keep_min(void)
{
    struct sim_costs best, c;
    memset(&best, 0, sizeof best);
    memset(&c, 0, sizeof c);
    best.work_s[SIM_CMD_ZIP9] = 0.3;
    best.paint_s[SIM_CMD_ZIP9] = 0.004;
    best.key_s = 0.0002;
    best.tls_byte_s = 2e-9;
    c.work_s[SIM_CMD_ZIP9] = 0.25;        /* lower: taken */
    c.paint_s[SIM_CMD_ZIP9] = 0.005;      /* higher: kept */
    c.key_s = 0.0001;
    c.tls_byte_s = 3e-9;
    sim_cost_keep_min(&best, &c);
    CU_ASSERT_DOUBLE_EQUAL(best.work_s[SIM_CMD_ZIP9], 0.25, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(best.paint_s[SIM_CMD_ZIP9], 0.004, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(best.key_s, 0.0001, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(best.tls_byte_s, 2e-9, 1e-18);
}

static void test_sim_cost__predict_walk(void)
{
    struct sim_loop l;
    char err[512];
    const char *p = unit_write_file("w.yaml",
        "version: 1\nname: t\nlogon: {change: screen, timeout: 5s}\n"
        "loop:\n"
        "  - repeat: {count: 3, steps: [{key: win+r}, {type: \"cpu\\n\"}, {think: 1s..3s}]}\n"
        "  - key: win+r\n"
        "  - type: \"zip9 doc1.txt\"\n"
        "  - key: enter\n"
        "  - key: win+r\n"
        "  - type: \"edit doc2.txt\"\n"
        "  - key: esc\n"                       /* closed: not run */
        "  - {type: \"hello {user}\", rate: 100ms}\n"
        "  - key: ctrl+o\n"
        "  - think: 4s\n");
    CU_ASSERT_EQUAL_FATAL(sim_predict_loop(p, &l, err, sizeof err), 0);
    CU_ASSERT_EQUAL(l.actions[SIM_CMD_CPU], 3);
    CU_ASSERT_EQUAL(l.actions[SIM_CMD_ZIP9], 1);
    CU_ASSERT_EQUAL(l.actions[SIM_CMD_EDIT], 0);
    CU_ASSERT_EQUAL(l.actions[SIM_CMD_OPEN], 1);
    CU_ASSERT_DOUBLE_EQUAL(l.think_s, 3 * 2.0 + 4, 1e-9);
    /* 3x "cpu\n" + "zip9 doc1.txt" + "edit doc2.txt" at 160 ms, "hello simuser001" at 100 ms,
     * and the default 100 ms pause after each of the 8 key steps */
    CU_ASSERT_DOUBLE_EQUAL(l.typing_s, (12 + 13 + 13) * 0.16 + 16 * 0.1 + 8 * 0.1, 1e-6);
    CU_ASSERT_EQUAL(l.keystrokes, 3 + 12 + 1 + 13 + 1 + 1 + 13 + 1 + 16 + 1);
}

static const struct sim_loop_timer *timer_of(const struct sim_loop *l, const char *name)
{
    for (size_t i = 0; i < l->ntimers; i++)
        if (!strcmp(l->timers[i].name, name))
            return &l->timers[i];
    return NULL;
}

static const char timed_loop[] =
    "version: 1\nname: t\nlogon: {change: screen, timeout: 5s}\n"
    "loop:\n"
    "  - key: win+r\n"
    "  - type: \"edit doc1.txt\"\n"
    "  - timer: start\n"
    "    steps: [{key: enter}]\n"
    "    until: {change: screen, stable: {region: screen, for: 300ms}}\n"
    "  - repeat:\n"
    "      count: 2\n"
    "      steps:\n"
    "        - {timer: open, steps: [{key: ctrl+o}], until: {stable: {region: screen, for: 200ms}}}\n"
    "        - key: esc\n"
    "        - wait: {stable: {region: screen, for: 100ms}, timeout: 5s}\n"
    "  - {timer: echo, steps: [{type: \"ab\"}], until: {change: screen}}\n"
    "  - think: 2s\n"
    "  - key: win+r\n"
    "  - {timer: z, steps: [{type: \"zip9 doc2.txt\\n\"}], until: {change: screen, timeout: 30s}}\n";

static void test_sim_cost__predict_settle_and_timers(void)
{
    char text[2048], err[512];
    struct sim_loop l;
    snprintf(text, sizeof text, "%smeasures:\n  m1: {start: 0.5, open: 1}\n  vsi: {z: 1}\n", timed_loop);
    const char *p = unit_write_file("timed.yaml", text);
    CU_ASSERT_EQUAL_FATAL(sim_predict_loop(p, &l, err, sizeof err), 0);
    CU_ASSERT_DOUBLE_EQUAL(l.settle_s, 0.3 + 2 * (0.2 + 0.1), 1e-9);   /* repeats flattened */
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_loop_user_s(&l), 2 + l.typing_s + 0.9, 1e-9);
    CU_ASSERT_EQUAL_FATAL(l.ntimers, 4);
    const struct sim_loop_timer *start = timer_of(&l, "start"), *open = timer_of(&l, "open"),
                                *echo = timer_of(&l, "echo"), *z = timer_of(&l, "z");
    CU_ASSERT_FATAL(start && open && echo && z);
    CU_ASSERT(start->count == 1 && start->actions[SIM_CMD_EDIT] == 1 && start->keystrokes == 1);
    CU_ASSERT(open->count == 2 && open->actions[SIM_CMD_OPEN] == 2 && open->keystrokes == 2);
    CU_ASSERT(echo->count == 1 && echo->keystrokes == 2);
    CU_ASSERT(z->count == 1 && z->actions[SIM_CMD_ZIP9] == 1 && z->keystrokes == 14);
    CU_ASSERT_EQUAL(z->actions[SIM_CMD_EDIT] + echo->actions[SIM_CMD_EDIT], 0);   /* typed before */
    /* default measure: vsi; --measure m1 weights the others */
    CU_ASSERT_STRING_EQUAL(l.measure, "vsi");
    CU_ASSERT_EQUAL(l.nmeasures, 2);
    CU_ASSERT(z->weight == 1 && start->weight == 0 && open->weight == 0);
    CU_ASSERT_EQUAL_FATAL(sim_predict_load(p, "m1", &l, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(l.measure, "m1");
    CU_ASSERT(timer_of(&l, "start")->weight == 0.5 && timer_of(&l, "open")->weight == 1 &&
              timer_of(&l, "z")->weight == 0);
    CU_ASSERT_EQUAL(sim_predict_load(p, "nope", &l, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "nope"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "timed.yaml"));
    /* the only group is used whatever its name; two without vsi, or none: no measure */
    snprintf(text, sizeof text, "%smeasures:\n  m1: {start: 0.5, open: 1}\n", timed_loop);
    CU_ASSERT_EQUAL_FATAL(sim_predict_loop(unit_write_file("one.yaml", text), &l, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(l.measure, "m1");
    snprintf(text, sizeof text, "%smeasures:\n  m1: {start: 0.5}\n  m2: {z: 1}\n", timed_loop);
    CU_ASSERT_EQUAL_FATAL(sim_predict_loop(unit_write_file("two.yaml", text), &l, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(l.measure, "");
    CU_ASSERT_EQUAL(l.nmeasures, 2);
    CU_ASSERT_EQUAL_FATAL(sim_predict_loop(unit_write_file("none.yaml", timed_loop), &l, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(l.measure, "");
    CU_ASSERT_EQUAL(l.nmeasures, 0);
}

/* The printed figures: the capacity line kept, the loop length with settle and response, smax. */
static void test_sim_cost__predict_output(void)
{
    struct sim_costs c;
    char text[2048], out[4096];
    memset(&c, 0, sizeof c);
    c.scale = 1;
    c.work_s[SIM_CMD_EDIT] = 0.05;
    c.work_s[SIM_CMD_OPEN] = 0.002;
    c.work_s[SIM_CMD_ZIP9] = 0.3;
    c.key_s = 0.0001;
    snprintf(text, sizeof text, "%smeasures:\n  vsi: {z: 1, start: 1}\n", timed_loop);
    struct sim_predict_args a = { .path = unit_write_file("out.yaml", text), .cpus = 1, .offset_ms = 1000 };
    FILE *f = tmpfile();
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_EQUAL(sim_predict_main(&a, &c, f), 0);
    rewind(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\ncapacity: "));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "settle 0.90 s + response "));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\npredicted smax: "));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "measure vsi: baseline 352 ms, threshold +1000 ms)"));   /* 300+50+1.4+0.1 */
    a.measure = "nope";
    f = tmpfile();
    CU_ASSERT_EQUAL(sim_predict_main(&a, &c, f), 65);
    fclose(f);
}

static void test_sim_cost__predict_shipped_workload(void)
{
    struct sim_loop l;
    char err[512];
    CU_ASSERT_EQUAL_FATAL(sim_predict_loop(unit_source_path("workloads/simhost-task-worker.yaml"), &l,
                                           err, sizeof err), 0);
    CU_ASSERT_EQUAL(l.actions[SIM_CMD_EDIT], 1);
    CU_ASSERT_EQUAL(l.actions[SIM_CMD_ZIP9], 1);
    CU_ASSERT_EQUAL(l.actions[SIM_CMD_ZIP1], 1);
    CU_ASSERT_EQUAL(l.actions[SIM_CMD_CPU], 1);
    CU_ASSERT(l.think_s > 5 && l.typing_s > 5);
    /* six 300 ms stable conditions: five timers' untils and the wait after esc */
    CU_ASSERT_DOUBLE_EQUAL(l.settle_s, 1.8, 1e-9);
    CU_ASSERT_STRING_EQUAL(l.measure, "vsi");
    CU_ASSERT(timer_of(&l, "zip_high") && timer_of(&l, "zip_high")->actions[SIM_CMD_ZIP9] == 1);
    CU_ASSERT(timer_of(&l, "file_open") && timer_of(&l, "file_open")->actions[SIM_CMD_OPEN] == 1);
    const char *bad = unit_write_file("bad.yaml", "version: 1\nname: t\nloop: [{think: 1s}]\nbogus: 1\n");
    CU_ASSERT_EQUAL(sim_predict_loop(bad, &l, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad.yaml:"));
    const char *empty = unit_write_file("empty.yaml", "version: 1\nname: t\nlogon: {change: screen, timeout: 5s}\n"
                                                 "loop: [{key: win+r, pause: 0s}]\n");
    CU_ASSERT_EQUAL(sim_predict_loop(empty, &l, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "unbounded"));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_cost__capacity_formula), UNIT_TEST(test_sim_cost__calibration),
        UNIT_TEST(test_sim_cost__keep_min), UNIT_TEST(test_sim_cost__scale_to),
        UNIT_TEST(test_sim_cost__predict_walk), UNIT_TEST(test_sim_cost__predict_settle_and_timers),
        UNIT_TEST(test_sim_cost__predict_output), UNIT_TEST(test_sim_cost__predict_shipped_workload),
        UNIT_END,
    };
    return unit_run("sim_cost", tests, setup, teardown);
}

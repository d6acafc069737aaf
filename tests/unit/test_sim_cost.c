/* test_sim_cost.c -- the cost model: calibration yields positive, scale-proportional costs; the
 * capacity formula; and --predict's walk of a workload loop (commands, keystrokes, think and
 * typing time). */
#include "unit.h"

#include "simhost/sim_cost.h"
#include "simhost/sim_predict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static struct sim_font font;

static int setup(void)
{
    char err[256];
    return sim_font_load(&font, SIM_FONT_PATH, 13, err, sizeof err);
}
static int teardown(void)
{
    sim_font_free(&font);
    return 0;
}

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
    l.typing_s = 10;
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_action_s(&c, SIM_CMD_ZIP9), 0.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_loop_cpu_s(&c, &l), 0.5 + 0.4 + 0.1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_loop_len_s(&l), 30, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_capacity(&c, &l, 1), 30.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sim_cost_capacity(&c, &l, 2.5), 75.0, 1e-9);
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
    CU_ASSERT(a.tls_byte_s > 0);
    /* 4x the scale costs more work (not asserting a ratio: the machine is shared and noisy) */
    CU_ASSERT(sb > sa);
    CU_ASSERT_EQUAL(sim_cost_calibrate(&a, "/proc/no/such/dir", 0.02, &font, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/proc/no/such/dir"));
}

static const char *write_file(const char *name, const char *text)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", unit_tmpdir(), name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_sim_cost__predict_walk(void)
{
    struct sim_loop l;
    char err[512];
    const char *p = write_file("w.yaml",
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
    /* 3x "cpu\n" + "zip9 doc1.txt" + "edit doc2.txt" at 160 ms, "hello simuser001" at 100 ms */
    CU_ASSERT_DOUBLE_EQUAL(l.typing_s, (12 + 13 + 13) * 0.16 + 16 * 0.1, 1e-6);
    CU_ASSERT_EQUAL(l.keystrokes, 3 + 12 + 1 + 13 + 1 + 1 + 13 + 1 + 16 + 1);
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
    const char *bad = write_file("bad.yaml", "version: 1\nname: t\nloop: [{think: 1s}]\nbogus: 1\n");
    CU_ASSERT_EQUAL(sim_predict_loop(bad, &l, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad.yaml:"));
    const char *empty = write_file("empty.yaml", "version: 1\nname: t\nlogon: {change: screen, timeout: 5s}\n"
                                                 "loop: [{key: win+r}]\n");
    CU_ASSERT_EQUAL(sim_predict_loop(empty, &l, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "unbounded"));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_cost__capacity_formula), UNIT_TEST(test_sim_cost__calibration),
        UNIT_TEST(test_sim_cost__predict_walk), UNIT_TEST(test_sim_cost__predict_shipped_workload),
        UNIT_END,
    };
    return unit_run("sim_cost", tests, setup, teardown);
}

/* test_sim_ramp.c -- the ramp simulation: the score rule on docs/scoring.md's worked example,
 * determinism per seed, more CPUs or a slower ramp never predicting fewer users, processor
 * sharing and the one-sample-per-loop rule on hand-checked cases, and the plan reader on the
 * shipped demo plan. */
#include "unit.h"

#include "simhost/model/ramp.h"
#include "simhost/model/ramp_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_sim_ramp__worked_example(void)
{
    double v[60];
    unsigned a[60];
    struct sim_ramp_plan p;
    struct sim_ramp_result r;
    memset(&p, 0, sizeof p);
    score_params_default(&p.score);
    for (unsigned i = 0; i < 60; i++) {
        v[i] = i < 20 ? 1.0 : i < 50 ? 2.0 : 3.0;
        a[i] = i + 1;
    }
    CU_ASSERT_EQUAL_FATAL(sim_ramp_score(&p, v, a, 60, &r), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.baseline_s, 1.0, 1e-12);
    CU_ASSERT_TRUE(r.reached);
    CU_ASSERT_EQUAL(r.smax, 51);
    CU_ASSERT_EQUAL_FATAL(sim_ramp_score(&p, v, a, 50, &r), 0);   /* exactly at the threshold */
    CU_ASSERT_FALSE(r.reached);
    CU_ASSERT_EQUAL(r.smax, 50);
    CU_ASSERT_EQUAL(sim_ramp_score(&p, v, a, 10, &r), -1);         /* fewer than 15 samples */
}

/* 40 users over 200 s on `cpus`, a 20 s loop with two timed 0.2 s and 0.4 s actions. */
static void plan(struct sim_ramp_plan *p, double cpus, double window_s)
{
    memset(p, 0, sizeof *p);
    score_params_default(&p->score);
    p->sessions = 40;
    p->launch_window_s = window_s;
    p->steady_state_s = 30;
    p->logon_s = 0.5;
    p->cpus = cpus;
    p->seg[0] = (struct sim_ramp_segment){ 10, 0.2, 2, 0 };
    p->seg[1] = (struct sim_ramp_segment){ 10, 0.4, 2, 1 };
    p->nseg = 2;
    p->weight[0] = 1;
    p->weight[1] = 1;
    p->seed = 3;
}

static void test_sim_ramp__deterministic_and_monotone(void)
{
    struct sim_ramp_plan p;
    struct sim_ramp_result r1, r2, r4, slow;
    plan(&p, 1, 200);
    CU_ASSERT_EQUAL_FATAL(sim_ramp_run(&p, &r1), 0);
    CU_ASSERT_EQUAL_FATAL(sim_ramp_run(&p, &r2), 0);
    CU_ASSERT_EQUAL(r1.smax, r2.smax);
    CU_ASSERT_TRUE(r1.reached);                       /* 40 users need 40 x 0.6 / 20 = 1.2 CPUs */
    CU_ASSERT_TRUE(r1.smax >= 25 && r1.smax <= 40);   /* saturation at 20 / 0.6 = 33 users */
    CU_ASSERT_DOUBLE_EQUAL(r1.baseline_s, 0.6, 0.01);
    plan(&p, 4, 200);
    CU_ASSERT_EQUAL_FATAL(sim_ramp_run(&p, &r4), 0);
    CU_ASSERT_FALSE(r4.reached);                      /* 4 CPUs carry them all */
    plan(&p, 1, 800);
    CU_ASSERT_EQUAL_FATAL(sim_ramp_run(&p, &slow), 0);
    CU_ASSERT_TRUE(slow.smax <= r1.smax);             /* a slower ramp lets the queue settle */
    p.sessions = 0;
    CU_ASSERT_EQUAL(sim_ramp_run(&p, &slow), -1);
}

/* n users, all launched at 0, each looping over one timed 1 s CPU segment with no own time: they
 * are always all in the CPU queue, so processor sharing gives each a response of n / cpus s. */
static void lockstep(struct sim_ramp_plan *p, unsigned n, double cpus)
{
    memset(p, 0, sizeof *p);
    score_params_default(&p->score);
    p->sessions = n;
    p->launch_window_s = 0;
    p->steady_state_s = 100.5;
    p->cpus = cpus;
    p->seg[0] = (struct sim_ramp_segment){ 0, 1.0, 0, 0 };
    p->nseg = 1;
    p->weight[0] = 0.5;
    p->score.baseline_count = 3;
    p->score.baseline_drop = 0;
}

static void test_sim_ramp__processor_sharing(void)
{
    struct sim_ramp_plan p;
    struct sim_ramp_result r;
    lockstep(&p, 1, 1);                                 /* alone: response = its CPU */
    CU_ASSERT_EQUAL_FATAL(sim_ramp_run(&p, &r), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.baseline_s, 0.5, 1e-9);    /* weight 0.5 x 1 s */
    CU_ASSERT_EQUAL(r.samples, 100);                    /* one sample per loop, 100 loops in 100 s */
    lockstep(&p, 2, 1);                                 /* two share one CPU: 2 s each */
    CU_ASSERT_EQUAL_FATAL(sim_ramp_run(&p, &r), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.baseline_s, 1.0, 1e-9);
    CU_ASSERT_EQUAL(r.samples, 100);                    /* 2 users x 50 loops */
    CU_ASSERT_FALSE(r.reached);                         /* constant 1 s: the index never moves */
    CU_ASSERT_EQUAL(r.smax, 2);
    lockstep(&p, 2, 2);                                 /* an action uses at most one CPU */
    CU_ASSERT_EQUAL_FATAL(sim_ramp_run(&p, &r), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.baseline_s, 0.5, 1e-9);
    lockstep(&p, 4, 0.5);                               /* half a CPU for four: 8 s each */
    CU_ASSERT_EQUAL_FATAL(sim_ramp_run(&p, &r), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.baseline_s, 4.0, 1e-9);
}

/* A sample is the weighted sum of one loop's timers, recorded when its last weighted timer ends;
 * unweighted and untimed segments add nothing to it. */
static void test_sim_ramp__one_sample_per_loop(void)
{
    struct sim_ramp_plan p;
    struct sim_ramp_result r;
    lockstep(&p, 1, 1);
    p.steady_state_s = 100.2;                              /* samples at 0.5, 1.5, ... 99.5 s */
    p.seg[0] = (struct sim_ramp_segment){ 0, 0.2, 0, 0 };
    p.seg[1] = (struct sim_ramp_segment){ 0, 0.3, 0, 1 };
    p.seg[2] = (struct sim_ramp_segment){ 0, 0.1, 0, 2 };   /* a timer outside the measure */
    p.seg[3] = (struct sim_ramp_segment){ 0, 0.4, 0, -1 };  /* untimed CPU (typing echoes) */
    p.nseg = 4;
    p.weight[0] = 1;
    p.weight[1] = 2;
    p.weight[2] = 0;
    CU_ASSERT_EQUAL_FATAL(sim_ramp_run(&p, &r), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.baseline_s, 0.2 + 2 * 0.3, 1e-9);
    CU_ASSERT_EQUAL(r.samples, 100);                       /* a 1 s loop, 100 s */
    p.launch_window_s = 50;                                /* launched at 50 s: half the loops */
    p.steady_state_s = 50.2;
    p.sessions = 1;
    CU_ASSERT_EQUAL_FATAL(sim_ramp_run(&p, &r), 0);
    CU_ASSERT_EQUAL(r.samples, 100);                       /* session 0 still starts at 0 */
    p.logon_s = 50;                                        /* logon is own time before the loop */
    CU_ASSERT_EQUAL_FATAL(sim_ramp_run(&p, &r), 0);
    CU_ASSERT_EQUAL(r.samples, 50);
}

static void test_sim_ramp__demo_plan(void)
{
    struct sim_costs c;
    struct sim_ramp_plan p;
    struct sim_loop l;
    char err[512];
    memset(&c, 0, sizeof c);
    c.scale = 1;
    for (int k = 0; k < SIM_CMD_KIND_COUNT; k++)
        c.work_s[k] = 0.05, c.paint_s[k] = 0.005;
    c.key_s = 0.0002;
    CU_ASSERT_EQUAL_FATAL(sim_ramp_plan_load(unit_source_path("workloads/demo-plan.yaml"), &c, &p, &l, err,
                                             sizeof err), 0);
    CU_ASSERT_EQUAL(p.sessions, 120);
    CU_ASSERT_DOUBLE_EQUAL(p.launch_window_s, 240, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(p.steady_state_s, 30, 1e-9);
    CU_ASSERT_STRING_EQUAL(l.measure, "vsi");
    CU_ASSERT_EQUAL(p.nseg, 7);                        /* six timers, then the untimed typing echoes */
    CU_ASSERT_EQUAL(p.seg[0].timer, 0);
    CU_ASSERT_EQUAL(p.seg[6].timer, -1);
    CU_ASSERT_EQUAL(sim_ramp_plan_load(unit_source_path("workloads/simhost-task-worker.yaml"), &c, &p, &l, err,
                                       sizeof err), -1);   /* a workload is not a plan */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "workload"));
    /* the workload the real-session check plays: resolved beside the plan, as the controller does */
    char *w = sim_ramp_plan_workload(unit_source_path("workloads/demo-plan.yaml"), err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_STRING_EQUAL(w, unit_source_path("workloads/simhost-task-worker.yaml"));
    free(w);
    CU_ASSERT_PTR_NULL(sim_ramp_plan_workload(unit_source_path("workloads/simhost-task-worker.yaml"), err,
                                              sizeof err));
    /* the work scale of the simhost `sessmax demo` starts for the plan: the demo's 0.5; a plan
     * without one leaves the caller's; a bad one is an error naming its position */
    double ws = 1;
    CU_ASSERT_EQUAL(sim_ramp_plan_work_scale(unit_source_path("workloads/demo-plan.yaml"), &ws, err, sizeof err), 0);
    CU_ASSERT_DOUBLE_EQUAL(ws, 0.5, 1e-12);
    ws = 0.25;
    CU_ASSERT_EQUAL(sim_ramp_plan_work_scale(unit_source_path("workloads/xrdp-plan.yaml"), &ws, err, sizeof err), 0);
    CU_ASSERT_DOUBLE_EQUAL(ws, 0.25, 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/bad-scale.yaml", unit_tmpdir());
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("target:\n  local: {simhost_work_scale: 0}\n", f);
    fclose(f);
    CU_ASSERT_EQUAL(sim_ramp_plan_work_scale(path, &ws, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad-scale.yaml:2:31: 0 is out of range"));
    CU_ASSERT_DOUBLE_EQUAL(ws, 0.25, 0);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_ramp__worked_example),
        UNIT_TEST(test_sim_ramp__deterministic_and_monotone),
        UNIT_TEST(test_sim_ramp__processor_sharing),
        UNIT_TEST(test_sim_ramp__one_sample_per_loop),
        UNIT_TEST(test_sim_ramp__demo_plan),
        UNIT_END,
    };
    return unit_run("sim_ramp", tests, NULL, NULL);
}

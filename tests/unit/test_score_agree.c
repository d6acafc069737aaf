/* test_score_agree.c -- simhost's prediction and `sessmax score` read the same smax from the same
 * samples: a sample series goes once through the predictor's scoring (sim_ramp_score, values in
 * seconds as the simulation makes them) and once through the controller's path (stored in a
 * results database, then summary_load as `sessmax score` reads a run), with several parameter
 * sets chosen to hit the rule's edges (an index exactly at the threshold, halves in the trim,
 * consecutive runs, the window_base guard). Baseline, threshold and smax must agree exactly. */
#include "unit.h"
#include "fixture_db.h"

#include "controller/score/score_config.h"
#include "controller/score/summary_load.h"
#include "db/store.h"
#include "simhost/model/ramp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define N_MAX 600
#define T0 1764460800000000ull

struct series {
    double v[N_MAX];       /* response times, s */
    unsigned a[N_MAX];     /* active sessions */
    size_t n;
};

/* docs/scoring.md's worked example: 20 x 1 s, 30 x 2 s, then `tail` x 3 s. */
static void worked(struct series *s, size_t tail)
{
    s->n = 50 + tail;
    for (size_t i = 0; i < s->n; i++) {
        s->v[i] = i < 20 ? 1.0 : i < 50 ? 2.0 : 3.0;
        s->a[i] = (unsigned)i + 1;
    }
}

/* A ramp: a few samples per newly active session, response time growing with the load past a
 * knee, with noise in whole milliseconds and the odd spike. */
static void ramp(struct series *s, uint32_t seed, double knee)
{
    s->n = N_MAX;
    for (size_t i = 0; i < s->n; i++) {
        seed = seed * 1103515245u + 12345u;
        unsigned act = 1 + (unsigned)(i / 4);
        double load = act > knee ? (act - knee) * 0.09 : 0;
        s->v[i] = 0.25 + load + (double)((seed >> 16) % 120) / 1000.0 + ((seed >> 8) % 97 == 0 ? 2.5 : 0);
        s->a[i] = act;
    }
}

static void params_set(struct score_params *p, int k)
{
    score_params_default(p);
    if (k == 1) {          /* trim of halves: 0.05 x 30 = 1.5 rounds up to 2 */
        p->window_frac = 1.0;
        p->window_base = 10;
    } else if (k == 2) {   /* a 2-sample untrimmed window: each spike lifts two indexes only */
        p->consecutive = 3;
        p->window_base = 2;
        p->window_frac = 0;
        p->trim_frac = 0;
        p->trim_min = 0;
        p->threshold_offset_ms = 400;
    } else if (k == 3) {
        p->baseline_count = 5;
        p->baseline_drop = 0;
        p->trim_frac = 0.2;
        p->trim_min = 0;
        p->window_base = 2;
        p->window_frac = 0.1;
        p->threshold_offset_ms = 250.5;
    }
}

/* The controller's reading: the series stored as a run's measure samples, then summary_load. */
static int controller_score(const struct series *s, const struct score_params *p, struct score_result *out)
{
    static int nth;
    char name[32], err[512];
    snprintf(name, sizeof name, "agree%d.db", nth++);
    struct store *st = open_ok(db_path(name), STORE_WRITE);
    int64_t run = begin_run(st, "agree");
    for (size_t i = 0; i < s->n && run > 0; i++) {
        struct rec_sample r = sample((uint32_t)i % 7, T0 + i * 250000, "vsi", llround(s->v[i] * 1e6));
        r.is_measure = 1;
        if (store_add_sample(st, run, &r, s->a[i]) != 0)
            run = -1;
    }
    struct score_config cfg;
    struct summary sum;
    score_config_init(&cfg);
    cfg.params = *p;
    int rc = run > 0 && store_run_end(st, run, "completed", T0 + s->n * 250000, "") == 0 &&
             summary_load(st, run, &cfg, &sum, err, sizeof err) == 0 ? 0 : -1;
    if (rc == 0) {
        *out = sum.score;
        summary_free(&sum);
    }
    score_config_free(&cfg);
    store_close(st);
    return rc;
}

static void agree(const struct series *s, int k)
{
    struct sim_ramp_plan plan;
    struct sim_ramp_result pr;
    struct score_result cr = { 0 };
    memset(&plan, 0, sizeof plan);
    params_set(&plan.score, k);
    CU_ASSERT_EQUAL_FATAL(sim_ramp_score(&plan, s->v, s->a, s->n, &pr), 0);
    CU_ASSERT_EQUAL_FATAL(controller_score(s, &plan.score, &cr), 0);
    CU_ASSERT_EQUAL_FATAL(cr.status, SCORE_OK);
    CU_ASSERT_EQUAL(cr.samples_ok, s->n);
    CU_ASSERT_EQUAL(pr.reached, cr.reached);
    CU_ASSERT_EQUAL(pr.smax, cr.reached ? (unsigned)cr.smax : cr.max_active);
    CU_ASSERT_DOUBLE_EQUAL(pr.baseline_s * 1e3, cr.baseline_ms, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(pr.baseline_s * 1e3 + plan.score.threshold_offset_ms, cr.threshold_ms, 1e-9);
}

static void test_score_agree__worked_example(void)
{
    struct series s;
    worked(&s, 10);            /* crosses at 52 active: smax 51 */
    agree(&s, 0);
    worked(&s, 0);             /* the index ends exactly at the threshold: not reached */
    agree(&s, 0);
    for (int k = 1; k < 4; k++)
        agree(&s, k);
}

static void test_score_agree__ramps(void)
{
    struct series s;
    unsigned reached = 0, missed = 0, spikes_skipped = 0;
    for (uint32_t seed = 1; seed <= 6; seed++)
        for (int k = 0; k < 4; k++) {
            ramp(&s, seed, 40 + 20.0 * (seed % 3) + (seed > 4 ? 400 : 0));
            agree(&s, k);
            struct sim_ramp_plan plan;
            struct sim_ramp_result r;
            memset(&plan, 0, sizeof plan);
            params_set(&plan.score, k);
            if (sim_ramp_score(&plan, s.v, s.a, s.n, &r) == 0)
                r.reached ? reached++ : missed++;
            struct sim_ramp_result once;
            plan.score.consecutive = 1;
            if (k == 2 && sim_ramp_score(&plan, s.v, s.a, s.n, &once) == 0)
                spikes_skipped += once.smax != r.smax;
        }
    CU_ASSERT_TRUE(reached > 0 && missed > 0);   /* both outcomes were compared */
    CU_ASSERT_TRUE(spikes_skipped > 0);          /* and consecutive decided some of them */
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_score_agree__worked_example),
        UNIT_TEST(test_score_agree__ramps),
        UNIT_END,
    };
    return unit_run("score_agree", tests, NULL, NULL);
}

/* test_score_rule.c -- common/score_rule.h at its edges: fewer samples than the baseline needs,
 * no crossing, a crossing in the first window (and none before window_base samples), the trim
 * (halves up, trim_min, the cap that keeps one sample), consecutive runs, failed samples left
 * out, and no NaN where a figure exists. test_score.c holds the worked example and the oracle. */
#include "unit.h"

#include "common/score_rule.h"

#include <math.h>
#include <string.h>

#define MS 1000

static struct score_sample smp(size_t i, double ms, uint32_t active)
{
    return (struct score_sample){ .t_us = i, .value_us = llround(ms * MS), .active = active, .ok = 1 };
}

static int run(const struct score_params *p, const struct score_sample *s, size_t n, struct score_result *r,
               double *idx)
{
    char err[256];
    return score_compute(p, s, n, r, idx, err, sizeof err);
}

static void test_score_rule__too_few(void)
{
    struct score_params p;
    struct score_sample s[20];
    struct score_result r;
    double idx[20];
    score_params_default(&p);
    for (size_t i = 0; i < 20; i++)
        s[i] = smp(i, 100, (uint32_t)i + 1);
    CU_ASSERT_EQUAL_FATAL(run(&p, s, 14, &r, idx), 0);   /* 14 < baseline_count 15 */
    CU_ASSERT_EQUAL(r.status, SCORE_TOO_FEW);
    CU_ASSERT_EQUAL(r.samples_needed, 15);
    CU_ASSERT_EQUAL(r.smax, -1);
    CU_ASSERT_FALSE(r.reached);
    CU_ASSERT_TRUE(isnan(r.baseline_ms) && isnan(idx[0]));
    s[3].ok = 0;                                         /* 15 samples, 14 ok */
    CU_ASSERT_EQUAL_FATAL(run(&p, s, 15, &r, idx), 0);
    CU_ASSERT_EQUAL(r.status, SCORE_TOO_FEW);
    CU_ASSERT_EQUAL(r.samples_failed, 1);
    p.min_samples = 20;                                  /* min_samples above baseline_count */
    s[3].ok = 1;
    CU_ASSERT_EQUAL_FATAL(run(&p, s, 19, &r, idx), 0);
    CU_ASSERT_EQUAL(r.status, SCORE_TOO_FEW);
    CU_ASSERT_EQUAL(r.samples_needed, 20);
    CU_ASSERT_EQUAL_FATAL(run(&p, s, 20, &r, idx), 0);
    CU_ASSERT_EQUAL(r.status, SCORE_OK);
    CU_ASSERT_EQUAL(run(&p, s, 0, &r, NULL), 0);         /* no samples at all */
    CU_ASSERT_EQUAL(r.status, SCORE_TOO_FEW);
}

static void test_score_rule__no_crossing_is_nan_free(void)
{
    struct score_params p;
    struct score_sample s[40];
    struct score_result r;
    double idx[40];
    score_params_default(&p);
    for (size_t i = 0; i < 40; i++)
        s[i] = smp(i, 200 + (double)(i % 5) * 100, (uint32_t)i / 2 + 1);
    s[7].ok = 0;
    s[7].value_us = -1;                                  /* a failed sample's value is never read */
    CU_ASSERT_EQUAL_FATAL(run(&p, s, 40, &r, idx), 0);
    CU_ASSERT_EQUAL(r.status, SCORE_OK);
    CU_ASSERT_FALSE(r.reached);
    CU_ASSERT_EQUAL(r.smax, -1);
    CU_ASSERT_EQUAL(r.max_active, 20);
    CU_ASSERT_EQUAL(r.samples_ok, 39);
    CU_ASSERT_DOUBLE_EQUAL(r.baseline_ms, (6 * 200 + 7 * 300) / 13.0, 1e-9);   /* 8 x 200, 7 x 300, less two */
    CU_ASSERT_DOUBLE_EQUAL(r.threshold_ms, r.baseline_ms + 1000, 1e-9);
    CU_ASSERT_TRUE(isfinite(r.max_index_ms) && r.max_index_ms < r.threshold_ms);
    CU_ASSERT_TRUE(isnan(r.cross_index_ms));
    for (size_t i = 0; i < 40; i++)
        CU_ASSERT_TRUE(i == 7 ? isnan(idx[i]) : isfinite(idx[i]) && idx[i] >= 200 && idx[i] <= 600);
}

/* Five slow samples first, then fast ones: the first index allowed to cross (the window_base-th
 * sample, its window all the samples so far) does, none before it. */
static void test_score_rule__crossing_in_first_window(void)
{
    struct score_params p;
    struct score_sample s[20];
    struct score_result r;
    double idx[20];
    score_params_default(&p);
    p.baseline_count = 5;
    p.baseline_drop = 0;
    for (size_t i = 0; i < 20; i++)
        s[i] = smp(i, i < 5 ? 3000 : 100, (uint32_t)i + 1);
    CU_ASSERT_EQUAL_FATAL(run(&p, s, 20, &r, idx), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.baseline_ms, 100, 1e-9);
    CU_ASSERT_TRUE(r.reached);
    CU_ASSERT_EQUAL(r.cross_sample, 4);
    CU_ASSERT_EQUAL(r.cross_active, 5);
    CU_ASSERT_EQUAL(r.smax, 4);
    CU_ASSERT_DOUBLE_EQUAL(r.cross_index_ms, 3000, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(idx[0], 3000, 1e-9);          /* above, but before window_base */
    for (size_t i = 1; i < 5; i++)                       /* one slow sample first: trimmed away */
        s[i] = smp(i, 100, (uint32_t)i + 1);
    CU_ASSERT_EQUAL_FATAL(run(&p, s, 20, &r, idx), 0);
    CU_ASSERT_FALSE(r.reached);
    CU_ASSERT_DOUBLE_EQUAL(idx[0], 3000, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(idx[4], 100, 1e-9);
    p.window_base = 1;                                   /* window_base 1: the very first sample */
    p.window_frac = 0.5;
    CU_ASSERT_EQUAL_FATAL(run(&p, s, 20, &r, idx), 0);
    CU_ASSERT_TRUE(r.reached);
    CU_ASSERT_EQUAL(r.cross_sample, 0);
    CU_ASSERT_EQUAL(r.smax, 0);
}

/* The index of the last sample of `v` with a constant window of w = n samples. */
static double last_index(struct score_params *p, const double *v, size_t n)
{
    struct score_sample s[64];
    struct score_result r;
    double idx[64];
    p->window_base = (uint32_t)n;
    p->window_frac = 0;
    p->baseline_count = 1;
    p->baseline_drop = 0;
    for (size_t i = 0; i < n; i++)
        s[i] = smp(i, v[i], 1);
    CU_ASSERT_EQUAL_FATAL(run(p, s, n, &r, idx), 0);
    return idx[n - 1];
}

static void test_score_rule__trimming(void)
{
    struct score_params p;
    double v[30];
    for (size_t i = 0; i < 30; i++)
        v[i] = 10;
    v[3] = 1, v[9] = 2, v[20] = 1000, v[25] = 2000;
    score_params_default(&p);                            /* 0.05 x 30 = 1.5: two each end */
    CU_ASSERT_DOUBLE_EQUAL(last_index(&p, v, 30), 10, 1e-9);
    score_params_default(&p);
    p.trim_frac = 0.04;                                  /* 1.2: one each end */
    CU_ASSERT_DOUBLE_EQUAL(last_index(&p, v, 30), (26 * 10 + 2 + 1000) / 28.0, 1e-9);
    score_params_default(&p);
    p.trim_frac = 0;
    p.trim_min = 0;                                      /* no trim: the plain mean */
    CU_ASSERT_DOUBLE_EQUAL(last_index(&p, v, 30), (26 * 10 + 1 + 2 + 1000 + 2000) / 30.0, 1e-9);
    score_params_default(&p);                            /* 0.05 x 20 = 1: the 1 and a 10 go */
    CU_ASSERT_DOUBLE_EQUAL(last_index(&p, v, 20), (17 * 10 + 2) / 18.0, 1e-9);
    score_params_default(&p);
    p.trim_min = 2;                                      /* trim_min wins: the 1 and the 2 go */
    CU_ASSERT_DOUBLE_EQUAL(last_index(&p, v, 20), 10, 1e-9);
    double three[3] = { 5, 700, 9 };
    score_params_default(&p);
    p.trim_min = 5;                                      /* capped: one sample, the median, stays */
    CU_ASSERT_DOUBLE_EQUAL(last_index(&p, three, 3), 9, 1e-9);
    double two[2] = { 4, 8 };
    CU_ASSERT_DOUBLE_EQUAL(last_index(&p, two, 2), 6, 1e-9);   /* two: nothing can be trimmed */
}

static void test_score_rule__consecutive(void)
{
    struct score_params p;
    struct score_sample s[40];
    struct score_result r;
    score_params_default(&p);
    p.window_base = 1;
    p.window_frac = 0;
    p.consecutive = 3;
    for (size_t i = 0; i < 40; i++)                      /* above at 20, 21; then from 25 on */
        s[i] = smp(i, i == 20 || i == 21 || i >= 25 ? 1500 : 100, (uint32_t)i + 1);
    CU_ASSERT_EQUAL_FATAL(run(&p, s, 40, &r, NULL), 0);
    CU_ASSERT_TRUE(r.reached);
    CU_ASSERT_EQUAL(r.cross_sample, 25);                 /* the first of the run of three */
    CU_ASSERT_EQUAL(r.smax, 25);
    p.consecutive = 2;
    CU_ASSERT_EQUAL_FATAL(run(&p, s, 40, &r, NULL), 0);
    CU_ASSERT_EQUAL(r.cross_sample, 20);
}

static void test_score_rule__refuses_bad_input(void)
{
    struct score_params p;
    struct score_sample s[16];
    struct score_result r;
    char err[256] = "";
    score_params_default(&p);
    for (size_t i = 0; i < 16; i++)
        s[i] = smp(i, 100, 1);
    p.baseline_drop = 15;
    CU_ASSERT_EQUAL(score_compute(&p, s, 16, &r, NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "baseline_drop"));
    score_params_default(&p);
    s[2].value_us = SCORE_VALUE_MAX_US + 1;
    CU_ASSERT_EQUAL(score_compute(&p, s, 16, &r, NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "sample 3"));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_score_rule__too_few),
        UNIT_TEST(test_score_rule__no_crossing_is_nan_free),
        UNIT_TEST(test_score_rule__crossing_in_first_window),
        UNIT_TEST(test_score_rule__trimming),
        UNIT_TEST(test_score_rule__consecutive),
        UNIT_TEST(test_score_rule__refuses_bad_input),
        UNIT_END,
    };
    return unit_run("score_rule", tests, NULL, NULL);
}

/* test_score.c -- smax against hand-computed fixtures, a brute-force oracle and a property; samples
 * out of range refused by score_compute and summary_compute. */
#include "unit.h"

#include "controller/score/score.h"
#include "controller/score/score_config.h"
#include "controller/score/summary.h"
#include "db/store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000

static struct score_params defaults(void)
{
    struct score_params p;
    score_params_default(&p);
    return p;
}

static void push(struct score_sample *s, size_t *n, double ms, uint32_t active, int ok)
{
    s[*n] = (struct score_sample){ .t_us = 1000000 + *n * 1000, .value_us = (int64_t)llround(ms * MS),
                                   .active = active, .ok = (uint8_t)ok };
    (*n)++;
}

static void test_score__baseline_drops_two_lowest(void)
{
    struct score_sample s[32];
    size_t n = 0;
    push(s, &n, 3000, 1, 1);
    push(s, &n, 50, 1, 1);            /* lowest: dropped */
    for (int k = 0; k < 13; k++)      /* 700, 710, ... 820: mean 760 */
        push(s, &n, 700 + 10 * k, 1, 1);
    push(s, &n, 60, 1, 1);            /* second lowest: dropped */
    for (int k = 0; k < 4; k++)
        push(s, &n, 3000, 1, 1);
    push(s, &n, 10, 1, 0);            /* failed: not part of the baseline */
    struct score_params p = defaults();
    struct score_result r;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, n, &r, NULL, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.status, SCORE_OK);
    CU_ASSERT_DOUBLE_EQUAL(r.baseline_ms, 760.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r.threshold_ms, 1760.0, 1e-9);
    CU_ASSERT_EQUAL(r.samples_failed, 1);
    CU_ASSERT_EQUAL(r.samples_ok, 20);
}

/* No trimming: the index is the plain mean of the latest 5 + ceil(0.4 * active) samples. */
static void test_score__window_grows_with_active(void)
{
    struct score_sample s[40];
    size_t n = 0;
    for (int k = 1; k <= 20; k++)
        push(s, &n, k, 10, 1);        /* last: window 5 + 4 = 9 -> mean(12..20) = 16 */
    for (int k = 21; k <= 30; k++)
        push(s, &n, k, 25, 1);        /* last: window 5 + 10 = 15 -> mean(16..30) = 23 */
    push(s, &n, 31, 24, 1);           /* 0.4 * 24 = 9.6 -> 10 -> window 15 -> mean(17..31) = 24 */
    push(s, &n, 32, 1, 1);            /* window 5 + 1 = 6 -> mean(27..32) = 29.5 */
    struct score_params p = defaults();
    p.trim_frac = 0;
    p.trim_min = 0;
    p.threshold_offset_ms = 1e6;
    double idx[40];
    struct score_result r;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, n, &r, idx, err, sizeof err), 0);
    CU_ASSERT_DOUBLE_EQUAL(idx[19], 16.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(idx[29], 23.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(idx[30], 24.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(idx[31], 29.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(idx[0], 1.0, 1e-9);   /* a window never reaches before the first sample */
    CU_ASSERT_DOUBLE_EQUAL(idx[2], 2.0, 1e-9);
    CU_ASSERT_FALSE(r.reached);
}

/* Trim = max(1, round(5 % of the window)), half rounds up: 31 -> 1.55 -> 2, 30 -> 1.5 -> 2,
 * 29 -> 1.45 -> 1. Values 1..k-2, 500, 1000 tell a trim of 2 from a trim of 1. */
static double trimmed_index(uint32_t active, int wsize)
{
    struct score_sample s[64];
    size_t n = 0;
    for (int k = 1; k <= wsize - 2; k++)
        push(s, &n, k, active, 1);
    push(s, &n, 500, active, 1);
    push(s, &n, 1000, active, 1);
    struct score_params p = defaults();
    p.threshold_offset_ms = 1e6;
    p.baseline_count = 5;
    double idx[64];
    struct score_result r;
    char err[256];
    CU_ASSERT_EQUAL(score_compute(&p, s, n, &r, idx, err, sizeof err), 0);
    return idx[n - 1];
}

static void test_score__trim_rounding(void)
{
    /* active 65: window 5 + 26 = 31, trim 2: mean(3..29) = 16 */
    CU_ASSERT_DOUBLE_EQUAL(trimmed_index(65, 31), 16.0, 1e-9);
    /* active 62: 0.4 * 62 = 24.8 -> 25, window 30, trim 2: mean(3..28) = 15.5 */
    CU_ASSERT_DOUBLE_EQUAL(trimmed_index(62, 30), 15.5, 1e-9);
    /* active 60: window 29, 1.45 -> trim 1: (2 + .. + 27 + 500) / 27 = 877 / 27 */
    CU_ASSERT_DOUBLE_EQUAL(trimmed_index(60, 29), 877.0 / 27.0, 1e-9);
    /* active 1: window 6, trim_min 1: (2 + 3 + 4 + 500) / 4 */
    CU_ASSERT_DOUBLE_EQUAL(trimmed_index(1, 6), 509.0 / 4.0, 1e-9);
}

/* The worked example of docs/scoring.md. */
static size_t worked_example(struct score_sample *s, int with_tail)
{
    size_t n = 0;
    for (uint32_t a = 1; a <= 20; a++)
        push(s, &n, 1000, a, 1);
    for (uint32_t a = 21; a <= 50; a++)
        push(s, &n, 2000, a, 1);
    for (uint32_t a = 51; with_tail && a <= 60; a++)
        push(s, &n, 3000, a, 1);
    return n;
}

static void test_score__exactly_at_threshold_is_not_crossed(void)
{
    struct score_sample s[64];
    size_t n = worked_example(s, 0);
    struct score_params p = defaults();
    struct score_result r;
    char err[256], buf[64];
    CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, n, &r, NULL, err, sizeof err), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.baseline_ms, 1000.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r.threshold_ms, 2000.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r.max_index_ms, 2000.0, 1e-9);
    CU_ASSERT_FALSE(r.reached);
    CU_ASSERT_EQUAL(r.smax, -1);
    score_format_smax(&r, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "not reached at 50 active (smax >= 49)");
}

static void test_score__worked_example_crosses(void)
{
    struct score_sample s[64];
    size_t n = worked_example(s, 1);
    struct score_params p = defaults();
    struct score_result r;
    double idx[64];
    char err[256], buf[64];
    CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, n, &r, idx, err, sizeof err), 0);
    /* active 51: window 26 = 25 x 2000 + 3000, trim 1 each end -> 2000, not above */
    CU_ASSERT_DOUBLE_EQUAL(idx[50], 2000.0, 1e-9);
    /* active 52: window 26 = 24 x 2000 + 2 x 3000 -> (23 x 2000 + 3000) / 24 = 2041.67 */
    CU_ASSERT_DOUBLE_EQUAL(idx[51], 49000.0 / 24.0, 1e-9);
    CU_ASSERT_TRUE(r.reached);
    CU_ASSERT_EQUAL(r.cross_active, 52);
    CU_ASSERT_EQUAL(r.cross_sample, 51);
    CU_ASSERT_EQUAL(r.smax, 51);
    score_format_smax(&r, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "51");
}

static void test_score__consecutive_reports_first_of_run(void)
{
    struct score_sample s[64];
    size_t n = worked_example(s, 1);
    struct score_params p = defaults();
    p.consecutive = 3;
    struct score_result r;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, n, &r, NULL, err, sizeof err), 0);
    CU_ASSERT_TRUE(r.reached);
    CU_ASSERT_EQUAL(r.smax, 51);
    p.consecutive = 20;   /* only 9 samples are above: never crossed */
    CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, n, &r, NULL, err, sizeof err), 0);
    CU_ASSERT_FALSE(r.reached);
}

static void test_score__too_few_samples(void)
{
    struct score_sample s[32];
    size_t n = 0;
    for (int k = 0; k < 14; k++)
        push(s, &n, 500, 1, 1);
    for (int k = 0; k < 3; k++)
        push(s, &n, 500, 1, 0);
    struct score_params p = defaults();
    struct score_result r;
    char err[256], buf[80];
    CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, n, &r, NULL, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.status, SCORE_TOO_FEW);
    CU_ASSERT_EQUAL(r.samples_failed, 3);
    CU_ASSERT_TRUE(isnan(r.baseline_ms));
    score_format_smax(&r, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "too few"));
    push(s, &n, 500, 1, 1);
    CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, n, &r, NULL, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.status, SCORE_OK);
    p.min_samples = 100;
    CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, n, &r, NULL, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.status, SCORE_TOO_FEW);
}

static void test_score__bad_params(void)
{
    struct score_params p = defaults();
    struct score_result r;
    char err[256];
    p.baseline_drop = 15;
    CU_ASSERT_EQUAL(score_compute(&p, NULL, 0, &r, NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "baseline_drop"));
}

/* fuzz_score: a tampered sample of INT64_MIN us was negated in the window (undefined behaviour,
 * and sums of huge values overflowed); values outside 0..2^36 us are refused with a message. */
static void test_score__value_out_of_range(void)
{
    struct score_params p = defaults();
    struct score_sample s[40];
    struct score_result r;
    char err[256];
    const int64_t bad[] = { INT64_MIN, -1, INT64_MAX, SCORE_VALUE_MAX_US + 1 };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        size_t n = 0;
        for (int k = 0; k < 40; k++)
            push(s, &n, 800, 1 + (uint32_t)k, 1);
        s[20].value_us = bad[b];
        err[0] = '\0';
        CU_ASSERT_EQUAL(score_compute(&p, s, n, &r, NULL, err, sizeof err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "outside"));
        s[20].ok = 0;                 /* a failed sample's value is not used */
        CU_ASSERT_EQUAL(score_compute(&p, s, n, &r, NULL, err, sizeof err), 0);
    }
    size_t n = 0;
    for (int k = 0; k < 40; k++)
        push(s, &n, 800, 1 + (uint32_t)k, 1);
    s[3].value_us = 0;
    s[30].value_us = SCORE_VALUE_MAX_US;
    CU_ASSERT_EQUAL(score_compute(&p, s, n, &r, NULL, err, sizeof err), 0);
}

/* The same sample through summary_compute: refused, and what it had allocated is freed (it
 * leaked the points array and the thresholds copy; LeakSanitizer under fuzz_score). */
static void test_score__summary_refusal_frees(void)
{
    struct store_sample_row rows[40];
    char *names[] = { "vsi" };
    for (int k = 0; k < 40; k++)
        rows[k] = (struct store_sample_row){ .session = 1, .active = 1 + (uint32_t)k, .ok = SAMPLE_OK,
                                             .is_measure = 1, .t_us = 1000000 + (uint64_t)k * 1000,
                                             .value_us = 800000, .name_id = 0 };
    rows[20].value_us = INT64_MIN;
    struct store_samples ss = { rows, 40, names, 1 };
    struct store_run run = { 0 };
    struct summary_input in = { .run = &run, .samples = &ss };
    struct score_config cfg;
    score_config_init(&cfg);
    struct threshold th[1];
    memset(th, 0, sizeof th);
    cfg.thresholds = th;
    cfg.threshold_count = 1;
    struct summary out;
    char err[256];
    CU_ASSERT_EQUAL(summary_compute(&in, &cfg, &out, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "outside"));
    CU_ASSERT_PTR_NULL(out.points);
    CU_ASSERT_PTR_NULL(out.config.thresholds);
    summary_free(&out);              /* callers may still free: nothing twice */
}

/* Brute force: sort every window. */
static double oracle_index(const struct score_params *p, const int64_t *v, const uint32_t *a, size_t i)
{
    size_t w = p->window_base + (size_t)ceil(p->window_frac * a[i] - 1e-9);
    if (w > i + 1)
        w = i + 1;
    int64_t *tmp = malloc(w * sizeof *tmp);
    memcpy(tmp, v + i + 1 - w, w * sizeof *tmp);
    for (size_t x = 1; x < w; x++)
        for (size_t y = x; y > 0 && tmp[y - 1] > tmp[y]; y--) {
            int64_t t = tmp[y]; tmp[y] = tmp[y - 1]; tmp[y - 1] = t;
        }
    size_t t = (size_t)floor(p->trim_frac * w + 0.5 + 1e-9);
    if (t < p->trim_min)
        t = p->trim_min;
    if (2 * t >= w)
        t = (w - 1) / 2;
    int64_t sum = 0;
    for (size_t k = t; k < w - t; k++)
        sum += tmp[k];
    free(tmp);
    return (double)sum / (double)(w - 2 * t) / 1000.0;
}

static void random_run(struct score_sample *s, size_t n, unsigned seed)
{
    srand(seed);
    uint32_t active = 1;
    for (size_t i = 0; i < n; i++) {
        if (rand() % 4 == 0 && active < 400)
            active++;
        else if (rand() % 300 == 0 && active > 1)
            active -= (uint32_t)(rand() % 30) % active;
        s[i] = (struct score_sample){ .t_us = i, .value_us = 300000 + active * 8000 + rand() % 400000,
                                      .active = active, .ok = rand() % 20 != 0 };
    }
}

static void test_score__matches_brute_force(void)
{
    enum { N = 1500 };
    struct score_sample *s = malloc(N * sizeof *s);
    double *idx = malloc(N * sizeof *idx);
    int64_t v[N];
    uint32_t a[N];
    random_run(s, N, 7);
    struct score_params p = defaults();
    p.trim_frac = 0.07;
    struct score_result r;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, N, &r, idx, err, sizeof err), 0);
    size_t m = 0, bad = 0;
    for (size_t i = 0; i < N; i++) {
        if (!s[i].ok) {
            bad += !isnan(idx[i]);
            continue;
        }
        v[m] = s[i].value_us;
        a[m] = s[i].active;
        bad += fabs(oracle_index(&p, v, a, m) - idx[i]) > 1e-9;
        m++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_TRUE(r.reached);
    free(s);
    free(idx);
}

/* Oracle over long runs: the window kept as a sorted array, moved one sample at a time. */
struct sorted_window { int64_t *v; size_t n; };

static size_t sw_find(const struct sorted_window *w, int64_t x)
{
    size_t lo = 0, hi = w->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (w->v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void sw_add(struct sorted_window *w, int64_t x)
{
    size_t k = sw_find(w, x);
    memmove(w->v + k + 1, w->v + k, (w->n - k) * sizeof *w->v);
    w->v[k] = x;
    w->n++;
}

static void sw_del(struct sorted_window *w, int64_t x)
{
    size_t k = sw_find(w, x);
    memmove(w->v + k, w->v + k + 1, (w->n - k - 1) * sizeof *w->v);
    w->n--;
}

/* Counts ok samples whose index differs from the oracle's; *checked: how many were compared. */
static size_t oracle_mismatches(const struct score_params *p, const struct score_sample *s, size_t n,
                                const double *idx, size_t *checked)
{
    int64_t *v = malloc(n * sizeof *v);
    struct sorted_window w = { malloc(n * sizeof *w.v), 0 };
    size_t m = 0, lo = 0, bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (!s[i].ok) {
            bad += !isnan(idx[i]);
            continue;
        }
        v[m++] = s[i].value_us;
        sw_add(&w, s[i].value_us);
        size_t ws = p->window_base + (size_t)ceil(p->window_frac * s[i].active - 1e-9);
        ws = ws > m ? m : ws;
        for (; lo < m - ws; lo++)
            sw_del(&w, v[lo]);
        for (; lo > m - ws; lo--)
            sw_add(&w, v[lo - 1]);
        size_t t = (size_t)floor(p->trim_frac * ws + 0.5 + 1e-9);
        t = t < p->trim_min ? p->trim_min : t;
        t = 2 * t >= ws ? (ws - 1) / 2 : t;
        int64_t sum = 0;
        for (size_t k = t; k < ws - t; k++)
            sum += w.v[k];
        bad += idx[i] != (double)sum / (double)(ws - 2 * t) / 1000.0;
    }
    *checked = m;
    free(v);
    free(w.v);
    return bad;
}

/* score_compute_curve writes the same index as score_compute, one per ok sample, into a field
 * of a struct array, and the same result; the mismatches. */
static size_t curve_mismatches(const struct score_params *p, const struct score_sample *s, size_t n,
                               const double *idx, const struct score_result *want)
{
    struct pt { uint64_t t; double index; uint32_t tag; } *pts = malloc(n * sizeof *pts);
    struct score_curve c = { (char *)&pts[0].index, sizeof *pts };
    struct score_result r;
    char err[256];
    size_t bad = 0, k = 0;
    for (size_t i = 0; i < n; i++)
        pts[i] = (struct pt){ i, -1, 7 };
    if (score_compute_curve(p, s, n, &r, &c, err, sizeof err) != 0)
        return free(pts), n;
    bad += memcmp(&r, want, sizeof r) != 0;
    for (size_t i = 0; i < n; i++) {
        if (!s[i].ok)
            continue;
        bad += memcmp(&pts[k].index, &idx[i], sizeof idx[i]) != 0 || pts[k].t != k || pts[k].tag != 7;
        k++;
    }
    for (; k < n; k++)
        bad += pts[k].index != -1;
    free(pts);
    return bad;
}

/* Long runs cross the score's internal blocks (4096 ok samples, or more for windows above that):
 * windows carried over a block boundary, shrinking windows reaching back into the previous
 * block, windows of over 4096 samples and many equal values give exactly the oracle's index. */
static void test_score__long_runs_match_oracle(void)
{
    enum { N = 40000 };
    struct score_sample *s = malloc(N * sizeof *s);
    double *idx = malloc(N * sizeof *idx);
    for (unsigned shape = 0; shape < 3; shape++) {
        srand(11 + shape);
        uint32_t active = 1;
        for (size_t i = 0; i < N; i++) {
            if (shape == 1 && active < 12000)
                active++;                          /* windows up to 4805 samples */
            else if (rand() % 3 == 0 && active < 400)
                active++;
            if (rand() % 500 == 0 && active > 1)
                active -= (uint32_t)(rand() % 200) % active;
            int64_t v = 300000 + active * 800 + rand() % 400000;
            s[i] = (struct score_sample){ .t_us = i, .value_us = shape == 2 ? v / 50000 * 50000 : v,
                                          .active = active, .ok = rand() % 20 != 0 };
        }
        struct score_params p = defaults();
        struct score_result r;
        char err[256];
        CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, N, &r, idx, err, sizeof err), 0);
        size_t checked = 0;
        CU_ASSERT_EQUAL(oracle_mismatches(&p, s, N, idx, &checked), 0);
        CU_ASSERT_EQUAL(checked, r.samples_ok);
        CU_ASSERT_TRUE(checked > 3 * 8192);
        CU_ASSERT_EQUAL(curve_mismatches(&p, s, N, idx, &r), 0);
    }
    free(s);
    free(idx);
}

/* Adding a constant delay to every sample raises baseline and index by it, smax unchanged. */
static void test_score__constant_delay_property(void)
{
    enum { N = 3000 };
    struct score_sample *s = malloc(N * sizeof *s);
    for (unsigned seed = 1; seed <= 5; seed++) {
        random_run(s, N, seed);
        struct score_params p = defaults();
        struct score_result r0, r1;
        char err[256];
        CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, N, &r0, NULL, err, sizeof err), 0);
        int64_t delay = 123457 * (int64_t)seed;
        for (size_t i = 0; i < N; i++)
            s[i].value_us += delay;
        CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, N, &r1, NULL, err, sizeof err), 0);
        CU_ASSERT_DOUBLE_EQUAL(r1.baseline_ms - r0.baseline_ms, delay / 1000.0, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(r1.max_index_ms - r0.max_index_ms, delay / 1000.0, 1e-6);
        CU_ASSERT_EQUAL(r1.reached, r0.reached);
        CU_ASSERT_EQUAL(r1.smax, r0.smax);
        CU_ASSERT_EQUAL(r1.cross_sample, r0.cross_sample);
    }
    free(s);
}

/* One slow sample among the first ones must not end the score: the index cannot cross before
 * the window holds window_base samples (5 by default, trimming 1 at each end). */
static void test_score__early_spike_does_not_cross(void)
{
    struct score_sample s[64];
    size_t n = 0;
    push(s, &n, 800, 1, 1);
    push(s, &n, 9000, 2, 1);          /* the spike: index over 2 samples would be 4900 ms */
    for (int k = 0; k < 40; k++)
        push(s, &n, 800 + (k % 3), 2 + (uint32_t)k / 4, 1);
    struct score_params p = defaults();
    struct score_result r;
    double idx[64];
    char err[256];
    CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, n, &r, idx, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.status, SCORE_OK);
    CU_ASSERT_FALSE(r.reached);
    CU_ASSERT_TRUE(idx[1] > r.threshold_ms);   /* the index is drawn as it is, it just cannot cross */
    /* a real rise later is still found */
    for (int k = 0; k < 10; k++)
        push(s, &n, 5000, 20, 1);
    CU_ASSERT_EQUAL_FATAL(score_compute(&p, s, n, &r, NULL, err, sizeof err), 0);
    CU_ASSERT_TRUE(r.reached);
    CU_ASSERT_EQUAL(r.smax, 19);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_score__early_spike_does_not_cross),
        UNIT_TEST(test_score__baseline_drops_two_lowest),
        UNIT_TEST(test_score__long_runs_match_oracle),
        UNIT_TEST(test_score__window_grows_with_active),
        UNIT_TEST(test_score__trim_rounding),
        UNIT_TEST(test_score__exactly_at_threshold_is_not_crossed),
        UNIT_TEST(test_score__worked_example_crosses),
        UNIT_TEST(test_score__consecutive_reports_first_of_run),
        UNIT_TEST(test_score__too_few_samples),
        UNIT_TEST(test_score__bad_params),
        UNIT_TEST(test_score__value_out_of_range),
        UNIT_TEST(test_score__summary_refusal_frees),
        UNIT_TEST(test_score__matches_brute_force),
        UNIT_TEST(test_score__constant_delay_property),
        UNIT_END,
    };
    return unit_run("score", tests, NULL, NULL);
}

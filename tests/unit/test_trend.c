/* test_trend.c -- the trailing median, the tolerance, and the judgement's edge cases: too short a
 * history, a window of the last N only, runs without a score, smax not reached (a lower bound),
 * the baseline the other way round. */
#include "unit.h"

#include "common/file_read.h"
#include "controller/cli/cmd_trend.h"
#include "controller/report/dashboard.h"
#include "controller/score/threshold.h"
#include "controller/score/trend.h"
#include "fixture_store.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#define NR -1.0   /* not reached: the value is the lower bound */

/* A series from smax values (NR marks: not reached at the following value) and baselines. */
static size_t series(struct trend_point *p, const double *smax, const double *base, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        memset(&p[k], 0, sizeof p[k]);
        p[k].run = (int64_t)k + 1;
        p[k].reached = 1;
        if (smax[i] == NR) {
            p[k].reached = 0;
            i++;
        }
        p[k].smax = smax[i];
        p[k].baseline_ms = base ? base[i] : NAN;
        k++;
    }
    return k;
}

static enum trend_mark smax_mark(const double *v, size_t n, size_t last, double tol)
{
    struct trend_point p[32];
    struct trend_judgement j;
    size_t k = series(p, v, NULL, n);
    trend_judge(p, k - 1, last, tol, &j);
    return j.smax;
}

static void test_trend__median_and_tolerance(void)
{
    double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };
    CU_ASSERT_DOUBLE_EQUAL(trend_median(odd, 3), 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(trend_median(even, 4), 2.5, 1e-12);
    CU_ASSERT_TRUE(isnan(trend_median(odd, 0)));
    double f = 0;
    CU_ASSERT_EQUAL(trend_parse_tolerance("10%", &f), 0);
    CU_ASSERT_DOUBLE_EQUAL(f, 0.10, 1e-12);
    CU_ASSERT_EQUAL(trend_parse_tolerance("2.5", &f), 0);
    CU_ASSERT_DOUBLE_EQUAL(f, 0.025, 1e-12);
    CU_ASSERT_EQUAL(trend_parse_tolerance("0%", &f), 0);
    CU_ASSERT_EQUAL(trend_parse_tolerance("", &f), -1);
    CU_ASSERT_EQUAL(trend_parse_tolerance("ten", &f), -1);
    CU_ASSERT_EQUAL(trend_parse_tolerance("10%%", &f), -1);
    CU_ASSERT_EQUAL(trend_parse_tolerance("-1%", &f), -1);
    CU_ASSERT_EQUAL(trend_parse_tolerance("100%", &f), -1);
    CU_ASSERT_EQUAL(trend_parse_tolerance("nan", &f), -1);
}

static void test_trend__smax(void)
{
    double drop[] = { 100, 98, 102, 100, 85 }, small[] = { 100, 98, 102, 100, 91 }, up[] = { 100, 98, 102, 100, 120 };
    CU_ASSERT_EQUAL(smax_mark(drop, 5, 7, 0.10), TREND_REGRESSED);
    CU_ASSERT_EQUAL(smax_mark(small, 5, 7, 0.10), TREND_WITHIN);
    CU_ASSERT_EQUAL(smax_mark(up, 5, 7, 0.10), TREND_IMPROVED);
    CU_ASSERT_EQUAL(smax_mark(small, 5, 7, 0.05), TREND_REGRESSED);
    /* exactly at the edge is within */
    double edge[] = { 100, 100, 100, 90 };
    CU_ASSERT_EQUAL(smax_mark(edge, 4, 7, 0.10), TREND_WITHIN);
    /* the median, not the mean: one outlier does not move it */
    double outlier[] = { 100, 100, 10, 100, 95 };
    CU_ASSERT_EQUAL(smax_mark(outlier, 5, 7, 0.10), TREND_WITHIN);
}

/* Fewer than min(3, N) earlier runs: not judged; only the last N count. */
static void test_trend__history(void)
{
    double two[] = { 100, 100, 50 }, three[] = { 100, 100, 100, 50 };
    CU_ASSERT_EQUAL(smax_mark(two, 1, 7, 0.10), TREND_SHORT);
    CU_ASSERT_EQUAL(smax_mark(two, 3, 7, 0.10), TREND_SHORT);
    CU_ASSERT_EQUAL(smax_mark(three, 4, 7, 0.10), TREND_REGRESSED);
    CU_ASSERT_EQUAL(smax_mark(two, 3, 2, 0.10), TREND_REGRESSED);   /* --last 2: two earlier runs suffice */
    CU_ASSERT_EQUAL(smax_mark(two, 2, 1, 0.10), TREND_WITHIN);
    /* a step up long ago: the last 3 runs are the reference, the old ones are out of the window */
    double step[] = { 10, 10, 10, 10, 100, 100, 100, 95 };
    CU_ASSERT_EQUAL(smax_mark(step, 8, 3, 0.10), TREND_WITHIN);
    CU_ASSERT_EQUAL(smax_mark(step, 8, 7, 0.10), TREND_IMPROVED);   /* median of 10,10,10,100,100,100,10 */
    struct trend_point p[8];
    struct trend_judgement j;
    series(p, step, NULL, 8);
    trend_judge(p, 7, 3, 0.10, &j);
    CU_ASSERT_EQUAL(j.smax_history, 3);
    CU_ASSERT_DOUBLE_EQUAL(j.smax_median, 100, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(j.smax_delta_pct, -5, 1e-9);
}

/* A run without a score is unknown and left out of later medians. */
static void test_trend__missing_score(void)
{
    double v[] = { 100, NAN, 100, NAN, 100, 80 };
    struct trend_point p[6];
    struct trend_judgement j;
    series(p, v, NULL, 6);
    trend_judge(p, 5, 7, 0.10, &j);
    CU_ASSERT_EQUAL(j.smax, TREND_REGRESSED);
    CU_ASSERT_EQUAL(j.smax_history, 3);
    trend_judge(p, 3, 7, 0.10, &j);
    CU_ASSERT_EQUAL(j.smax, TREND_UNKNOWN);
    CU_ASSERT_EQUAL(j.baseline, TREND_UNKNOWN);
    CU_ASSERT_EQUAL(j.overall, TREND_UNKNOWN);
    CU_ASSERT_TRUE(isnan(j.smax_delta_pct));
}

/* Not reached = a lower bound: never a regression by itself, but it sets what later runs must
 * reach. */
static void test_trend__not_reached(void)
{
    double low_bound[] = { 100, 100, 100, NR, 50 };
    CU_ASSERT_EQUAL(smax_mark(low_bound, 5, 7, 0.10), TREND_UNKNOWN);
    double carried[] = { NR, 100, NR, 100, NR, 100, 60 };
    CU_ASSERT_EQUAL(smax_mark(carried, 7, 7, 0.10), TREND_REGRESSED);
    double still[] = { NR, 100, NR, 100, NR, 100, NR, 100 };
    CU_ASSERT_EQUAL(smax_mark(still, 8, 7, 0.10), TREND_WITHIN);
    double above[] = { 50, 50, 50, NR, 80 };
    CU_ASSERT_EQUAL(smax_mark(above, 5, 7, 0.10), TREND_IMPROVED);
}

/* The baseline is a response time: up is worse. The run regresses when either figure does. */
static void test_trend__baseline_and_overall(void)
{
    double smax[] = { 100, 100, 100, 100 }, slow[] = { 800, 810, 790, 950 }, fast[] = { 800, 810, 790, 600 };
    struct trend_point p[4];
    struct trend_judgement j;
    series(p, smax, slow, 4);
    trend_judge(p, 3, 7, 0.10, &j);
    CU_ASSERT_EQUAL(j.smax, TREND_WITHIN);
    CU_ASSERT_EQUAL(j.baseline, TREND_REGRESSED);
    CU_ASSERT_EQUAL(j.overall, TREND_REGRESSED);
    CU_ASSERT_DOUBLE_EQUAL(j.baseline_median, 800, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(j.baseline_delta_pct, 18.75, 1e-9);
    series(p, smax, fast, 4);
    trend_judge(p, 3, 7, 0.10, &j);
    CU_ASSERT_EQUAL(j.baseline, TREND_IMPROVED);
    CU_ASSERT_EQUAL(j.overall, TREND_IMPROVED);
    /* smax regressed and baseline improved: a regression */
    double drop[] = { 100, 100, 100, 70 };
    series(p, drop, fast, 4);
    trend_judge(p, 3, 7, 0.10, &j);
    CU_ASSERT_EQUAL(j.overall, TREND_REGRESSED);
    /* a median of 0 never divides: a run with 0 stays within, a higher one improves */
    double zero[] = { 0, 0, 0, 0 }, one[] = { 0, 0, 0, 1 };
    CU_ASSERT_EQUAL(smax_mark(zero, 4, 7, 0.10), TREND_WITHIN);
    CU_ASSERT_EQUAL(smax_mark(one, 4, 7, 0.10), TREND_IMPROVED);
    CU_ASSERT_STRING_EQUAL(trend_mark_name(TREND_REGRESSED), "REGRESSION");
}

/* `sessmax trend DB ...` in-process: its exit code. */
static int trend_cli(const char *db, const char *cell)
{
    char *argv[] = { "trend", (char *)db, "--last", "7", "--tolerance", "10%", "--cell", (char *)cell, NULL };
    return cmd_trend.run(cell ? 8 : 6, argv);
}

/* A synthetic store: five nights of two cells (lan knee 40, wan knee 30), then a sixth night
 * whose lan run carries fewer sessions. The clean series passes (0), the planted regression
 * fails (1) for its cell only; a cell nobody ran is a data error. */
static void test_trend__cli_planted_regression(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/trend.db", unit_tmpdir());
    unlink(path);
    struct store *st = store_open(path, STORE_WRITE, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    for (uint64_t day = 0; day < 5; day++) {
        struct fixture_run lan = { "nightly", "tcp", "sim", "lan", 70, 40, 0, 0, 3000, { NULL }, day, 0, FAIL_NONE };
        struct fixture_run wan = { "nightly", "tcp", "sim", "wan-100ms", 70, 30, 0, 0, 3000, { NULL }, day, 0, FAIL_NONE };
        CU_ASSERT_TRUE(fixture_write_run(st, &lan, NULL) > 0);
        CU_ASSERT_TRUE(fixture_write_run(st, &wan, NULL) > 0);
    }
    store_close(st);
    CU_ASSERT_EQUAL(trend_cli(path, NULL), 0);
    st = store_open(path, STORE_WRITE, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    struct fixture_run bad = { "nightly", "tcp", "sim", "lan", 70, 25, 0, 0, 3000, { NULL }, 5, 0, FAIL_NONE };
    struct fixture_run ok = { "nightly", "tcp", "sim", "wan-100ms", 70, 30, 0, 0, 3000, { NULL }, 5, 0, FAIL_NONE };
    CU_ASSERT_TRUE(fixture_write_run(st, &bad, NULL) > 0);
    CU_ASSERT_TRUE(fixture_write_run(st, &ok, NULL) > 0);
    store_close(st);
    CU_ASSERT_EQUAL(trend_cli(path, NULL), EXIT_THRESHOLD_FAILED);
    CU_ASSERT_EQUAL(trend_cli(path, "network=lan,platform=sim"), EXIT_THRESHOLD_FAILED);
    CU_ASSERT_EQUAL(trend_cli(path, "network=wan-100ms"), EXIT_PASS);
    CU_ASSERT_EQUAL(trend_cli(path, "platform=ws2016"), EX_DATAERR);
    CU_ASSERT_EQUAL(trend_cli(path, "codec=rfx"), EX_USAGE);

    /* the dashboard marks the same run: one red ring on the smax chart, dates on the x-axis */
    char dir[600], index[700], err[512];
    snprintf(dir, sizeof dir, "%s/trend-dash", unit_tmpdir());
    st = store_open(path, STORE_READ, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    struct dashboard_options opt = { 0.10, 7 };
    CU_ASSERT_EQUAL(dashboard_write_opts(st, dir, &opt, err, sizeof err), 0);
    store_close(st);
    snprintf(index, sizeof index, "%s/index.html", dir);
    size_t len = 0;
    char *html = file_read_all(index, 1u << 24, &len, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "data-series=\"trend-regression\" data-n=\"1\""));
    CU_ASSERT_PTR_NULL(strstr(strstr(html, "data-series=\"trend-regression\" data-n=\"1\"") + 1,
                              "data-series=\"trend-regression\" data-n=\"1\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "data-series=\"trend-improved\" data-n=\"0\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, ">11-30</text>"));   /* the first night, 2025-11-30 */
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h2>tcp / sim / lan / builtin <small>(6 runs)</small></h2>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h2>tcp / sim / wan-100ms / builtin <small>(6 runs)</small></h2>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<td class=\"fail\">REGRESSION</td>"));
    free(html);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_trend__median_and_tolerance),
        UNIT_TEST(test_trend__smax),
        UNIT_TEST(test_trend__history),
        UNIT_TEST(test_trend__missing_score),
        UNIT_TEST(test_trend__not_reached),
        UNIT_TEST(test_trend__baseline_and_overall),
        UNIT_TEST(test_trend__cli_planted_regression),
        UNIT_END,
    };
    return unit_run("trend", tests, NULL, NULL);
}

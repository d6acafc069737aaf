/* trend.c -- trailing medians and the tolerance test. */
#include "controller/score/trend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double trend_median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median of the last `last` finite values of field `which` (0 smax, 1 baseline) before i. */
static double history(const struct trend_point *p, size_t i, size_t last, int which, size_t *count)
{
    double v[256];
    size_t n = 0;
    if (last > sizeof v / sizeof v[0])
        last = sizeof v / sizeof v[0];
    for (size_t j = i; j-- > 0 && n < last;) {
        double x = which ? p[j].baseline_ms : p[j].smax;
        if (isfinite(x))
            v[n++] = x;
    }
    *count = n;
    return trend_median(v, n);
}

/* higher_is_better: smax; otherwise (baseline) lower is better. */
static enum trend_mark judge(double x, double median, double tol, int higher_is_better, int lower_bound,
                             double *delta_pct)
{
    *delta_pct = median != 0 ? (x - median) / median * 100 : NAN;
    /* a change of exactly the tolerance is within it (1e-9: 1 - 0.1 is not exactly 0.9) */
    double limit = tol * fabs(median) + 1e-9 * fabs(median);
    int above = x - median > limit, below = median - x > limit;
    if (higher_is_better) {
        if (above)
            return TREND_IMPROVED;
        if (below)
            return lower_bound ? TREND_UNKNOWN : TREND_REGRESSED;
        return TREND_WITHIN;
    }
    return above ? TREND_REGRESSED : below ? TREND_IMPROVED : TREND_WITHIN;
}

void trend_judge(const struct trend_point *p, size_t i, size_t last, double tolerance, struct trend_judgement *out)
{
    memset(out, 0, sizeof *out);
    size_t need = last < TREND_MIN_HISTORY ? last : TREND_MIN_HISTORY;
    out->smax_median = history(p, i, last, 0, &out->smax_history);
    out->baseline_median = history(p, i, last, 1, &out->baseline_history);
    out->smax_delta_pct = out->baseline_delta_pct = NAN;
    if (!isfinite(p[i].smax))
        out->smax = TREND_UNKNOWN;
    else if (out->smax_history < need || out->smax_history == 0)
        out->smax = TREND_SHORT;
    else
        out->smax = judge(p[i].smax, out->smax_median, tolerance, 1, !p[i].reached, &out->smax_delta_pct);
    if (!isfinite(p[i].baseline_ms))
        out->baseline = TREND_UNKNOWN;
    else if (out->baseline_history < need || out->baseline_history == 0)
        out->baseline = TREND_SHORT;
    else
        out->baseline = judge(p[i].baseline_ms, out->baseline_median, tolerance, 0, 0, &out->baseline_delta_pct);
    if (out->smax == TREND_REGRESSED || out->baseline == TREND_REGRESSED)
        out->overall = TREND_REGRESSED;
    else if (out->smax == TREND_IMPROVED || out->baseline == TREND_IMPROVED)
        out->overall = TREND_IMPROVED;
    else if (out->smax == TREND_WITHIN || out->baseline == TREND_WITHIN)
        out->overall = TREND_WITHIN;
    else if (out->smax == TREND_SHORT || out->baseline == TREND_SHORT)
        out->overall = TREND_SHORT;
    else
        out->overall = TREND_UNKNOWN;
}

int trend_parse_tolerance(const char *text, double *fraction)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || (*end && strcmp(end, "%") != 0) || !isfinite(v) || v < 0 || v >= 100)
        return -1;
    *fraction = v / 100;
    return 0;
}

void trend_point_of(const struct summary *s, struct trend_point *p)
{
    memset(p, 0, sizeof *p);
    p->run = s->run.id;
    p->started_us = s->run.started_us;
    p->reached = s->score.reached;
    /* not reached at N active: a lower bound of N - 1, what the data support (docs/scoring.md) */
    p->smax = s->score.reached ? s->score.smax
            : s->score.status == SCORE_OK ? (s->score.max_active > 0 ? s->score.max_active - 1.0 : 0.0) : NAN;
    p->baseline_ms = s->score.baseline_ms;
}

void trend_cell_of(const struct store_run *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s / %s / %s / %s", r->transport, r->platform, r->network, r->client[0] ? r->client : "builtin");
}

const char *trend_mark_name(enum trend_mark m)
{
    static const char *const names[] = { "short", "within", "REGRESSION", "improved", "unknown" };
    return m <= TREND_UNKNOWN ? names[m] : "?";
}

/* score.c -- smax: baseline, threshold, the moving trimmed-mean index and the crossing.
 *
 * The index window changes size with the active session count, so the window is kept in a
 * Fenwick tree over the ranks of the ok samples (count and exact µs sum per rank): the sum of
 * the k smallest values in the window is one O(log n) descent, and the trimmed sum is
 * sum(smallest w - t) - sum(smallest t). Moving the window costs O(log n) per sample added or
 * removed, so a whole run is O(n log n) whatever the window size. */
#include "controller/score/score.h"
#include "controller/score/sortkey.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void score_params_default(struct score_params *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->measure, sizeof p->measure, "vsi");
    p->baseline_count = 15;
    p->baseline_drop = 2;
    p->threshold_offset_ms = 1000.0;
    p->window_base = 5;
    p->window_frac = 0.40;
    p->trim_frac = 0.05;
    p->trim_min = 1;
    p->consecutive = 1;
    p->min_samples = 0;
    p->stuck_max_pct = 1.0;
    p->lag_p99_max_ms = 50.0;
}

int score_params_check(const struct score_params *p, char *err, size_t errlen)
{
    const char *why = NULL;
    if (p->baseline_count < 1)
        why = "baseline_count must be at least 1";
    else if (p->baseline_drop >= p->baseline_count)
        why = "baseline_drop must be smaller than baseline_count";
    else if (!(p->threshold_offset_ms >= 0) || p->threshold_offset_ms > 1e7)
        why = "threshold_offset_ms must be between 0 and 10000000";
    else if (p->window_base + (p->window_frac > 0) < 1)
        why = "window_base must be at least 1 when window_frac is 0";
    else if (!(p->window_frac >= 0 && p->window_frac <= 100))
        why = "window_frac must be between 0 and 100";
    else if (!(p->trim_frac >= 0 && p->trim_frac < 0.5))
        why = "trim_frac must be at least 0 and below 0.5";
    else if (p->consecutive < 1)
        why = "consecutive must be at least 1";
    else if (!(p->stuck_max_pct >= 0 && p->stuck_max_pct <= 100))
        why = "stuck_max_pct must be between 0 and 100";
    else if (!(p->lag_p99_max_ms > 0))
        why = "lag_p99_max_ms must be above 0";
    if (why)
        snprintf(err, errlen, "score: %s", why);
    return why ? -1 : 0;
}

/* Fenwick tree of (count, sum) over ranks 1..n; a node's count and sum share a cache line. */
struct fen_node {
    int64_t sum, cnt;
};

struct fen {
    size_t n, top;
    struct fen_node *node;
};

static void fen_add(struct fen *f, size_t rank, int64_t dc, int64_t ds)
{
    for (size_t i = rank; i <= f->n; i += i & (~i + 1)) {
        f->node[i].cnt += dc;
        f->node[i].sum += ds;
    }
}

/* Sum of the k smallest values present (k <= number present). */
static int64_t fen_smallest(const struct fen *f, size_t k)
{
    size_t pos = 0;
    int64_t acc = 0;
    for (size_t step = f->top; step; step >>= 1) {
        size_t nx = pos + step;
        if (nx <= f->n && (size_t)f->node[nx].cnt <= k) {
            pos = nx;
            k -= (size_t)f->node[nx].cnt;
            acc += f->node[nx].sum;
        }
    }
    return acc;
}

static size_t window_size(const struct score_params *p, uint32_t active, size_t avail)
{
    double extra = ceil(p->window_frac * (double)active - 1e-9);
    double w = (double)p->window_base + (extra > 0 ? extra : 0);
    if (w < 1)
        w = 1;
    return w > (double)avail ? avail : (size_t)w;
}

static size_t trim_size(const struct score_params *p, size_t w)
{
    size_t t = (size_t)floor(p->trim_frac * (double)w + 0.5 + 1e-9);
    if (t < p->trim_min)
        t = p->trim_min;
    if (2 * t >= w)
        t = (w - 1) / 2;
    return t;
}

static void result_reset(struct score_result *r, size_t n)
{
    memset(r, 0, sizeof *r);
    r->samples = n;
    r->baseline_ms = r->threshold_ms = r->cross_index_ms = r->max_index_ms = NAN;
    r->smax = -1;
}

/* Walks the ok samples in order, maintaining the window; fills index_ms and the crossing. */
static void walk(const struct score_params *p, const struct score_sample *s, const size_t *okpos,
                 const size_t *rank, size_t m, struct fen *f, int64_t sum_b, int64_t cnt_b,
                 struct score_result *r, double *index_ms)
{
    __int128 off = (__int128)llround(p->threshold_offset_ms * 1000.0) * cnt_b;
    size_t lo = 0, run_len = 0, run_start = 0;
    for (size_t i = 0; i < m; i++) {
        const struct score_sample *x = &s[okpos[i]];
        fen_add(f, rank[i], 1, x->value_us);
        size_t w = window_size(p, x->active, i + 1), target = i + 1 - w;
        for (; lo < target; lo++)
            fen_add(f, rank[lo], -1, -s[okpos[lo]].value_us);
        while (lo > target) {
            lo--;
            fen_add(f, rank[lo], 1, s[okpos[lo]].value_us);
        }
        size_t t = trim_size(p, w), keep = w - 2 * t;
        int64_t tsum = fen_smallest(f, w - t) - fen_smallest(f, t);
        double idx = (double)tsum / (double)keep / 1000.0;
        if (index_ms)
            index_ms[okpos[i]] = idx;
        if (isnan(r->max_index_ms) || idx > r->max_index_ms)
            r->max_index_ms = idx;
        /* index > baseline + offset, exactly: tsum/keep > (sum_b + off*cnt_b)/cnt_b; and never
         * before the window holds window_base samples (one early spike cannot end the score) */
        int above = i + 1 >= p->window_base && (__int128)tsum * cnt_b > ((__int128)sum_b + off) * (__int128)keep;
        if (!above) {
            run_len = 0;
            continue;
        }
        if (run_len++ == 0)
            run_start = i;
        if (!r->reached && run_len >= p->consecutive) {
            const struct score_sample *c = &s[okpos[run_start]];
            r->reached = 1;
            r->cross_sample = okpos[run_start];
            r->cross_t_us = c->t_us;
            r->cross_active = c->active;
            r->cross_index_ms = index_ms ? index_ms[okpos[run_start]] : idx;
            r->smax = c->active > 0 ? (int)c->active - 1 : 0;
        }
    }
}

int score_compute(const struct score_params *p, const struct score_sample *s, size_t n,
                  struct score_result *out, double *index_ms, char *err, size_t errlen)
{
    int rc = -1;
    size_t *okpos = NULL, *rank = NULL;
    int64_t *ord = NULL;
    uint32_t *ordi = NULL;
    struct fen f = { 0 };
    result_reset(out, n);
    if (score_params_check(p, err, errlen) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (index_ms)
            index_ms[i] = NAN;
        if (s[i].active > out->max_active)
            out->max_active = s[i].active;
        out->samples_ok += s[i].ok != 0;
        if (s[i].ok && (s[i].value_us < 0 || s[i].value_us > SCORE_VALUE_MAX_US)) {
            snprintf(err, errlen, "score: sample %zu holds a response time of %lld us, outside 0..%lld "
                     "(a corrupt or tampered results database)", i + 1, (long long)s[i].value_us,
                     (long long)SCORE_VALUE_MAX_US);
            return -1;
        }
    }
    out->samples_failed = n - out->samples_ok;
    out->samples_needed = p->min_samples > p->baseline_count ? p->min_samples : p->baseline_count;
    if (out->samples_ok < out->samples_needed) {
        out->status = SCORE_TOO_FEW;
        return 0;
    }
    size_t m = out->samples_ok;
    okpos = malloc(m * sizeof *okpos);
    rank = malloc(m * sizeof *rank);
    ord = malloc(m * sizeof *ord);
    ordi = malloc(m * sizeof *ordi);
    f.n = m;
    f.node = calloc(m + 1, sizeof *f.node);
    if (!okpos || !rank || !ord || !ordi || !f.node || m > UINT32_MAX) {
        snprintf(err, errlen, "score: out of memory for %zu samples", n);
        goto fail;
    }
    for (size_t i = 0, k = 0; i < n; i++)
        if (s[i].ok) {
            ord[k] = s[i].value_us;
            ordi[k] = (uint32_t)k;
            okpos[k++] = i;
        }
    /* ranks by (value, arrival): a stable sort of the values in arrival order */
    if (sortkey_i64(ord, ordi, m) < 0) {
        snprintf(err, errlen, "score: out of memory for %zu samples", n);
        goto fail;
    }
    for (size_t r = 0; r < m; r++)
        rank[ordi[r]] = r + 1;
    int64_t sum_b = 0, cnt_b = (int64_t)(p->baseline_count - p->baseline_drop);
    for (size_t r = p->baseline_drop; r < p->baseline_count; r++)
        sum_b += ord[r];
    out->baseline_ms = (double)sum_b / (double)cnt_b / 1000.0;
    out->threshold_ms = out->baseline_ms + p->threshold_offset_ms;
    for (f.top = 1; f.top * 2 <= m; f.top *= 2)
        ;
    walk(p, s, okpos, rank, m, &f, sum_b, cnt_b, out, index_ms);
    out->status = SCORE_OK;
    rc = 0;
fail:
    free(okpos);
    free(rank);
    free(ord);
    free(ordi);
    free(f.node);
    return rc;
}

void score_format_smax(const struct score_result *r, char *buf, size_t len)
{
    if (r->status != SCORE_OK)
        snprintf(buf, len, "n/a (too few samples: %zu of %zu needed)", r->samples_ok, r->samples_needed);
    else if (r->reached)
        snprintf(buf, len, "%d", r->smax);
    else
        snprintf(buf, len, "not reached at %u active (smax >= %u)", r->max_active,
                 r->max_active > 0 ? r->max_active - 1 : 0);
}

/* score.c -- smax: baseline, threshold, the moving trimmed-mean index and the crossing.
 *
 * The index window changes size with the active session count, so the window is kept in a
 * Fenwick tree over the ranks of the ok samples (count and exact µs sum per rank): the sum of
 * the k smallest values in the window is one O(log B) descent, and the trimmed sum is
 * sum(smallest w - t) - sum(smallest t). The ranks are local to two neighbouring blocks of B
 * samples (B >= the largest window, 4096 at least), so the tree holds 2B ranks and stays in
 * cache, and the memory is O(n) 4-byte positions plus O(B). A whole run is O(n log B). */
#include "controller/score/score.h"
#include "controller/score/sortkey.h"
#include "common/prefault.h"

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

/* Block-local ranks. The ok samples are cut in blocks of B (a power of two no smaller than the
 * largest window), so a window ending in block k lies within blocks k-1 and k. Each block is
 * sorted once by (value, arrival); merging block k-1's order with block k's ranks the pair's
 * 2B samples, and the Fenwick tree over those ranks stays in cache. These ranks order any two
 * samples as global ranks would, so every "sum of the k smallest" is the same. */
#define SCORE_BLOCK_MIN 4096

struct walker {
    const struct score_params *p;
    const struct score_sample *s;
    const uint32_t *okpos;
    size_t m, B, b0, lo, run_len, run_start;
    int64_t sum_b, cnt_b;
    __int128 off;
    struct fen f;
    int64_t *key[2];      /* sorted values of the previous block [0] and the current one [1] */
    uint32_t *at[2];      /* their offsets in their block, in the same order */
    size_t len[2];
    uint32_t *lrank;      /* rank in the pair of ok sample j, at lrank[j + B - b0] */
};

static int64_t wval(const struct walker *w, size_t j)
{
    return w->s[w->okpos[j]].value_us;
}

static size_t wrank(const struct walker *w, size_t j)
{
    return w->lrank[j + w->B - w->b0];
}

/* Sorts the block at w->b0 and ranks it together with the previous one. */
static int rank_block(struct walker *w)
{
    int64_t *tk = w->key[0];
    uint32_t *ta = w->at[0];
    w->key[0] = w->key[1], w->at[0] = w->at[1], w->len[0] = w->len[1];
    w->key[1] = tk, w->at[1] = ta;
    size_t n = w->m - w->b0 < w->B ? w->m - w->b0 : w->B;
    for (size_t x = 0; x < n; x++) {
        tk[x] = wval(w, w->b0 + x);
        ta[x] = (uint32_t)x;
    }
    w->len[1] = n;
    if (sortkey_i64(tk, ta, n) < 0)
        return -1;
    size_t a = 0, b = 0, r = 0, la = w->len[0];
    const int64_t *ka = w->key[0];
    const uint32_t *aa = w->at[0];
    while (a < la || b < n) {   /* ties: the previous block arrived first */
        if (b == n || (a < la && ka[a] <= tk[b]))
            w->lrank[aa[a++]] = (uint32_t)++r;
        else
            w->lrank[w->B + ta[b++]] = (uint32_t)++r;
    }
    return 0;
}

/* The crossing: the first run of `consecutive` samples above the threshold. */
static void cross(struct walker *w, size_t i, int above, struct score_result *r, const double *index_ms,
                  double idx)
{
    if (!above) {
        w->run_len = 0;
        return;
    }
    if (w->run_len++ == 0)
        w->run_start = i;
    if (!r->reached && w->run_len >= w->p->consecutive) {
        const struct score_sample *c = &w->s[w->okpos[w->run_start]];
        r->reached = 1;
        r->cross_sample = w->okpos[w->run_start];
        r->cross_t_us = c->t_us;
        r->cross_active = c->active;
        r->cross_index_ms = index_ms ? index_ms[w->okpos[w->run_start]] : idx;
        r->smax = c->active > 0 ? (int)c->active - 1 : 0;
    }
}

/* Adds ok sample i, moves the window to its size, and computes the index there. */
static void step(struct walker *w, size_t i, struct score_result *r, double *index_ms)
{
    const struct score_params *p = w->p;
    const struct score_sample *x = &w->s[w->okpos[i]];
    fen_add(&w->f, wrank(w, i), 1, x->value_us);
    size_t ws = window_size(p, x->active, i + 1), target = i + 1 - ws;
    for (; w->lo < target; w->lo++)
        fen_add(&w->f, wrank(w, w->lo), -1, -wval(w, w->lo));
    while (w->lo > target) {
        w->lo--;
        fen_add(&w->f, wrank(w, w->lo), 1, wval(w, w->lo));
    }
    size_t t = trim_size(p, ws), keep = ws - 2 * t;
    int64_t tsum = fen_smallest(&w->f, ws - t) - fen_smallest(&w->f, t);
    double idx = (double)tsum / (double)keep / 1000.0;
    if (index_ms)
        index_ms[w->okpos[i]] = idx;
    if (isnan(r->max_index_ms) || idx > r->max_index_ms)
        r->max_index_ms = idx;
    /* index > baseline + offset, exactly: tsum/keep > (sum_b + off*cnt_b)/cnt_b; and never
     * before the window holds window_base samples (one early spike cannot end the score) */
    cross(w, i, i + 1 >= p->window_base &&
                (__int128)tsum * w->cnt_b > ((__int128)w->sum_b + w->off) * (__int128)keep, r, index_ms, idx);
}

/* Walks the ok samples in order, block by block; fills index_ms and the crossing. */
static int walk(struct walker *w, struct score_result *r, double *index_ms)
{
    w->off = (__int128)llround(w->p->threshold_offset_ms * 1000.0) * w->cnt_b;
    for (w->b0 = 0; w->b0 < w->m; w->b0 += w->B) {
        if (rank_block(w) < 0)
            return -1;
        memset(w->f.node, 0, (w->f.n + 1) * sizeof *w->f.node);
        for (size_t j = w->lo; j < w->b0; j++)   /* the window carried over from the last block */
            fen_add(&w->f, wrank(w, j), 1, wval(w, j));
        size_t b1 = w->m - w->b0 < w->B ? w->m : w->b0 + w->B;
        for (size_t i = w->b0; i < b1; i++)
            step(w, i, r, index_ms);
    }
    return 0;
}

static void swap_i64(int64_t *a, size_t i, size_t j)
{
    int64_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* Sum of the values of ranks drop..count-1 among the ok values (count <= m): the count smallest
 * are kept in a max-heap, then sorted. */
static int baseline_sum(const struct walker *w, size_t count, size_t drop, int64_t *sum)
{
    int64_t *h = malloc(count * sizeof *h);
    if (!h)
        return -1;
    for (size_t j = 0; j < w->m; j++) {
        int64_t v = wval(w, j);
        size_t i;
        if (j < count) {
            for (h[i = j] = v; i > 0 && h[(i - 1) / 2] < h[i]; i = (i - 1) / 2)
                swap_i64(h, i, (i - 1) / 2);
            continue;
        }
        if (v >= h[0])
            continue;
        for (h[i = 0] = v;;) {   /* sift the new root down */
            size_t c = 2 * i + 1;
            if (c >= count)
                break;
            if (c + 1 < count && h[c + 1] > h[c])
                c++;
            if (h[i] >= h[c])
                break;
            swap_i64(h, i, c);
            i = c;
        }
    }
    int rc = sortkey_i64(h, NULL, count);
    *sum = 0;
    for (size_t k = drop; rc == 0 && k < count; k++)
        *sum += h[k];
    free(h);
    return rc;
}

/* Room for the walk: blocks of B >= the largest window, a tree over two blocks' ranks. */
static int walker_init(struct walker *w, const struct score_params *p, const struct score_sample *s,
                       size_t n, size_t m, uint32_t max_active)
{
    memset(w, 0, sizeof *w);
    w->p = p;
    w->s = s;
    w->m = m;
    size_t maxw = window_size(p, max_active, m), lim = m < SCORE_BLOCK_MIN ? m : SCORE_BLOCK_MIN;
    for (w->B = 1; w->B < maxw || w->B < lim; w->B *= 2)
        ;
    w->f.n = 2 * w->B;
    for (w->f.top = 1; w->f.top * 2 <= w->f.n; w->f.top *= 2)
        ;
    uint32_t *okpos = malloc(m * sizeof *okpos);
    w->okpos = okpos;
    w->f.node = malloc((w->f.n + 1) * sizeof *w->f.node);
    w->lrank = malloc(2 * w->B * sizeof *w->lrank);
    for (int k = 0; k < 2; k++) {
        w->key[k] = malloc(w->B * sizeof *w->key[k]);
        w->at[k] = malloc(w->B * sizeof *w->at[k]);
    }
    if (!okpos || !w->f.node || !w->lrank || !w->key[0] || !w->key[1] || !w->at[0] || !w->at[1])
        return -1;
    prefault(okpos, m * sizeof *okpos);
    for (size_t i = 0, k = 0; i < n; i++)
        if (s[i].ok)
            okpos[k++] = (uint32_t)i;
    return 0;
}

static void walker_free(struct walker *w)
{
    free((void *)w->okpos);
    free(w->f.node);
    free(w->lrank);
    for (int k = 0; k < 2; k++) {
        free(w->key[k]);
        free(w->at[k]);
    }
}

/* Counts the samples and refuses values out of range. */
static int survey(const struct score_sample *s, size_t n, struct score_result *out, double *index_ms,
                  char *err, size_t errlen)
{
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
    return 0;
}

int score_compute(const struct score_params *p, const struct score_sample *s, size_t n,
                  struct score_result *out, double *index_ms, char *err, size_t errlen)
{
    struct walker w = { 0 };
    result_reset(out, n);
    if (score_params_check(p, err, errlen) < 0 || survey(s, n, out, index_ms, err, errlen) < 0)
        return -1;
    out->samples_needed = p->min_samples > p->baseline_count ? p->min_samples : p->baseline_count;
    if (out->samples_ok < out->samples_needed) {
        out->status = SCORE_TOO_FEW;
        return 0;
    }
    size_t m = out->samples_ok;
    int rc = -1;
    if (n > UINT32_MAX || walker_init(&w, p, s, n, m, out->max_active) < 0 ||
        baseline_sum(&w, p->baseline_count, p->baseline_drop, &w.sum_b) < 0) {
        snprintf(err, errlen, "score: out of memory for %zu samples", n);
        goto done;
    }
    w.cnt_b = (int64_t)(p->baseline_count - p->baseline_drop);
    out->baseline_ms = (double)w.sum_b / (double)w.cnt_b / 1000.0;
    out->threshold_ms = out->baseline_ms + p->threshold_offset_ms;
    if (walk(&w, out, index_ms) < 0) {
        snprintf(err, errlen, "score: out of memory for %zu samples", n);
        goto done;
    }
    out->status = SCORE_OK;
    rc = 0;
done:
    walker_free(&w);
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

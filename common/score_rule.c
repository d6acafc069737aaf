/* score_rule.c -- smax: baseline, threshold, the moving trimmed-mean index and the crossing.
 *
 * The index window changes size with the active session count. Its samples are known by their
 * ranks, local to two neighbouring blocks of B ok samples (B >= the largest window, 4096 at
 * least): a bitmap marks the ranks in the window, and the t smallest and the t largest of them
 * (t the trim) are kept with their exact µs sums as the window moves, each an edge rank that
 * steps to the next marked rank when a sample enters, leaves or t changes. The trimmed sum is
 * the window's sum less both. A step costs a few bitmap words, not a tree descent; memory is
 * O(n) 4-byte positions plus O(B). */
#include "common/score_rule.h"
#include "common/sortkey.h"
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
    p->agent_share_max_pct = 5.0;
    p->agent_delay_max_ms = 100.0;
    p->agent_delayed_max_pct = 5.0;
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
    else if (!(p->agent_share_max_pct > 0 && p->agent_share_max_pct <= 100))
        why = "agent_share_max_pct must be above 0 and at most 100";
    else if (!(p->agent_delay_max_ms > 0))
        why = "agent_delay_max_ms must be above 0";
    else if (!(p->agent_delayed_max_pct >= 0 && p->agent_delayed_max_pct <= 100))
        why = "agent_delayed_max_pct must be between 0 and 100";
    if (why)
        snprintf(err, errlen, "score: %s", why);
    return why ? -1 : 0;
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

/* The window over the ranks 1..2B of a pair of blocks: `bits` marks the ranks present, val[r]
 * is the value of rank r. The low edge holds the present ranks <= lo_edge, the high edge those
 * >= hi_edge; win_trim() moves them to exactly the t smallest and the t largest. */
struct win {
    uint64_t *bits;
    int64_t *val;
    size_t words, lo_edge, hi_edge, lo_cnt, hi_cnt;
    int64_t sum, lo_sum, hi_sum;
};

static void win_clear(struct win *x, size_t ranks)
{
    memset(x->bits, 0, x->words * sizeof *x->bits);
    x->sum = x->lo_sum = x->hi_sum = 0;
    x->lo_cnt = x->hi_cnt = 0;
    x->lo_edge = 0;
    x->hi_edge = ranks + 1;
}

static void win_put(struct win *x, size_t r, int64_t v)
{
    x->bits[r >> 6] |= UINT64_C(1) << (r & 63);
    x->sum += v;
    if (r <= x->lo_edge)
        x->lo_cnt++, x->lo_sum += v;
    if (r >= x->hi_edge)
        x->hi_cnt++, x->hi_sum += v;
}

static void win_take(struct win *x, size_t r, int64_t v)
{
    x->bits[r >> 6] &= ~(UINT64_C(1) << (r & 63));
    x->sum -= v;
    if (r <= x->lo_edge)
        x->lo_cnt--, x->lo_sum -= v;
    if (r >= x->hi_edge)
        x->hi_cnt--, x->hi_sum -= v;
}

/* The smallest present rank >= r, and the largest <= r (one exists: the callers count). */
static size_t win_next(const struct win *x, size_t r)
{
    size_t i = r >> 6;
    uint64_t m = x->bits[i] & (~UINT64_C(0) << (r & 63));
    while (!m)
        m = x->bits[++i];
    return i * 64 + (size_t)__builtin_ctzll(m);
}

static size_t win_prev(const struct win *x, size_t r)
{
    size_t i = r >> 6;
    uint64_t m = x->bits[i] & (~UINT64_C(0) >> (63 - (r & 63)));
    while (!m)
        m = x->bits[--i];
    return i * 64 + 63 - (size_t)__builtin_clzll(m);
}

/* Sum of the window less its t smallest and t largest values (2t < the window's size). */
static int64_t win_trim(struct win *x, size_t t)
{
    while (x->lo_cnt < t) {
        x->lo_edge = win_next(x, x->lo_edge + 1);
        x->lo_cnt++, x->lo_sum += x->val[x->lo_edge];
    }
    while (x->lo_cnt > t) {
        size_t r = win_prev(x, x->lo_edge);
        x->lo_cnt--, x->lo_sum -= x->val[r];
        x->lo_edge = r - 1;
    }
    while (x->hi_cnt < t) {
        x->hi_edge = win_prev(x, x->hi_edge - 1);
        x->hi_cnt++, x->hi_sum += x->val[x->hi_edge];
    }
    while (x->hi_cnt > t) {
        size_t r = win_next(x, x->hi_edge);
        x->hi_cnt--, x->hi_sum -= x->val[r];
        x->hi_edge = r + 1;
    }
    return x->sum - x->lo_sum - x->hi_sum;
}

struct walker {
    const struct score_params *p;
    const struct score_sample *s;
    const uint32_t *okpos;
    size_t m, B, b0, lo, run_len, run_start;
    int64_t sum_b, cnt_b;
    __int128 off;
    double run_index;     /* the index at run_start */
    struct win win;
    int64_t *key[2];      /* sorted values of the previous block [0] and the current one [1] */
    uint32_t *at[2];      /* their offsets in their block, in the same order */
    size_t len[2];
    uint32_t *lrank;      /* rank in the pair of ok sample j, at lrank[j + B - b0] */
    double *index_ms;     /* per input position (score_compute) */
    const struct score_curve *curve;   /* per ok sample (score_compute_curve) */
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
            w->win.val[++r] = ka[a], w->lrank[aa[a++]] = (uint32_t)r;
        else
            w->win.val[++r] = tk[b], w->lrank[w->B + ta[b++]] = (uint32_t)r;
    }
    return 0;
}

/* The crossing: the first run of `consecutive` samples above the threshold. */
static void cross(struct walker *w, size_t i, int above, struct score_result *r, double idx)
{
    if (!above) {
        w->run_len = 0;
        return;
    }
    if (w->run_len++ == 0)
        w->run_start = i, w->run_index = idx;
    if (!r->reached && w->run_len >= w->p->consecutive) {
        const struct score_sample *c = &w->s[w->okpos[w->run_start]];
        r->reached = 1;
        r->cross_sample = w->okpos[w->run_start];
        r->cross_t_us = c->t_us;
        r->cross_active = c->active;
        r->cross_index_ms = w->run_index;
        r->smax = c->active > 0 ? (int)c->active - 1 : 0;
    }
}

/* Adds ok sample i, moves the window to its size, and computes the index there. */
static void step(struct walker *w, size_t i, struct score_result *r)
{
    const struct score_params *p = w->p;
    const struct score_sample *x = &w->s[w->okpos[i]];
    win_put(&w->win, wrank(w, i), x->value_us);
    size_t ws = window_size(p, x->active, i + 1), target = i + 1 - ws;
    for (; w->lo < target; w->lo++)
        win_take(&w->win, wrank(w, w->lo), wval(w, w->lo));
    while (w->lo > target) {
        w->lo--;
        win_put(&w->win, wrank(w, w->lo), wval(w, w->lo));
    }
    size_t t = trim_size(p, ws), keep = ws - 2 * t;
    int64_t tsum = win_trim(&w->win, t);
    double idx = (double)tsum / (double)keep / 1000.0;
    if (w->index_ms)
        w->index_ms[w->okpos[i]] = idx;
    if (w->curve)
        memcpy(w->curve->at + i * w->curve->stride, &idx, sizeof idx);
    if (isnan(r->max_index_ms) || idx > r->max_index_ms)
        r->max_index_ms = idx;
    /* index > baseline + offset, exactly: tsum/keep > (sum_b + off*cnt_b)/cnt_b; and never
     * before the window holds window_base samples (one early spike cannot end the score) */
    cross(w, i, i + 1 >= p->window_base &&
                (__int128)tsum * w->cnt_b > ((__int128)w->sum_b + w->off) * (__int128)keep, r, idx);
}

/* Walks the ok samples in order, block by block; fills the index and the crossing. */
static int walk(struct walker *w, struct score_result *r)
{
    w->off = (__int128)llround(w->p->threshold_offset_ms * 1000.0) * w->cnt_b;
    for (w->b0 = 0; w->b0 < w->m; w->b0 += w->B) {
        if (rank_block(w) < 0)
            return -1;
        win_clear(&w->win, 2 * w->B);
        for (size_t j = w->lo; j < w->b0; j++)   /* the window carried over from the last block */
            win_put(&w->win, wrank(w, j), wval(w, j));
        size_t b1 = w->m - w->b0 < w->B ? w->m : w->b0 + w->B;
        for (size_t i = w->b0; i < b1; i++)
            step(w, i, r);
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
    w->win.words = (2 * w->B + 1) / 64 + 1;
    uint32_t *okpos = malloc(m * sizeof *okpos);
    w->okpos = okpos;
    w->win.bits = malloc(w->win.words * sizeof *w->win.bits);
    w->win.val = malloc((2 * w->B + 2) * sizeof *w->win.val);
    w->lrank = malloc(2 * w->B * sizeof *w->lrank);
    for (int k = 0; k < 2; k++) {
        w->key[k] = malloc(w->B * sizeof *w->key[k]);
        w->at[k] = malloc(w->B * sizeof *w->at[k]);
    }
    if (!okpos || !w->win.bits || !w->win.val || !w->lrank || !w->key[0] || !w->key[1] || !w->at[0] || !w->at[1])
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
    free(w->win.bits);
    free(w->win.val);
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

static int compute(const struct score_params *p, const struct score_sample *s, size_t n, struct score_result *out,
                   double *index_ms, const struct score_curve *curve, char *err, size_t errlen)
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
    w.index_ms = index_ms;
    w.curve = curve;
    w.cnt_b = (int64_t)(p->baseline_count - p->baseline_drop);
    out->baseline_ms = (double)w.sum_b / (double)w.cnt_b / 1000.0;
    out->threshold_ms = out->baseline_ms + p->threshold_offset_ms;
    if (walk(&w, out) < 0) {
        snprintf(err, errlen, "score: out of memory for %zu samples", n);
        goto done;
    }
    out->status = SCORE_OK;
    rc = 0;
done:
    walker_free(&w);
    return rc;
}

int score_compute(const struct score_params *p, const struct score_sample *s, size_t n,
                  struct score_result *out, double *index_ms, char *err, size_t errlen)
{
    return compute(p, s, n, out, index_ms, NULL, err, errlen);
}

int score_compute_curve(const struct score_params *p, const struct score_sample *s, size_t n,
                        struct score_result *out, const struct score_curve *curve, char *err, size_t errlen)
{
    return compute(p, s, n, out, NULL, curve, err, errlen);
}

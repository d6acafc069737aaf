/* summary_samples.c -- a run's samples kept compactly, and the figures they give: smax over the
 * measure group and every timer's percentiles (summary_samples.h). */
#include "controller/score/summary_samples.h"
#include "controller/score/summary_agent.h"
#include "controller/score/summary_percentile.h"
#include "controller/score/summary_types.h"
#include "common/sortkey.h"
#include "common/prefault.h"
#include "common/runmerge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROW_MIN 1024
#define MAP_STEP (2u << 20)      /* bytes mapped at once as a vector fills, at least */

/* Room for `need` elements of `size` bytes in *p: the capacity grows to `hint` when that is more,
 * else by half (large blocks move by remapping, not copying). Pages are mapped at once
 * (prefault.h) in steps as the vector fills, never far beyond what it holds, so a generous
 * capacity costs address space only. */
static int grow(void **p, size_t *cap, size_t *mapped, size_t need, size_t size, size_t hint)
{
    if (need > *cap) {
        size_t ncap = *cap + *cap / 2;
        ncap = ncap < need ? need : ncap;
        ncap = ncap < hint ? hint : ncap < GROW_MIN ? GROW_MIN : ncap;
        char *q = realloc(*p, ncap * size);
        if (!q)
            return -1;
        *p = q;
        *cap = ncap;
    }
    if (need > *mapped) {
        size_t step = need - *mapped, min = MAP_STEP / size + *mapped / 8;
        size_t end = *mapped + (step > min ? step : min);
        end = end < *cap ? end : *cap;
        prefault((char *)*p + *mapped * size, (end - *mapped) * size);
        *mapped = end;
    }
    return 0;
}

void summary_samples_init(struct summary_samples *a)
{
    memset(a, 0, sizeof *a);
}

void summary_samples_expect(struct summary_samples *a, size_t expect)
{
    a->expect = expect;
}

/* Capacity hints from the first rows: each name's share of them, of the samples expected. */
static void hints(struct summary_samples *a, const struct store_sample_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct summary_name *x = &a->by_name[rows[i].name_id];
        if (rows[i].is_measure)
            x->mhint++;
        else if (rows[i].ok == SAMPLE_OK)
            x->okhint++;
    }
    double scale = 1.25 * (double)a->expect / (double)n;
    for (size_t k = 0; k < a->name_count; k++) {
        a->by_name[k].mhint = (size_t)(scale * (double)a->by_name[k].mhint);
        a->by_name[k].okhint = (size_t)(scale * (double)a->by_name[k].okhint);
    }
}

int summary_samples_add(struct summary_samples *a, const struct store_sample_row *rows, size_t n,
                        size_t name_count)
{
    if (name_count > a->name_count) {
        size_t mapped = a->name_cap;
        if (grow((void **)&a->by_name, &a->name_cap, &mapped, name_count, sizeof *a->by_name, 0) < 0)
            return -1;
        memset(a->by_name + a->name_count, 0, (name_count - a->name_count) * sizeof *a->by_name);
        a->name_count = name_count;
    }
    if (a->total == 0 && a->expect > n && n)
        hints(a, rows, n);
    for (size_t i = 0; i < n; i++) {
        const struct store_sample_row *r = &rows[i];
        struct summary_name *x = &a->by_name[r->name_id];
        x->count++;
        x->is_measure |= r->is_measure;
        x->suspect += r->ok == SAMPLE_SUSPECT;
        x->failed += r->ok != SAMPLE_OK;
        if (r->ok == SAMPLE_OK && r->agent_us >= 0) {
            if (x->nshare == x->sharemapped && grow((void **)&x->share, &x->sharecap, &x->sharemapped,
                                                    x->nshare + 1, sizeof *x->share, 0) < 0)
                return -1;
            x->share[x->nshare++] = r->agent_us > UINT32_MAX ? UINT32_MAX : (uint32_t)r->agent_us;
        }
        if (r->is_measure) {
            if (x->nm == x->mmapped && grow((void **)&x->m, &x->mcap, &x->mmapped, x->nm + 1, sizeof *x->m,
                                            x->mhint) < 0)
                return -1;
            x->m[x->nm++] = (struct score_sample){ r->t_us, r->value_us, r->active, r->ok == SAMPLE_OK };
            x->nm_ok += r->ok == SAMPLE_OK;
            x->m_back |= x->nm > 1 && (int64_t)r->t_us < x->m_last;
            x->m_last = (int64_t)r->t_us;
        } else if (r->ok == SAMPLE_OK) {
            if (x->nok == x->okmapped && grow((void **)&x->ok, &x->okcap, &x->okmapped, x->nok + 1,
                                              sizeof *x->ok, x->okhint) < 0)
                return -1;
            x->ok[x->nok++] = r->value_us;
        }
    }
    a->total += n;
    return 0;
}

/* Time order as the reader's: t_us compared as SQLite compares integers, ties in arrival order
 * (runmerge_sort is stable). */
static int before(const void *x, const void *y)
{
    return (int64_t)((const struct score_sample *)x)->t_us < (int64_t)((const struct score_sample *)y)->t_us;
}

static int order_by_time(struct summary_name *x)
{
    if (!x->m_back)
        return 0;                       /* added in time order: nothing to check again */
    int rc = runmerge_sort((void **)&x->m, x->nm, sizeof *x->m, before);
    if (rc > 0)
        x->mcap = x->mmapped = x->nm;
    return rc < 0 ? -1 : 0;
}

int summary_samples_finish(struct summary_samples *a, char *const *names, size_t name_count)
{
    if (name_count > a->name_count && summary_samples_add(a, NULL, 0, name_count) < 0)
        return -1;
    a->names = names;
    for (size_t k = 0; k < a->name_count; k++) {
        a->failed += a->by_name[k].failed;
        a->suspect += a->by_name[k].suspect;
        if (order_by_time(&a->by_name[k]) < 0)
            return -1;
    }
    return 0;
}

void summary_samples_free(struct summary_samples *a)
{
    for (size_t k = 0; k < a->name_count; k++) {
        free(a->by_name[k].ok);
        free(a->by_name[k].m);
        free(a->by_name[k].share);
    }
    free(a->by_name);
    memset(a, 0, sizeof *a);
}

/* The measure group to score: the configured one, else the only one present. */
static int pick_measure(const struct summary_samples *a, const char *want, struct summary *out)
{
    int found = -1, only = -1, groups = 0;
    char list[160] = "";
    for (size_t k = 0; k < a->name_count; k++) {
        if (!a->by_name[k].nm)
            continue;
        groups++;
        only = (int)k;
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "", a->names[k]);
        if (!strcmp(a->names[k], want))
            found = (int)k;
    }
    snprintf(out->measure, sizeof out->measure, "%s", want);
    if (found >= 0)
        return found;
    if (groups == 1) {
        snprintf(out->measure, sizeof out->measure, "%s", a->names[only]);
        snprintf(out->note, sizeof out->note, "no measure group named '%s'; scored the only one, '%s'",
                 want, a->names[only]);
        return only;
    }
    if (groups)
        snprintf(out->note, sizeof out->note, "no measure group named '%s' (groups in this run: %s); "
                 "set score.measure", want, list);
    else
        snprintf(out->note, sizeof out->note, "the run recorded no measure samples");
    return -1;
}

/* The score of the measure group and, with `curve`, its curve: the ok samples, each with its
 * index (NaN when there is no score), the score writing the index straight into the points. */
static int do_score(const struct summary_samples *a, int mid, int curve, struct summary *out, char *err,
                    size_t errlen)
{
    static const struct score_sample none;
    const struct score_sample *s = mid >= 0 ? a->by_name[mid].m : NULL;
    size_t n = mid >= 0 ? a->by_name[mid].nm : 0, nok = mid >= 0 ? a->by_name[mid].nm_ok : 0;
    if (!curve)
        return score_compute_curve(&out->config.params, s ? s : &none, n, &out->score, NULL, err, errlen);
    if (!(out->points = malloc((nok ? nok : 1) * sizeof *out->points))) {
        snprintf(err, errlen, "score: out of memory");
        return -1;
    }
    prefault(out->points, nok * sizeof *out->points);
    for (size_t i = 0; i < n; i++)
        if (s[i].ok)
            out->points[out->point_count++] = (struct summary_point){ s[i].t_us, s[i].active,
                                                                      s[i].value_us / 1000.0, NAN };
    struct score_curve at = { (char *)&out->points[0].index_ms, sizeof *out->points };
    return score_compute_curve(&out->config.params, s ? s : &none, n, &out->score, &at, err, errlen);
}

static double percentile_ms(const int64_t *sorted_us, size_t n, double p)
{
    return n ? sorted_us[summary_percentile_at(n, p)] / 1000.0 : NAN;
}

/* v: the ok values in µs, sorted here (through scratch, room for `room` values, when it fits) */
static int timer_stats(struct summary_timer *t, int64_t *v, size_t n, int64_t *scratch, size_t room)
{
    if (sortkey_i64_scratch(v, n, scratch, room) < 0)
        return -1;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i] / 1000.0;
    t->min_ms = n ? v[0] / 1000.0 : NAN;
    t->max_ms = n ? v[n - 1] / 1000.0 : NAN;
    t->avg_ms = n ? sum / (double)n : NAN;
    t->p50_ms = percentile_ms(v, n, 50);
    t->p90_ms = percentile_ms(v, n, 90);
    t->p95_ms = percentile_ms(v, n, 95);
    t->p99_ms = percentile_ms(v, n, 99);
    return 0;
}

/* A name's ok values: those of its measure rows, written over them (8 bytes where a row took
 * 24), then its own; the measure rows are let go. Their memory is mapped already, so the values
 * stay there when they fit, and what is left of it serves as the sort's scratch. */
static int gather_ok(struct summary_name *x)
{
    int64_t *v = (int64_t *)(void *)x->m;
    size_t k = 0, room = x->mmapped * sizeof *x->m / sizeof *v;
    for (size_t i = 0; i < x->nm; i++)
        if (x->m[i].ok)
            v[k++] = x->m[i].value_us;   /* bytes 8k.. never reach row i + 1 */
    if (v && k + x->nok <= room) {
        if (x->nok)
            memcpy(v + k, x->ok, x->nok * sizeof *v);
        free(x->ok);
        x->ok = v;
        x->okcap = x->mcap * sizeof *x->m / sizeof *v;
        x->okmapped = room;
        x->nok += k;
    } else {
        if (grow((void **)&x->ok, &x->okcap, &x->okmapped, x->nok + k, sizeof *x->ok, 0) < 0)
            return -1;
        if (k)
            memcpy(x->ok + x->nok, v, k * sizeof *v);
        x->nok += k;
        free(x->m);
    }
    x->m = NULL;
    x->nm = x->nm_ok = x->mcap = x->mmapped = 0;
    return 0;
}

/* Every timer with samples, in name order, with its percentiles over its ok values. */
static int do_timers(struct summary_samples *a, struct summary *out)
{
    if (!(out->timers = calloc(a->name_count ? a->name_count : 1, sizeof *out->timers)))
        return -1;
    for (size_t k = 0; k < a->name_count; k++) {
        struct summary_name *y = &a->by_name[k];
        if (y->count == 0)
            continue;
        struct summary_timer *x = &out->timers[out->timer_count++];
        *x = (struct summary_timer){ .is_measure = y->is_measure, .count = y->count, .failed = y->failed,
                                     .suspect = y->suspect };
        snprintf(x->name, sizeof x->name, "%s", a->names[k]);
        if (gather_ok(y) < 0 ||
            timer_stats(x, y->ok, y->nok, y->ok ? y->ok + y->nok : NULL, y->okmapped - y->nok) < 0)
            return -1;
        free(y->ok);
        y->ok = NULL;
        y->nok = y->okcap = y->okmapped = 0;
    }
    return 0;
}

/* The agent's share of the judged samples: those of the scored group, or of the focus timer when
 * there is no measure sample at all (a single-user diagnosis, verdict_judges_focus). */
static void agent_share(struct summary_samples *a, int mid, struct summary *out)
{
    int k = mid;
    for (size_t i = 0; k < 0 && out->config.focus[0] && i < a->name_count; i++)
        if (a->by_name[i].count && !strcmp(a->names[i], out->config.focus))
            k = (int)i;
    struct summary_name *x = k >= 0 ? &a->by_name[k] : NULL;
    size_t ok = !x ? 0 : x->is_measure ? x->nm_ok : x->count - x->failed;
    summary_agent_samples(x ? x->share : NULL, x ? x->nshare : 0, x && ok > x->nshare ? ok - x->nshare : 0, out);
}

int summary_samples_figures(struct summary_samples *a, struct summary *out, int curve, char *err, size_t errlen)
{
    int mid = pick_measure(a, out->config.params.measure, out);
    agent_share(a, mid, out);
    if (do_score(a, mid, curve, out, err, errlen) < 0)
        return -1;
    out->samples = a->total;
    out->samples_failed = a->failed;
    out->samples_suspect = a->suspect;
    out->failed_samples_pct = a->total ? 100.0 * a->failed / a->total : 0;
    if (do_timers(a, out) < 0) {
        snprintf(err, errlen, "summary: out of memory");
        return -1;
    }
    return 0;
}

/* summary.c -- the figures of one run: smax, per-timer percentiles, sessions, logon times,
 * bandwidth per session, agent health and the chart buckets. Pure over the store's rows. */
#include "controller/score/summary.h"
#include "controller/score/summary_copy.h"
#include "controller/score/summary_cost.h"
#include "controller/score/summary_evidence.h"
#include "controller/score/summary_logon.h"
#include "controller/score/summary_net.h"
#include "controller/score/summary_samples.h"
#include "controller/score/summary_target.h"
#include "controller/score/traffic_order.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUMMARY_BUCKETS 60

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void count_reason(struct summary *out, const char *reason)
{
    size_t k = 0;
    while (k < out->reason_count && strcmp(out->reasons[k].reason, reason))
        k++;
    if (k == out->reason_count) {
        if (k == FAIL__COUNT)
            k--;   /* unknown extra reasons share the last slot */
        else
            snprintf(out->reasons[out->reason_count++].reason, sizeof out->reasons[k].reason, "%s", reason);
    }
    out->reasons[k].count++;
}

static int do_sessions(const struct summary_input *in, struct summary *out)
{
    size_t n = in->session_count;
    double *v = malloc((n ? n : 1) * sizeof *v);
    out->logons = malloc((n ? n : 1) * sizeof *out->logons);
    if (!v || !out->logons) {
        free(v);
        return -1;
    }
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        const struct store_session_row *s = &in->sessions[i];
        out->launched++;
        if (!strcmp(s->state, "failed")) {
            out->failed_sessions++;
            count_reason(out, s->reason);
        }
        out->ended += !strcmp(s->state, "ended");
        if (!strcmp(s->reason, "lost"))
            out->agents_lost_sessions++;
        if (s->logon_us < 0 && s->active_us == 0) {
            out->cut_short += !strcmp(s->state, "failed") && !strcmp(s->reason, "aborted");
            continue;
        }
        out->active++;
        if (s->logon_us >= 0) {
            double ms = s->logon_us / 1000.0;
            v[out->logon_count] = ms;
            out->logons[out->logon_count++] = (struct summary_logon){ s->index, s->launch_us, ms };
            sum += ms;
        }
    }
    out->stuck = out->launched - out->active - out->cut_short;
    out->stuck_pct = out->launched ? 100.0 * out->stuck / out->launched : 0;
    qsort(v, out->logon_count, sizeof *v, dcmp);
    out->logon_p50_ms = summary_percentile(v, out->logon_count, 50);
    out->logon_p95_ms = summary_percentile(v, out->logon_count, 95);
    out->logon_p99_ms = summary_percentile(v, out->logon_count, 99);
    out->logon_avg_ms = out->logon_count ? sum / (double)out->logon_count : NAN;
    free(v);
    return 0;
}

static void do_agents(const struct summary_input *in, struct summary *out)
{
    out->agents = in->agent_count;
    for (size_t i = 0; i < in->agent_count; i++)
        out->agents_lost += !strcmp(in->agents[i].status, "lost") || !strcmp(in->agents[i].status, "failed");
    size_t n = in->health_count;
    double *v = malloc((n ? n : 1) * sizeof *v);
    out->lag_max_ms = out->cpu_max_pct = NAN;
    for (size_t i = 0; i < n; i++) {
        const struct rec_health *h = &in->health[i].h;
        if (v)
            v[i] = h->lag_p99_us / 1000.0;
        if (isnan(out->lag_max_ms) || h->lag_max_us / 1000.0 > out->lag_max_ms)
            out->lag_max_ms = h->lag_max_us / 1000.0;
        if (isnan(out->cpu_max_pct) || h->cpu_permille / 10.0 > out->cpu_max_pct)
            out->cpu_max_pct = h->cpu_permille / 10.0;
    }
    if (v)
        qsort(v, n, sizeof *v, dcmp);
    out->lag_p99_ms = v ? summary_percentile(v, n, 99) : NAN;
    free(v);
    summary_cost(in, out);
}

/* Traffic rows are cumulative per session: each consecutive pair of one session gives a byte
 * delta over a stretch of active time. */
struct tdelta { uint64_t t_us; double bytes, secs; };

static size_t traffic_deltas(const struct summary_input *in, struct tdelta *d)
{
    size_t nd = 0, n = in->traffic_count;
    const struct store_traffic_row *t = in->traffic;
    size_t *order = traffic_by_session(t, n);
    if (!order)
        return 0;
    for (size_t k = 1; k < n; k++) {
        size_t i = order[k], j = order[k - 1];
        if (t[i].session != t[j].session || t[i].t.t_us <= t[j].t.t_us)
            continue;
        double b = (double)(t[i].t.bytes_in + t[i].t.bytes_out) - (double)(t[j].t.bytes_in + t[j].t.bytes_out);
        d[nd++] = (struct tdelta){ t[i].t.t_us, b > 0 ? b : 0, (t[i].t.t_us - t[j].t.t_us) / 1e6 };
    }
    free(order);
    return nd;
}

static size_t bucket_of(uint64_t t, uint64_t t0, uint64_t width, size_t nb)
{
    size_t b = t < t0 ? 0 : (size_t)((t - t0) / width);
    return b < nb ? b : nb - 1;
}

static void span(const struct summary_input *in, const struct summary *out, uint64_t *t0, uint64_t *t1)
{
    *t0 = UINT64_MAX;
    *t1 = 0;
#define SPAN(t) do { if ((t) < *t0) *t0 = (t); if ((t) > *t1) *t1 = (t); } while (0)
    for (size_t i = 0; i < out->point_count; i++)
        SPAN(out->points[i].t_us);
    for (size_t i = 0; i < in->traffic_count; i++)
        SPAN(in->traffic[i].t.t_us);
    for (size_t i = 0; i < in->health_count; i++)
        SPAN(in->health[i].h.t_us);
    for (size_t i = 0; i < in->target_load_count; i++)
        SPAN(in->target_load[i].t_us);
#undef SPAN
}

static int do_buckets(const struct summary_input *in, struct summary *out, struct tdelta *d, size_t nd)
{
    uint64_t t0, t1;
    span(in, out, &t0, &t1);
    if (t0 > t1)
        return 0;
    size_t nb = SUMMARY_BUCKETS;
    uint64_t width = (t1 - t0) / nb + 1;
    struct summary_bucket *b = calloc(nb, sizeof *b);
    double *rt_n = calloc(nb, sizeof *rt_n), *bytes = calloc(nb, sizeof *bytes), *secs = calloc(nb, sizeof *secs);
    if (!b || !rt_n || !bytes || !secs) {
        free(b); free(rt_n); free(bytes); free(secs);
        return -1;
    }
    for (size_t k = 0; k < nb; k++)
        b[k] = (struct summary_bucket){ t0 + k * width, 0, NAN, 0, NAN, NAN, NAN, NAN, NAN };
    for (size_t i = 0; i < out->point_count; i++) {
        const struct summary_point *p = &out->points[i];
        struct summary_bucket *x = &b[bucket_of(p->t_us, t0, width, nb)];
        x->active = p->active;
        x->rt_min_ms = isnan(x->rt_min_ms) || p->value_ms < x->rt_min_ms ? p->value_ms : x->rt_min_ms;
        x->rt_max_ms = isnan(x->rt_max_ms) || p->value_ms > x->rt_max_ms ? p->value_ms : x->rt_max_ms;
        x->rt_avg_ms += p->value_ms;
        rt_n[x - b]++;
    }
    for (size_t i = 0; i < nd; i++) {
        size_t k = bucket_of(d[i].t_us, t0, width, nb);
        bytes[k] += d[i].bytes;
        secs[k] += d[i].secs;
    }
    for (size_t i = 0; i < in->health_count; i++) {
        const struct rec_health *h = &in->health[i].h;
        struct summary_bucket *x = &b[bucket_of(h->t_us, t0, width, nb)];
        if (isnan(x->lag_p99_ms) || h->lag_p99_us / 1000.0 > x->lag_p99_ms)
            x->lag_p99_ms = h->lag_p99_us / 1000.0;
        if (isnan(x->cpu_pct) || h->cpu_permille / 10.0 > x->cpu_pct)
            x->cpu_pct = h->cpu_permille / 10.0;
    }
    for (size_t i = 0; i < in->target_load_count; i++) {
        struct summary_bucket *x = &b[bucket_of(in->target_load[i].t_us, t0, width, nb)];
        double v = in->target_load[i].target_permille / 10.0;
        x->target_cpu_pct = isnan(x->target_cpu_pct) || v > x->target_cpu_pct ? v : x->target_cpu_pct;
    }
    for (size_t k = 0; k < nb; k++) {
        b[k].rt_avg_ms = rt_n[k] ? b[k].rt_avg_ms / rt_n[k] : NAN;
        b[k].kbps_per_session = secs[k] > 0 ? bytes[k] * 8 / 1000 / secs[k] : NAN;
    }
    out->buckets = b;
    out->bucket_count = nb;
    free(rt_n); free(bytes); free(secs);
    return 0;
}

static int do_traffic(const struct summary_input *in, struct summary *out)
{
    struct tdelta *d = malloc((in->traffic_count ? in->traffic_count : 1) * sizeof *d);
    if (!d)
        return -1;
    size_t nd = traffic_deltas(in, d);
    double bytes = 0, secs = 0;
    for (size_t i = 0; i < nd; i++) {
        bytes += d[i].bytes;
        secs += d[i].secs;
    }
    out->kbps_per_session = secs > 0 ? bytes * 8 / 1000 / secs : NAN;
    int rc = in->flags & SUMMARY_NO_CURVE ? 0 : do_buckets(in, out, d, nd);
    free(d);
    return rc;
}

int summary_compute(const struct summary_input *in, const struct score_config *cfg,
                    struct summary *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->run = *in->run;
    out->config = *cfg;
    out->config.thresholds = NULL;
    out->config.threshold_count = 0;
    if (cfg->threshold_count) {
        out->config.thresholds = malloc(cfg->threshold_count * sizeof *cfg->thresholds);
        if (!out->config.thresholds)
            goto oom;
        memcpy(out->config.thresholds, cfg->thresholds, cfg->threshold_count * sizeof *cfg->thresholds);
        out->config.threshold_count = cfg->threshold_count;
    }
    struct summary_samples own, *acc = in->acc;
    if (!acc) {   /* a loaded run: its rows in time order give the same figures as streaming them */
        const struct store_samples *ss = in->samples;
        acc = &own;
        summary_samples_init(acc);
        if (summary_samples_add(acc, ss->rows, ss->count, ss->name_count) < 0 ||
            summary_samples_finish(acc, ss->names, ss->name_count) < 0) {
            summary_samples_free(acc);
            goto oom;
        }
    }
    int rc = summary_samples_figures(acc, out, !(in->flags & SUMMARY_NO_CURVE), err, errlen);
    if (acc == &own)
        summary_samples_free(acc);
    if (rc < 0) {
        summary_free(out);
        return -1;
    }
    if (do_sessions(in, out) < 0)
        goto oom;
    summary_copy_apply(in->copies, in->copy_count, out);
    if (summary_evidence(in, out) < 0)
        goto oom;
    do_agents(in, out);
    if (do_traffic(in, out) < 0)
        goto oom;
    summary_net(in, out);
    if (summary_logon_phases(in, out) != 0)
        goto oom;
    summary_target(in, out);
    return 0;
oom:
    snprintf(err, errlen, "summary: out of memory");
    summary_free(out);
    return -1;
}

void summary_free(struct summary *s)
{
    score_config_free(&s->config);
    free(s->timers);
    free(s->points);
    free(s->buckets);
    free(s->logons);
    free(s->failures);
    resources_free(&s->res);
    memset(s, 0, sizeof *s);
}

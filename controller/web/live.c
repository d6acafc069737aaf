/* live.c -- the live state of a run (live.h): counts, the index chart, timer histograms, agents,
 * target CPU and traffic, fed on the loop thread and read by the web pages and /metrics. */
#include "controller/web/live.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* From 1 ms: the input echo (0-5 ms) is read off real buckets, not interpolated in the first. */
const double web_live_prom_bounds_s[WEB_LIVE_PROM_BUCKETS] = { 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                               0.5, 1, 2.5, 5, 10, 25, 60 };

#define FINE_BASE_MS 0.1
#define FINE_GROWTH 1.05
#define RATE_INTERVAL_US 5000000ull
#define POINT_EVERY_US 1000000ull

int web_live_init(struct web_live *w, uint32_t sessions, uint64_t now_us)
{
    memset(w, 0, sizeof *w);
    w->t0_us = now_us;
    w->point_every_us = POINT_EVERY_US;
    w->c.index_ms = w->c.baseline_ms = w->c.threshold_ms = NAN;
    w->c.left_s = -1;
    w->c.phase = "starting";
    w->target_cpu_pct = w->target_others_pct = -1;
    w->kbit_s_total = NAN;
    w->rate_t_us = now_us;
    w->nsess = sessions;
    if (sessions) {
        w->sess_bytes = calloc(sessions, sizeof *w->sess_bytes);
        w->sess_rtt_us = calloc(sessions, sizeof *w->sess_rtt_us);
        if (!w->sess_bytes || !w->sess_rtt_us) {
            web_live_free(w);
            return -1;
        }
    }
    return 0;
}

void web_live_free(struct web_live *w)
{
    free(w->sess_bytes);
    free(w->sess_rtt_us);
    w->sess_bytes = NULL;
    w->sess_rtt_us = NULL;
    w->nsess = 0;
}

void web_live_labels(struct web_live *w, int64_t run, const char *name, const char *platform,
                     const char *transport, const char *network)
{
    w->run_id = run;
    snprintf(w->run_name, sizeof w->run_name, "%s", name ? name : "");
    snprintf(w->platform, sizeof w->platform, "%s", platform ? platform : "");
    snprintf(w->transport, sizeof w->transport, "%s", transport ? transport : "");
    snprintf(w->network, sizeof w->network, "%s", network ? network : "");
}

/* Halves the chart (every other point) when full, and adds points half as often from then on:
 * a run of any length keeps its whole shape in a bounded array. */
static void add_point(struct web_live *w, uint64_t now_us)
{
    if (w->npoints == WEB_LIVE_MAX_POINTS) {
        for (size_t i = 0; i < WEB_LIVE_MAX_POINTS / 2; i++)
            w->points[i] = w->points[2 * i + 1];
        w->npoints = WEB_LIVE_MAX_POINTS / 2;
        w->point_every_us *= 2;
    }
    const struct web_live_counts *c = &w->c;
    uint32_t done = c->active + c->failed + c->ended;
    float lag = NAN;
    for (size_t i = 0; i < w->nagents; i++)
        if (!w->agents[i].lost && (isnan(lag) || w->agents[i].lag_p99_ms > lag))
            lag = (float)w->agents[i].lag_p99_ms;
    w->points[w->npoints++] = (struct web_live_point){ (float)((now_us - w->t0_us) / 1e6), (float)c->index_ms,
                                                       c->active, c->launched > done ? c->launched - done : 0,
                                                       c->failed, w->target_cpu_pct < 0 ? NAN : (float)w->target_cpu_pct,
                                                       lag };
}

static void update_rate(struct web_live *w, uint64_t now_us)
{
    if (now_us < w->rate_t_us + RATE_INTERVAL_US)
        return;
    double dt = (now_us - w->rate_t_us) / 1e6;
    w->kbit_s_total = (double)(w->bytes_total - w->rate_bytes) * 8 / 1000 / dt;
    w->rate_t_us = now_us;
    w->rate_bytes = w->bytes_total;
}

void web_live_counts(struct web_live *w, const struct web_live_counts *c, uint64_t now_us)
{
    w->c = *c;
    if (now_us >= w->next_point_us) {
        add_point(w, now_us);
        w->next_point_us = now_us + w->point_every_us;
    }
    update_rate(w, now_us);
}

static struct web_live_timer *timer_of(struct web_live *w, const char *name, int is_measure)
{
    for (size_t i = 0; i < w->ntimers; i++)
        if (strcmp(w->timers[i].name, name) == 0)
            return &w->timers[i];
    if (w->ntimers == WEB_LIVE_MAX_TIMERS)
        return NULL;
    struct web_live_timer *t = &w->timers[w->ntimers++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->is_measure = is_measure;
    return t;
}

static size_t fine_bucket(double ms)
{
    if (!(ms > FINE_BASE_MS))
        return 0;
    double i = floor(log(ms / FINE_BASE_MS) / log(FINE_GROWTH)) + 1;
    return i >= WEB_LIVE_FINE_BUCKETS - 1 ? WEB_LIVE_FINE_BUCKETS - 1 : (size_t)i;
}

void web_live_sample(struct web_live *w, const char *name, int is_measure, int ok, int64_t value_us)
{
    struct web_live_timer *t = timer_of(w, name, is_measure);
    if (!t)
        return;
    if (!ok) {
        t->failed++;
        return;
    }
    double s = value_us > 0 ? value_us / 1e6 : 0;
    t->count++;
    t->sum_s += s;
    t->fine[fine_bucket(s * 1000)]++;
    size_t b = 0;
    while (b < WEB_LIVE_PROM_BUCKETS && s > web_live_prom_bounds_s[b])
        b++;
    t->prom[b]++;
}

double web_live_quantile_ms(const struct web_live_timer *t, double q)
{
    if (!t->count)
        return NAN;
    uint64_t want = (uint64_t)ceil(q * (double)t->count), seen = 0;
    if (want < 1)
        want = 1;
    for (size_t i = 0; i < WEB_LIVE_FINE_BUCKETS; i++) {
        seen += t->fine[i];
        if (seen >= want) {
            if (i == 0)
                return FINE_BASE_MS / 2;
            /* the bucket's geometric middle: [base*g^(i-1), base*g^i) */
            return FINE_BASE_MS * pow(FINE_GROWTH, (double)i - 0.5);
        }
    }
    return NAN;
}

static struct web_live_agent *agent_of(struct web_live *w, const char *name)
{
    for (size_t i = 0; i < w->nagents; i++)
        if (strcmp(w->agents[i].name, name) == 0)
            return &w->agents[i];
    if (w->nagents == WEB_LIVE_MAX_AGENTS)
        return NULL;
    struct web_live_agent *a = &w->agents[w->nagents++];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    return a;
}

void web_live_health(struct web_live *w, const char *agent, double lag_p99_ms, double cpu_pct, double rss_mb,
                     uint32_t sessions_active)
{
    struct web_live_agent *a = agent_of(w, agent);
    if (!a)
        return;
    a->lag_p99_ms = lag_p99_ms;
    a->cpu_pct = cpu_pct;
    a->rss_mb = rss_mb;
    a->sessions_active = sessions_active;
}

void web_live_agent_lost(struct web_live *w, const char *agent)
{
    struct web_live_agent *a = agent_of(w, agent);
    if (a)
        a->lost = 1;
}

void web_live_traffic(struct web_live *w, uint32_t session, uint64_t t_us, uint64_t bytes, uint32_t rtt_us)
{
    (void)t_us;
    if (session >= w->nsess)
        return;
    if (bytes >= w->sess_bytes[session]) {
        w->bytes_total += bytes - w->sess_bytes[session];
        w->sess_bytes[session] = bytes;
    }
    if (rtt_us)
        w->sess_rtt_us[session] = rtt_us;
}

void web_live_target(struct web_live *w, double cpu_pct, double others_pct)
{
    w->target_cpu_pct = cpu_pct;
    w->target_others_pct = others_pct;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

double web_live_rtt_p50_ms(const struct web_live *w)
{
    uint32_t *v = malloc((w->nsess ? w->nsess : 1) * sizeof *v);
    size_t n = 0;
    if (!v)
        return NAN;
    for (uint32_t i = 0; i < w->nsess; i++)
        if (w->sess_rtt_us[i])
            v[n++] = w->sess_rtt_us[i];
    double r = NAN;
    if (n) {
        qsort(v, n, sizeof *v, cmp_u32);
        r = v[n / 2] / 1000.0;
    }
    free(v);
    return r;
}

double web_live_kbit_per_session(const struct web_live *w)
{
    if (isnan(w->kbit_s_total) || !w->c.active)
        return NAN;
    return w->kbit_s_total / w->c.active;
}

/* metrics.c -- `/metrics`: the live state in the Prometheus text format (metrics.h). */
#include "controller/web/metrics.h"

#include <inttypes.h>
#include <math.h>

#include "controller/report/prom_label.h"

static void labels(FILE *o, const struct web_live *w)
{
    fprintf(o, "run=\"%" PRId64 "\"", w->run_id);
    prom_label(o, 1, "name", w->run_name);
    prom_label(o, 1, "platform", w->platform);
    prom_label(o, 1, "transport", w->transport);
    prom_label(o, 1, "network", w->network);
    prom_label(o, 1, "client", w->client[0] ? w->client : "builtin");
}

static void head(FILE *o, const char *name, const char *type, const char *help)
{
    fprintf(o, "# HELP sessmax_%s %s\n# TYPE sessmax_%s %s\n", name, help, name, type);
}

/* One series; a NaN value (not known yet) is left out rather than exported as NaN. */
static void series(FILE *o, const struct web_live *w, const char *name, const char *key, const char *val, double v)
{
    if (isnan(v))
        return;
    fprintf(o, "sessmax_%s{", name);
    labels(o, w);
    if (key)
        prom_label(o, 1, key, val);
    fprintf(o, "} %.9g\n", v);
}

static void gauge(FILE *o, const struct web_live *w, const char *name, const char *help, double v)
{
    head(o, name, "gauge", help);
    series(o, w, name, NULL, NULL, v);
}

static void sessions(FILE *o, const struct web_live *w)
{
    head(o, "live_sessions", "gauge", "Sessions of the running test by state (planned, launched, active, failed, ended).");
    series(o, w, "live_sessions", "state", "planned", w->c.sessions);
    series(o, w, "live_sessions", "state", "launched", w->c.launched);
    series(o, w, "live_sessions", "state", "active", w->c.active);
    series(o, w, "live_sessions", "state", "failed", w->c.failed);
    series(o, w, "live_sessions", "state", "ended", w->c.ended);
    head(o, "live_agents", "gauge", "Agents connected and expected.");
    series(o, w, "live_agents", "state", "connected", w->c.agents);
    series(o, w, "live_agents", "state", "expected", w->c.agents_expected);
    head(o, "live_samples_total", "counter", "Samples received by the controller.");
    series(o, w, "live_samples_total", NULL, NULL, (double)w->c.samples);
}

static void index_gauges(FILE *o, const struct web_live *w)
{
    gauge(o, w, "live_index_seconds", "The score index (moving window of the scored measure).", w->c.index_ms / 1000);
    gauge(o, w, "live_baseline_seconds", "Baseline of the scored measure.", w->c.baseline_ms / 1000);
    gauge(o, w, "live_threshold_seconds", "Threshold: baseline + offset.", w->c.threshold_ms / 1000);
    gauge(o, w, "live_threshold_crossed", "1 once the index is above the threshold.", w->c.crossed);
    /* smax: the score once reached, the lower bound so far before; no series before the baseline */
    int v = web_live_smax_value(&w->smax);
    gauge(o, w, "live_smax", "Live smax: active sessions at the threshold crossing minus 1, or the lower bound so far.",
          v < 0 ? NAN : v);
    gauge(o, w, "live_smax_reached", "1 once the index crossed the threshold (live_smax is the score), 0 before.",
          w->smax.reached);
}

/* The live verdict: 1 with reason "none" while no rule the run cannot recover from is broken,
 * else 0 for each broken one (reason: the verdict rule's key); no series before it was judged. */
static void validity(FILE *o, const struct web_live *w)
{
    const struct web_live_alarms *x = &w->alarms;
    head(o, "live_valid", "gauge", "1 while the run can still pass its validity rules; 0 per broken rule (reason).");
    if (x->judged && !x->n)
        series(o, w, "live_valid", "reason", "none", 1);
    for (size_t i = 0; i < x->n; i++)
        series(o, w, "live_valid", "reason", x->a[i].key, 0);
    head(o, "live_session_failures_total", "counter", "Sessions failed so far, by reason.");
    for (int r = 0; r < FAIL__COUNT; r++)
        if (x->failed[r])
            series(o, w, "live_session_failures_total", "reason", failure_reason_name((enum failure_reason)r),
                   x->failed[r]);
}

static void histogram(FILE *o, const struct web_live *w, const struct web_live_timer *t)
{
    uint64_t cum = 0;
    for (size_t b = 0; b <= WEB_LIVE_PROM_BUCKETS; b++) {
        cum += t->prom[b];
        char le[32];
        if (b == WEB_LIVE_PROM_BUCKETS)
            snprintf(le, sizeof le, "+Inf");
        else
            snprintf(le, sizeof le, "%g", web_live_prom_bounds_s[b]);
        fprintf(o, "sessmax_live_response_seconds_bucket{");
        labels(o, w);
        prom_label(o, 1, "timer", t->name);
        prom_label(o, 1, "le", le);
        fprintf(o, "} %" PRIu64 "\n", cum);
    }
    fprintf(o, "sessmax_live_response_seconds_sum{");
    labels(o, w);
    prom_label(o, 1, "timer", t->name);
    fprintf(o, "} %.9g\nsessmax_live_response_seconds_count{", t->sum_s);
    labels(o, w);
    prom_label(o, 1, "timer", t->name);
    fprintf(o, "} %" PRIu64 "\n", t->count);
}

static void timers(FILE *o, const struct web_live *w)
{
    head(o, "live_response_seconds", "histogram", "Response times of successful timer and measure samples.");
    for (size_t i = 0; i < w->ntimers; i++)
        histogram(o, w, &w->timers[i]);
    head(o, "live_response_failures_total", "counter", "Timer samples that failed (timed out).");
    for (size_t i = 0; i < w->ntimers; i++)
        series(o, w, "live_response_failures_total", "timer", w->timers[i].name, (double)w->timers[i].failed);
}

static void agents(FILE *o, const struct web_live *w)
{
    static const struct { const char *name, *help; } m[] = {
        { "live_agent_loop_lag_p99_seconds", "The agent's event-loop lag p99 in its latest health record." },
        { "live_agent_cpu_cores", "The agent process's CPU (1 = one core)." },
        { "live_agent_rss_bytes", "The agent process's resident memory." },
        { "live_agent_active_sessions", "Sessions active on the agent." },
        { "live_agent_lost", "1 when the controller lost the agent." },
    };
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++) {
        head(o, m[k].name, "gauge", m[k].help);
        for (size_t i = 0; i < w->nagents; i++) {
            const struct web_live_agent *a = &w->agents[i];
            double v[] = { a->lag_p99_ms / 1000, a->cpu_pct / 100, a->rss_mb * 1048576, a->sessions_active, a->lost };
            series(o, w, m[k].name, "agent", a->name, v[k]);
        }
    }
}

/* The target's resources from its exporters (target.metrics), one series per source. */
static void resources(FILE *o, const struct web_live *w)
{
    static const struct { const char *name, *help; } m[] = {
        { "live_target_cpu_busy_ratio", "The target's CPU busy share from its exporter (target.metrics)." },
        { "live_target_memory_used_ratio", "The target's physical memory in use from its exporter." },
        { "live_target_disk_busy_ratio", "The target's busiest disk's busy share from its exporter." },
        { "live_target_network_ratio", "The target's busiest link's share of its speed from its exporter." },
        { "live_target_host_sessions", "Sessions the target itself reports (windows_terminal_services_sessions, node_logind_sessions)." },
    };
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++) {
        head(o, m[k].name, "gauge", m[k].help);
        for (size_t i = 0; i < w->nres; i++) {
            const struct web_live_resources *r = &w->res[i];
            double v[] = { r->cpu_pct / 100, r->mem_pct / 100, r->disk_busy_pct / 100, r->net_pct / 100, r->sessions };
            series(o, w, m[k].name, "source", r->source, v[k]);
        }
    }
}

void web_metrics_write(FILE *o, const struct web_live *w)
{
    sessions(o, w);
    index_gauges(o, w);
    validity(o, w);
    timers(o, w);
    agents(o, w);
    /* the family is always named, its series only once the target was sampled (target.local) */
    int sampled = w->target_cpu_pct >= 0;
    gauge(o, w, "live_target_cpu_cores", "The target's CPU (target.local; 1 = one CPU).",
          sampled ? w->target_cpu_pct / 100 : NAN);
    gauge(o, w, "live_target_others_cpu_cores", "Other processes on the target's CPUs.",
          sampled ? w->target_others_pct / 100 : NAN);
    resources(o, w);
    /* a counter, not a precomputed rate: rate(sessmax_live_traffic_bytes_total[1m]) is the throughput */
    head(o, "live_traffic_bytes_total", "counter", "RDP payload bytes in and out of every session so far.");
    series(o, w, "live_traffic_bytes_total", NULL, NULL, (double)w->bytes_total);
    gauge(o, w, "live_rtt_seconds", "Median of the sessions' newest TCP round-trip times.", web_live_rtt_p50_ms(w) / 1000);
}

/* summary_metric.c -- a summary figure by the name thresholds use ("smax", "p95"(timer), ...). */
#include "controller/score/summary_metric.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The run's timer names after "(timers:", or " none)". */
static void timer_list(const struct summary *s, char *err, size_t l, size_t errlen)
{
    for (size_t i = 0; i < s->timer_count && l < errlen; i++)
        l += (size_t)snprintf(err + l, errlen - l, " %s", s->timers[i].name);
    if (l < errlen)
        snprintf(err + l, errlen - l, "%s)", s->timer_count ? "" : " none");
}

static int timer_metric(const struct summary *s, const char *metric, const char *timer, double *out,
                        char *err, size_t errlen)
{
    const struct summary_timer none = { .p50_ms = NAN, .p90_ms = NAN, .p95_ms = NAN, .p99_ms = NAN,
                                        .avg_ms = NAN, .min_ms = NAN, .max_ms = NAN };
    const struct summary_timer *t = &none;
    for (size_t i = 0; i < s->timer_count && t == &none; i++)
        if (!strcmp(s->timers[i].name, timer))
            t = &s->timers[i];
    const struct { const char *m; double v; } map[] = {
        { "p50", t->p50_ms }, { "p90", t->p90_ms }, { "p95", t->p95_ms }, { "p99", t->p99_ms },
        { "avg", t->avg_ms }, { "min", t->min_ms }, { "max", t->max_ms },
        { "fail_pct", t->count ? 100.0 * t->failed / t->count : NAN }, { "count", (double)t->count },
    };
    size_t k = 0;
    while (k < sizeof map / sizeof map[0] && strcmp(map[k].m, metric))
        k++;
    if (k == sizeof map / sizeof map[0]) {
        if (errlen)
            snprintf(err, errlen, "unknown timer metric '%s'", metric);
        return -1;
    }
    *out = map[k].v;
    if (t != &none)
        return 0;
    if (errlen)
        timer_list(s, err, (size_t)snprintf(err, errlen, "run %lld has no timer '%s' (timers:", (long long)s->run.id,
                                            timer), errlen);
    return 1;
}

int summary_metric(const struct summary *s, const char *metric, const char *timer, double *out,
                   char *err, size_t errlen)
{
    if (timer && *timer)
        return timer_metric(s, metric, timer, out, err, errlen);
    const struct { const char *m; double v; } map[] = {
        { "smax", s->score.reached ? s->score.smax : NAN },
        /* what the data show: smax itself, or N - 1 when the index never crossed at N active */
        { "smax_at_least", s->score.status != SCORE_OK ? NAN : s->score.reached ? s->score.smax
                           : s->score.max_active > 0 ? s->score.max_active - 1.0 : 0 },
        { "baseline_ms", s->score.baseline_ms }, { "threshold_ms", s->score.threshold_ms },
        { "max_index_ms", s->score.max_index_ms }, { "stuck_pct", s->stuck_pct },
        { "stuck", s->stuck }, { "launched", s->launched }, { "active", s->active },
        { "failed_sessions", s->failed_sessions }, { "failed_samples_pct", s->failed_samples_pct },
        { "kbps_per_session", s->kbps_per_session }, { "lag_p99_ms", s->lag_p99_ms },
        { "cpu_max_pct", s->cpu_max_pct }, { "logon_p50", s->logon_p50_ms },
        { "logon_p95", s->logon_p95_ms }, { "logon_p99", s->logon_p99_ms },
        { "logon_avg", s->logon_avg_ms },
    };
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
        if (!strcmp(map[k].m, metric)) {
            *out = map[k].v;
            return 0;
        }
    snprintf(err, errlen, "unknown metric '%s'", metric);
    return -1;
}

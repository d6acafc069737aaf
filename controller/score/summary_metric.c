/* summary_metric.c -- a summary figure by the name thresholds use ("smax", "p95"(timer), ...). */
#include "controller/score/summary_metric.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int timer_metric(const struct summary *s, const char *metric, const char *timer, double *out,
                        char *err, size_t errlen)
{
    for (size_t i = 0; i < s->timer_count; i++) {
        const struct summary_timer *t = &s->timers[i];
        if (strcmp(t->name, timer))
            continue;
        const struct { const char *m; double v; } map[] = {
            { "p50", t->p50_ms }, { "p90", t->p90_ms }, { "p95", t->p95_ms }, { "p99", t->p99_ms },
            { "avg", t->avg_ms }, { "min", t->min_ms }, { "max", t->max_ms },
            { "fail_pct", t->count ? 100.0 * t->failed / t->count : 0 }, { "count", (double)t->count },
        };
        for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
            if (!strcmp(map[k].m, metric)) {
                *out = map[k].v;
                return 0;
            }
        break;
    }
    size_t l = (size_t)snprintf(err, errlen, "run %lld has no timer '%s' (timers:", (long long)s->run.id, timer);
    for (size_t i = 0; i < s->timer_count && l < errlen; i++)
        l += (size_t)snprintf(err + l, errlen - l, " %s", s->timers[i].name);
    if (l < errlen)
        snprintf(err + l, errlen - l, "%s)", s->timer_count ? "" : " none");
    return -1;
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

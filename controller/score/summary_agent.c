/* summary_agent.c -- the agent's share of the scored samples and its scheduler figures (see
 * summary_agent.h). */
#include "controller/score/summary_agent.h"

#include <math.h>
#include <stdlib.h>

#include "controller/score/summary_percentile.h"

static int ucmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void summary_agent_samples(uint32_t *share, size_t n, size_t unmeasured, struct summary *out)
{
    out->agent_samples = n;
    out->agent_unmeasured = unmeasured;
    out->agent_delayed = 0;
    out->agent_mean_ms = out->agent_p95_ms = out->agent_max_ms = NAN;
    if (!n)
        return;
    qsort(share, n, sizeof *share, ucmp);
    double sum = 0, bound_us = out->config.params.agent_delay_max_ms * 1000.0;
    for (size_t i = 0; i < n; i++) {
        sum += share[i];
        out->agent_delayed += share[i] > bound_us;
    }
    out->agent_mean_ms = sum / (double)n / 1000.0;
    size_t rank = summary_percentile_at(n, 95);
    out->agent_p95_ms = share[rank] / 1000.0;
    out->agent_max_ms = share[n - 1] / 1000.0;
}

void summary_agent_health(const struct summary_input *in, struct summary *out)
{
    double cpu = 0, delay = 0, all = 0, proc = 0, thr = 0;
    size_t n = 0;
    out->sched_seen = 0;
    for (size_t i = 0; i < in->health_count; i++) {
        const struct rec_health *h = &in->health[i].h;
        out->sched_seen += h->has_sched;
        if (!h->has_sched || !h->sessions_active)
            continue;
        thr += h->throttled_permille;
        cpu += h->loop_cpu_permille;
        delay += h->loop_delay_permille;
        all += h->delay_permille;
        proc += h->cpu_permille;
        n++;
    }
    out->sched_records = n;
    out->loop_cpu_pct = n ? cpu / (double)n / 10.0 : NAN;
    out->loop_delay_pct = n ? delay / (double)n / 10.0 : NAN;
    out->agent_delay_pct = n ? all / (double)n / 10.0 : NAN;
    out->agent_proc_cpu_pct = n ? proc / (double)n / 10.0 : NAN;
    out->throttled_pct = n ? thr / (double)n / 10.0 : NAN;
}

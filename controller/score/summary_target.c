/* summary_target.c -- a local target's CPU use and its neighbours' (see summary_target.h). */
#include "controller/score/summary_target.h"

#include <math.h>
#include <stdio.h>

void summary_target(const struct summary_input *in, struct summary *out)
{
    double t = 0, o = 0, tmax = 0, omax = 0;
    size_t n = in->target_load_count;
    out->target_samples = n;
    out->target_cpus = n ? in->target_load[n - 1].cpus : 0;
    for (size_t i = 0; i < n; i++) {
        double tp = in->target_load[i].target_permille / 10.0, op = in->target_load[i].others_permille / 10.0;
        t += tp;
        o += op;
        tmax = tp > tmax ? tp : tmax;
        omax = op > omax ? op : omax;
    }
    out->target_cpu_pct = n ? t / (double)n : NAN;
    out->others_cpu_pct = n ? o / (double)n : NAN;
    out->target_cpu_max_pct = n ? tmax : NAN;
    out->others_cpu_max_pct = n ? omax : NAN;
    out->target_shared = n && out->others_cpu_pct >= SUMMARY_TARGET_SHARED_PCT;
}

void summary_target_line(const struct summary *s, char *buf, size_t len)
{
    if (!s->target_samples) {
        snprintf(buf, len, "- (not sampled: the plan has no target.local, or the target is not on this machine)");
        return;
    }
    snprintf(buf, len, "CPU %.0f %% of its %u CPU%s (max %.0f %%); other processes on its CPUs %.0f %% "
             "(max %.0f %%): %s", s->target_cpu_pct, s->target_cpus, s->target_cpus == 1 ? "" : "s",
             s->target_cpu_max_pct, s->others_cpu_pct, s->others_cpu_max_pct,
             s->target_shared ? "SHARED, the target competed for its CPUs (response times include it)"
                              : "not shared");
}

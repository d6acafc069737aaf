/* demo_size.c -- the demo's ramp sized past the predicted knee (demo_size.h). Pure: no I/O. */
#include "controller/cli/demo_size.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

unsigned demo_size_cap(unsigned plan_sessions, uint64_t plan_window_us)
{
    if (!plan_sessions || !plan_window_us)
        return 0;
    double cap = floor((double)plan_sessions * (double)DEMO_LAUNCH_MAX_US / (double)plan_window_us);
    return cap < plan_sessions ? plan_sessions : cap > 100000 ? 100000 : (unsigned)cap;
}

void demo_size_ramp(unsigned plan_sessions, uint64_t plan_window_us, const struct demo_knee *k,
                    struct demo_size *out)
{
    unsigned cap = demo_size_cap(plan_sessions, plan_window_us), want;
    *out = (struct demo_size){ plan_sessions, plan_window_us, 0, 0, 0 };
    if (!cap)
        return;
    if (!k->reached)
        want = cap;
    else if (plan_sessions >= ceil(DEMO_PAST_MIN * k->smax))
        want = plan_sessions;
    else
        want = (unsigned)ceil(DEMO_PAST * k->smax);
    out->kept = want <= plan_sessions;
    out->capped = !k->reached || want > cap;
    out->sessions = out->kept ? plan_sessions : want > cap ? cap : want;
    out->launch_window_us = (uint64_t)llround((double)plan_window_us * out->sessions / plan_sessions);
    out->past = k->reached && k->smax ? (double)out->sessions / k->smax : 0;
}

int demo_size_parse(const char *text, struct demo_knee *k)
{
    static const char pred[] = "predicted smax for the plan: ", cost[] = "cost model: ";
    *k = (struct demo_knee){ 0 };
    const char *p = strstr(text, pred), *c = strstr(text, cost);
    unsigned n;
    if (!p)
        return -1;
    p += sizeof pred - 1;
    if (sscanf(p, "not reached (> %u)", &n) == 1)
        k->reached = 0;
    else if (sscanf(p, "%u", &n) == 1)
        k->reached = 1;
    else
        return -1;
    k->smax = n;
    double s = 0;
    while (c && sscanf(c + sizeof cost - 1, "%lf s of CPU per loop", &s) != 1)
        c = strstr(c + 1, cost);
    k->loop_cpu_s = c ? s : 0;
    return 0;
}

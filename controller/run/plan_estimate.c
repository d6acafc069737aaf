/* plan_estimate.c -- samples a plan can yield, before the run (see plan_estimate.h). */
#include "controller/run/plan_estimate.h"

#include "common/workload.h"
#include "controller/run/plan.h"
#include "controller/run/plan_check.h"
#include "controller/run/ramp.h"

#include <math.h>
#include <string.h>

#define WALK_MAX 1000000u           /* flattened steps we are willing to walk for an estimate */

struct walk { double us; uint32_t timed, focus; const char *focus_name; };

/* UTF-8 characters of typed text (continuation bytes do not count). */
static size_t chars(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static int visit(void *ctx, const struct workload_step *s, const char *timer)
{
    struct walk *w = ctx;
    (void)timer;
    switch (s->kind) {
    case WORKLOAD_STEP_THINK: w->us += (s->think_min_us + s->think_max_us) / 2.0; break;
    case WORKLOAD_STEP_TYPE: w->us += (double)chars(s->text) * (double)s->rate_us; break;
    case WORKLOAD_STEP_KEY: case WORKLOAD_STEP_CLICK: case WORKLOAD_STEP_MOVE: w->us += (double)s->pause_us; break;
    case WORKLOAD_STEP_WAIT: w->timed++; break;
    case WORKLOAD_STEP_TIMER:
        w->timed++;
        w->focus += w->focus_name && !strcmp(s->name, w->focus_name);
        break;
    default: break;
    }
    return 0;
}

/* The measure group the score will use: score.measure, or the only group. */
static const char *scored_measure(const struct plan_checked *pc)
{
    const struct workload *wl = pc->wl;
    for (size_t i = 0; i < wl->nmeasures; i++)
        if (!strcmp(wl->measures[i].name, pc->score.params.measure))
            return wl->measures[i].name;
    return wl->nmeasures == 1 ? wl->measures[0].name : NULL;
}

/* Loops every session can run if a loop takes loop_s: at most `loops:` each. */
static uint64_t total_loops(const struct plan *p, double loop_s)
{
    uint64_t n = 0;
    double end_s = (p->launch_window_us + p->steady_state_us) / 1e6;
    for (uint32_t i = 0; i < p->sessions; i++) {
        double t = end_s - ramp_launch_offset_us(i, p->sessions, p->launch_window_us) / 1e6;
        uint64_t k = t <= 0 ? 0 : loop_s > 0 ? (uint64_t)floor(t / loop_s) : UINT64_MAX / p->sessions;
        n += p->loops && k > p->loops ? p->loops : k;
    }
    return n;
}

void plan_estimate(const struct plan_checked *pc, struct plan_estimate *e)
{
    const struct plan *p = pc->plan;
    const struct workload *wl = pc->wl;
    struct walk w = { 0, 0, 0, p->focus };
    memset(e, 0, sizeof *e);
    if (workload_flat_steps(wl, WORKLOAD_PART_LOOP) <= WALK_MAX)
        workload_walk(wl, WORKLOAD_PART_LOOP, visit, &w);
    e->loop_min_s = w.us / 1e6;
    e->timed_steps = w.timed;
    const struct score_params *sp = &pc->score.params;
    e->needed = sp->min_samples > sp->baseline_count ? sp->min_samples : sp->baseline_count;
    const char *m = scored_measure(pc);
    snprintf(e->measure, sizeof e->measure, "%s", m ? m : "");
    uint64_t loops = total_loops(p, e->loop_min_s);
    e->samples_max = m ? loops : 0;
    e->focus_max = loops * w.focus;
    /* the largest loop time that still gives `needed` loops, minus the fixed part */
    double lo = 0, hi = (p->launch_window_us + p->steady_state_us) / 1e6 + 1;
    if (!m || total_loops(p, e->loop_min_s) < e->needed) {
        e->slack_s = -1;
        return;
    }
    for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        if (total_loops(p, mid) >= e->needed)
            lo = mid;
        else
            hi = mid;
    }
    e->slack_s = lo - e->loop_min_s;
}

void plan_estimate_print(const struct plan_checked *pc, FILE *out)
{
    struct plan_estimate e;
    plan_estimate(pc, &e);
    const struct plan *p = pc->plan;
    if (!e.measure[0])
        fprintf(out, "  samples    the workload has no measure group '%s' (nor a single other one): no baseline, "
                "no smax; the run will be inconclusive%s\n", pc->score.params.measure,
                p->focus ? " (a single-user diagnosis reads its focus timer instead)" : "");
    else if (e.slack_s < 0)
        fprintf(out, "  samples    NOT ENOUGH: at most %llu '%s' samples (a loop takes at least %g s of thinks, typing "
                "and pauses, before its %u timers and waits), and a baseline needs %u: raise steady_state, "
                "sessions%s\n", (unsigned long long)e.samples_max, e.measure, e.loop_min_s, e.timed_steps, e.needed,
                p->loops ? " or loops" : "");
    else
        fprintf(out, "  samples    at most %llu '%s' samples; the baseline's %u come if a loop's %u timers and waits "
                "take %.1f s or less in all (its thinks, typing and pauses take %g s)\n",
                (unsigned long long)e.samples_max, e.measure, e.needed, e.timed_steps, e.slack_s, e.loop_min_s);
    if (p->focus)
        fprintf(out, "  focus      %s: at most %llu samples (%s)\n", p->focus, (unsigned long long)e.focus_max,
                p->loops ? "its executions in every loop of every session" : "within the steady state");
}

/* plan_estimate.c -- samples a plan can yield, before the run (see plan_estimate.h). */
#include "controller/run/plan_estimate.h"

#include "common/workload.h"
#include "controller/run/plan.h"
#include "controller/run/plan_check.h"
#include "controller/run/ramp.h"

#include <math.h>
#include <string.h>

/* A loop's fixed time and its timed steps, from the step tree: a repeat multiplies its steps'
 * figures, so a repeat of 10^10 thinks costs one visit, and the counts saturate instead of
 * wrapping. */
struct walk { double us, timed, focus; const char *focus_name; };

/* UTF-8 characters of typed text (continuation bytes do not count). */
static size_t chars(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void tree(const struct workload_step *steps, size_t n, struct walk *w)
{
    for (size_t i = 0; i < n; i++) {
        const struct workload_step *s = &steps[i];
        struct walk sub = { 0, 0, 0, w->focus_name };
        switch (s->kind) {
        case WORKLOAD_STEP_THINK: w->us += (s->think_min_us + s->think_max_us) / 2.0; break;
        case WORKLOAD_STEP_TYPE: w->us += (double)chars(s->text) * (double)s->rate_us; break;
        case WORKLOAD_STEP_KEY: case WORKLOAD_STEP_CLICK: case WORKLOAD_STEP_MOVE: w->us += (double)s->pause_us; break;
        case WORKLOAD_STEP_WAIT: w->timed++; break;
        case WORKLOAD_STEP_TIMER:
            w->timed++;
            w->focus += w->focus_name && !strcmp(s->name, w->focus_name);
            tree(s->steps, s->nsteps, w);
            break;
        case WORKLOAD_STEP_REPEAT:
            tree(s->steps, s->nsteps, &sub);
            w->us += sub.us * s->count;
            w->timed += sub.timed * s->count;
            w->focus += sub.focus * s->count;
            break;
        }
    }
}

/* x as a count: floor, and UINT64_MAX for anything at or above it (a double would not convert). */
static uint64_t sat_count(double x)
{
    return !(x > 0) ? 0 : x >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)floor(x);
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
        uint64_t k = t <= 0 ? 0 : loop_s > 0 ? sat_count(t / loop_s) : UINT64_MAX;
        k = p->loops && k > p->loops ? p->loops : k;
        n = k > UINT64_MAX - n ? UINT64_MAX : n + k;
    }
    return n;
}

void plan_estimate(const struct plan_checked *pc, struct plan_estimate *e)
{
    const struct plan *p = pc->plan;
    const struct workload *wl = pc->wl;
    struct walk w = { 0, 0, 0, p->focus };
    memset(e, 0, sizeof *e);
    tree(wl->loop, wl->nloop, &w);
    e->loop_min_s = w.us / 1e6;
    e->timed_steps = w.timed >= UINT32_MAX ? UINT32_MAX : (uint32_t)w.timed;
    const struct score_params *sp = &pc->score.params;
    e->needed = sp->min_samples > sp->baseline_count ? sp->min_samples : sp->baseline_count;
    const char *m = scored_measure(pc);
    snprintf(e->measure, sizeof e->measure, "%s", m ? m : "");
    uint64_t loops = total_loops(p, e->loop_min_s);
    e->samples_max = m ? loops : 0;
    e->focus_max = sat_count((double)loops * w.focus);
    e->focus_judged = !m && p->focus;
    e->enough = m ? loops >= e->needed : e->focus_judged && e->focus_max >= e->needed;
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
    if (!e.measure[0] && e.focus_judged)
        fprintf(out, "  samples    the workload has no measure group '%s' (nor a single other one): no baseline, "
                "no smax; a single-user diagnosis, judged on its focus timer (below)\n", pc->score.params.measure);
    else if (!e.measure[0])
        fprintf(out, "  samples    NOT ENOUGH: the workload has no measure group '%s' (nor a single other one) and "
                "the plan no focus: timer: no baseline, no smax; every run of it will be inconclusive\n",
                pc->score.params.measure);
    else if (e.slack_s < 0)
        fprintf(out, "  samples    NOT ENOUGH: at most %llu '%s' samples (a loop takes at least %g s of thinks, typing "
                "and pauses, before its %u timers and waits), and a baseline needs %u: raise steady_state, "
                "sessions%s\n", (unsigned long long)e.samples_max, e.measure, e.loop_min_s, e.timed_steps, e.needed,
                p->loops ? " or loops" : "");
    else if (e.samples_max == UINT64_MAX)
        fprintf(out, "  samples    no bound from the loop's fixed time (no thinks, typing or pauses): the '%s' "
                "samples depend only on how long its %u timers and waits take\n", e.measure, e.timed_steps);
    else
        fprintf(out, "  samples    at most %llu '%s' samples; the baseline's %u come if a loop's %u timers and waits "
                "take %.1f s or less in all (its thinks, typing and pauses take %g s)\n",
                (unsigned long long)e.samples_max, e.measure, e.needed, e.timed_steps, e.slack_s, e.loop_min_s);
    if (!p->focus)
        return;
    fprintf(out, "  focus      %s: at most %llu samples (%s)", p->focus, (unsigned long long)e.focus_max,
            p->loops ? "its executions in every loop of every session" : "within the steady state");
    if (e.focus_judged)
        fprintf(out, "; %sthe verdict needs %u ok ones (as many as a baseline)", e.enough ? "" : "NOT ENOUGH: ",
                e.needed);
    fputc('\n', out);
}

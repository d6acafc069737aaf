/* plan_estimate.h -- before a run: how many samples can this plan yield, and is that enough for
 * a baseline? The loop's fixed time (think times at their mean, typing, pauses after keys,
 * clicks and moves) is a lower bound of a loop's duration, since timers and waits take what the
 * target takes; so the sample count is an upper bound, and "cannot" is certain when even that
 * falls short. Each session works from its launch (ramp.h) to the end of the steady state, or
 * for `loops:` loops. Without a measure group, a plan with a focus: timer is judged on that
 * timer's samples (a single-user diagnosis); without either, no run of it can be scored. */
#ifndef SESSMAX_PLAN_ESTIMATE_H
#define SESSMAX_PLAN_ESTIMATE_H

#include <stdint.h>
#include <stdio.h>

struct plan_checked;

struct plan_estimate {
    double loop_min_s;          /* a loop's fixed time: the lower bound */
    uint32_t timed_steps;       /* timers and waits per loop (their time comes on top) */
    char measure[48];           /* the measure group scored; "" when the workload has none */
    uint64_t samples_max;       /* measure samples at most */
    uint32_t needed;            /* ok samples a baseline needs */
    uint64_t focus_max;         /* samples of the focus timer at most (0 without focus) */
    double slack_s;             /* time per loop the timers and waits may take for `needed`
                                   samples; < 0 when even instant timers are too few */
    int focus_judged;           /* no measure group but a focus timer: the verdict judges the focus
                                   timer's samples (verdict_judges_focus), `needed` of them */
    int enough;                 /* 0 when the run certainly cannot collect the samples its score
                                   needs (it would end inconclusive); 1 when it may */
};

/* Computes the estimate (pure). */
void plan_estimate(const struct plan_checked *pc, struct plan_estimate *e);

/* Prints it as `validate` lines. */
void plan_estimate_print(const struct plan_checked *pc, FILE *out);

#endif

/* ramp.h -- the smax a plan's run should score: simulates the run that is actually made
 * (sessions launched evenly over the launch window, each logging on and then running its loop,
 * think and typing times drawn around their means, every action's CPU served by C CPUs shared
 * equally among the actions in progress) with the measured cost model, and scores the simulated
 * measure samples with the score's own rule (common/score_rule.h, the one `sessmax score`
 * applies; docs/scoring.md section 2: baseline of the lowest samples, moving trimmed-mean window
 * of 5 + 40 % of the active sessions, first index above baseline + offset). Unlike the steady-state MVA of mva.h it sees the ramp: users added
 * faster than a near-saturated queue settles, and a window that reports the load of a few users
 * earlier. Pure functions, no I/O. */
#ifndef SIM_RAMP_H
#define SIM_RAMP_H

#include <stddef.h>
#include <stdint.h>

#include "common/score_rule.h"

#define SIM_RAMP_SEGMENTS_MAX 64

/* One piece of a user's loop: wait `delay_s` (own time: think, typing, settle), then run `cpu_s`
 * of work; timer segments (`timer` >= 0) measure that work's response time. */
struct sim_ramp_segment {
    double delay_s, cpu_s;
    double jitter_s;   /* the delay is drawn uniformly in delay ± jitter */
    int timer;         /* index into the weights, -1: not timed */
};

struct sim_ramp_plan {
    unsigned sessions;
    double launch_window_s, steady_state_s;
    double logon_s;                      /* logon time at low load (own time, no CPU) */
    double cpus;
    struct sim_ramp_segment seg[SIM_RAMP_SEGMENTS_MAX];
    size_t nseg;
    double weight[SIM_RAMP_SEGMENTS_MAX]; /* measure weight per timer index */
    struct score_params score;           /* the plan's score: (score_params_default when none) */
    uint64_t seed;
};

struct sim_ramp_result {
    int reached;          /* the index crossed */
    unsigned smax;        /* active at the crossing − 1; not reached: the highest active count */
    double baseline_s;
    size_t samples;
};

/* Simulates one run with p->seed; returns 0, or -1 on a plan that cannot run (no sessions, no
 * CPU, no segment) or out of memory. */
int sim_ramp_run(const struct sim_ramp_plan *p, struct sim_ramp_result *out);

/* The score's rule (score_compute with p->score) over samples (value_s, active) in arrival order,
 * the values taken to the microsecond as the controller stores them: what `sessmax score` would
 * read from those samples. Returns 0, or -1 with fewer samples than the score needs
 * (max(baseline_count, min_samples)), incoherent parameters or out of memory. */
int sim_ramp_score(const struct sim_ramp_plan *p, const double *value_s, const unsigned *active, size_t n,
                   struct sim_ramp_result *out);

#endif

/* cost.h -- the cost model: CPU seconds per action measured on this machine, and the capacity
 * prediction for a workload loop.
 *
 * Every action's work is linear in --work-scale, so a short calibration at a fraction of the scale
 * (thread CPU time, CLOCK_THREAD_CPUTIME_ID) extrapolates to the full action. Each action also
 * paints its window and the bytes go out through TLS; both are measured too, the paint through
 * the session's own path (render, 64x64 tiles, the encoder a SIM_COST_BPP session gets). A loop's CPU is the sum of its actions and keystroke echoes; its length at low load
 * is think + typing + settle time (stable conditions) + its own CPU; capacity at saturation =
 * cpus x loop_seconds / cpu_seconds_per_loop. simhost/model/mva.h turns the same figures into a smax. */
#ifndef SIM_COST_H
#define SIM_COST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/results.h"
#include "simhost/desktop/cmd.h"
#include "simhost/desktop/font.h"

struct sim_costs {
    double scale;                          /* --work-scale the figures are for */
    double work_s[SIM_CMD_KIND_COUNT];     /* work of each action (edit, zip9, zip1, cpu, open) */
    double paint_s[SIM_CMD_KIND_COUNT];    /* painting its window (render, encode), incl. TLS of the bytes */
    double key_s;                          /* one echoed keystroke: render + encode + TLS */
    long long paint_bytes[SIM_CMD_KIND_COUNT]; /* bitmap bytes its paint sends (encoded) */
    long long paint_raw[SIM_CMD_KIND_COUNT];   /* the same pixels at SIM_COST_BPP, unencoded */
    double tls_byte_s;                     /* AES-128-GCM per byte (the TLS record cost) */
    double calib_s;                        /* CPU the calibration itself took */
    unsigned reps;                         /* measurements each figure is the least of */
};

/* The session depth the paint is measured at: the shipped workloads' and the agent's default
 * (16 bpp: interleaved RLE); a 32-bpp session's planar encoder is not measured. */
#define SIM_COST_BPP 16

#define SIM_LOOP_TIMERS_MAX 32

/* What one named timer's own steps trigger, summed over its occurrences in one loop. */
struct sim_loop_timer {
    char name[RESULTS_NAME_LEN];
    unsigned count;                        /* occurrences (samples) per loop */
    unsigned actions[SIM_CMD_KIND_COUNT];  /* commands its steps run (Enter in the run box, ctrl+o) */
    uint64_t keystrokes;                   /* keys and characters its steps type (echoes) */
    double weight;                         /* weight in the predicted measure group (0: not a member) */
};

/* What one workload loop does, for the prediction. */
struct sim_loop {
    unsigned actions[SIM_CMD_KIND_COUNT];  /* run-box commands (and ctrl+o dialogs) per loop */
    uint64_t keystrokes;                   /* characters and keys typed per loop */
    double think_s;                        /* think time per loop (mean of ranges) */
    double typing_s;                       /* typing time per loop */
    double settle_s;                       /* Σ `stable: {for: T}` of waits and timers' untils */
    struct sim_loop_timer timers[SIM_LOOP_TIMERS_MAX];
    size_t ntimers;                        /* distinct timer names in the loop */
    char measure[RESULTS_NAME_LEN];        /* the measure group weighted into timers ("" none) */
    size_t nmeasures;                      /* measure groups the workload has */
};

/* Thread CPU time in seconds (CLOCK_THREAD_CPUTIME_ID). */
double sim_cost_thread_cpu_s(void);

/* Measures every action at `scale` in dir (a scratch directory it prepares). Returns 0, or -1
 * with err filled. */
int sim_cost_calibrate(struct sim_costs *c, const char *dir, double scale, const struct sim_font *f,
                       char *err, size_t errlen);
/* The same, measured `reps` times; each figure is the least of its measurements. A single
 * measurement of a ~100 ms action on a shared or freshly started machine reads high (first-touch
 * page faults, cold caches, a neighbour on the core): the least of several is the action's own
 * cost, which is what a server busy with that action pays. --predict and --calibrate use this. */
int sim_cost_calibrate_reps(struct sim_costs *c, const char *dir, double scale, const struct sim_font *f,
                            unsigned reps, char *err, size_t errlen);
#define SIM_COST_PREDICT_REPS 7

/* best = the least of best and c, figure by figure. */
void sim_cost_keep_min(struct sim_costs *best, const struct sim_costs *c);
/* CPU of one action including its paint. */
double sim_cost_action_s(const struct sim_costs *c, enum sim_cmd_kind k);
/* Prints the table ("sessmax-simhost: cost edit 0.081 s ..."). */
void sim_cost_print(const struct sim_costs *c, FILE *out);

/* CPU seconds of one loop; the user's own time per loop (think + typing + settle: Z of the
 * closed system); the loop's length at low load (own time + CPU); the users `cpus` CPUs carry at
 * 100 % utilisation (0 when the loop has no CPU cost or no length). */
double sim_cost_loop_cpu_s(const struct sim_costs *c, const struct sim_loop *l);
double sim_cost_loop_user_s(const struct sim_loop *l);
double sim_cost_loop_len_s(const struct sim_costs *c, const struct sim_loop *l);
double sim_cost_capacity(const struct sim_costs *c, const struct sim_loop *l, double cpus);
/* Multiplies every action's work and paint and the keystroke echo by f: the whole table scaled,
 * so loops and timers alike. */
void sim_cost_scale(struct sim_costs *c, double f);
/* Scales c so one loop l costs loop_s (the factor loop_s / the model's figure, which it returns);
 * leaves c alone and returns 1 when either figure is not positive. */
double sim_cost_scale_to(struct sim_costs *c, const struct sim_loop *l, double loop_s);
/* CPU seconds of one sample of timer t (what its steps trigger, per occurrence). */
double sim_cost_timer_cpu_s(const struct sim_costs *c, const struct sim_loop_timer *t);

#endif

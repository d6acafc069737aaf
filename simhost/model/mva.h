/* mva.h -- exact Mean Value Analysis of a closed system, for `--predict`'s smax: n users
 * cycle between a pure delay (think time Z) and one processor-sharing station of C CPUs (Seidmann's
 * approximation: a queueing demand D/C plus a pure delay D·max(C−1, 0)/C). Pure functions. */
#ifndef SIM_MVA_H
#define SIM_MVA_H

#include <stddef.h>

#define SIM_MVA_MAX_USERS 100000u   /* the smax search gives up above this */

/* The state after n users: n = 0 after sim_mva_init, one more per sim_mva_step. */
struct sim_mva {
    double cpus, demand_s, think_s;
    unsigned n;
    double q_seen;   /* Q(n−1): the queue the n-th user sees arriving */
    double q;        /* Q(n): users queued or served at the station */
    double r_s;      /* R(n): response time of one loop's demand */
    double x;        /* X(n): loops per second */
};

void sim_mva_init(struct sim_mva *m, double cpus, double demand_s, double think_s);
/* n → n + 1: R(n) = (D/C)(1 + Q(n−1)) + D·max(C−1, 0)/C, X(n) = n / (Z + R(n)),
 * Q(n) = X(n)·(D/C)(1 + Q(n−1)). */
void sim_mva_step(struct sim_mva *m);
/* Response time at the current n of a demand d_s served at the same station (one timer). */
double sim_mva_stretch(const struct sim_mva *m, double d_s);

/* One member of the measure group: a timer's CPU demand per sample and its weight. */
struct sim_mva_timer {
    double demand_s, weight;
};

struct sim_mva_smax {
    double baseline_s;   /* the measure at n = 1 */
    double last_s;       /* the measure at the crossing (or at the cap) */
    unsigned smax;       /* crossing − 1 (valid when reached) */
    int reached;         /* 0: measure − baseline stayed ≤ offset up to SIM_MVA_MAX_USERS */
};

/* The measure Σ weight × stretch(demand) at the current n. */
double sim_mva_measure(const struct sim_mva *m, const struct sim_mva_timer *t, size_t nt);
/* Predicted smax: the first n whose measure exceeds measure(1) + offset_s, minus 1. Returns 0,
 * or -1 when the arguments cannot describe a system (cpus ≤ 0, demand ≤ 0, think < 0). */
int sim_mva_smax(double cpus, double demand_s, double think_s, const struct sim_mva_timer *t, size_t nt,
                 double offset_s, struct sim_mva_smax *out);

#endif

/* predict.h -- `sessmax-simhost --predict WORKLOAD.yaml --cpus C`: walks the workload's loop,
 * counts the run-box commands it types, keystrokes, think, typing and settle time and what each
 * timer triggers (struct sim_loop), and prints the users C CPUs can carry at saturation with the
 * measured costs (simhost/desktop/cost.h) and the smax a closed-queue model predicts (mva.h). */
#ifndef SIM_PREDICT_H
#define SIM_PREDICT_H

#include <stddef.h>
#include <stdio.h>

#include "simhost/desktop/cost.h"

/* Fills l from a workload file, weighting its timers with measure group `measure` (NULL: `vsi`,
 * else the only group, else none); returns 0, or -1 with err ("file:line:col: ..."; a named group
 * the workload lacks is an error). */
int sim_predict_load(const char *path, const char *measure, struct sim_loop *l, char *err, size_t errlen);
/* The same with the default measure. */
int sim_predict_loop(const char *path, struct sim_loop *l, char *err, size_t errlen);

struct sim_predict_args {
    const char *path;       /* --predict WORKLOAD.yaml */
    const char *measure;    /* --measure NAME (NULL: vsi, else the only group) */
    double cpus;            /* --cpus C */
    double offset_ms;       /* --threshold-offset-ms (the score's threshold_offset_ms, 1000) */
};

/* Prints the loop, the saturation capacity and the predicted smax; returns the exit code (0, or
 * EX_DATAERR on a bad workload). */
int sim_predict_main(const struct sim_predict_args *a, const struct sim_costs *c, FILE *out);

#endif

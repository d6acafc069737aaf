/* sim_predict.h -- `sessmax-simhost --predict WORKLOAD.yaml --cpus C`: walks the workload's loop,
 * counts the run-box commands it types, keystrokes, think and typing time (struct sim_loop), and
 * prints the users C CPUs can carry with the measured costs (sim_cost.h). */
#ifndef SIM_PREDICT_H
#define SIM_PREDICT_H

#include <stddef.h>
#include <stdio.h>

#include "simhost/sim_cost.h"

/* Fills l from a workload file; returns 0, or -1 with err ("file:line:col: ..."). */
int sim_predict_loop(const char *path, struct sim_loop *l, char *err, size_t errlen);
/* Prints the loop and the capacity; returns the exit code (0, or 65 on a bad workload). */
int sim_predict_main(const char *path, double cpus, const struct sim_costs *c, FILE *out);

#endif

/* ramp_plan.h -- `sessmax-simhost --predict --plan PLAN --cpus C`: reads the run a plan
 * makes (sessions, launch_window, steady_state, the workload, the score: parameters), turns the
 * workload's loop into simulation segments priced by the measured cost model, simulates the ramp
 * (ramp.h) with several seeds and prints the smax the score should read for that run. */
#ifndef SIM_RAMP_PLAN_H
#define SIM_RAMP_PLAN_H

#include <stddef.h>
#include <stdio.h>

#include "simhost/desktop/cost.h"
#include "simhost/model/ramp.h"

/* Runs simulated per prediction; the median is the prediction. With the seeds' spread about 2-5 %
 * (the plan's own noise, printed as their standard deviation), a median of 7 moved by a session or
 * two between calls; 21 keep it within about one. */
#define SIM_RAMP_SEEDS 21

/* Fills p from the plan file (everything but cpus and seed) and l with its workload's loop;
 * returns 0, or -1 with err ("file:line:col: ..."). */
int sim_ramp_plan_load(const char *plan, const struct sim_costs *c, struct sim_ramp_plan *p,
                       struct sim_loop *l, char *err, size_t errlen);

/* The path of the plan's workload as the controller resolves it (malloc'd), or NULL with err. */
char *sim_ramp_plan_workload(const char *plan, char *err, size_t errlen);
/* The plan's target.local.simhost_work_scale (the --work-scale of the simhost `sessmax demo`
 * starts) into *scale; left as it is when the plan has none. Returns 0, or -1 with err. */
int sim_ramp_plan_work_scale(const char *plan, double *scale, char *err, size_t errlen);

/* The same ramp rate carried on to `sessions` sessions: the launch window scaled by sessions /
 * p->sessions (unchanged when either is 0). */
void sim_ramp_plan_ramp_to(struct sim_ramp_plan *p, unsigned sessions);

/* Prints the plan's ramp, the steady-state prediction beside it and "predicted smax for the
 * plan: N"; with ramp_to > 0 the plan's ramp carried on to that many sessions at its rate
 * (sim_ramp_plan_ramp_to). Returns the exit code (0, or 65 on a bad plan or workload). */
int sim_ramp_plan_main(const char *plan, double cpus, unsigned ramp_to, const struct sim_costs *c, FILE *out);

#endif

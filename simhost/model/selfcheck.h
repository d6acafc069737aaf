/* selfcheck.h -- the real-session check: what a workload loop costs the whole server, not
 * just its actions. Starts a simhost child on a free loopback port (a throwaway password in its
 * environment), logs one headless client on (client.h), plays N passes of the workload's loop
 * into it and reads the child's CPU time from /proc before and after (until it is idle again).
 * The difference per loop includes what the synthetic cost model (simhost/desktop/cost.h) never runs:
 * FreeRDP's input and update PDUs, a TLS record and a write each, the session's threads.
 * `--predict` scales its cost table to that figure (--session-loops); bench_simhost --loop-check
 * prints it beside the model. */
#ifndef SIM_SELFCHECK_H
#define SIM_SELFCHECK_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "simhost/desktop/cost.h"
#include "simhost/server/opts.h"

/* A simhost child started by sim_selfcheck_spawn. */
struct sim_selfcheck_child {
    pid_t pid;
    int port;
    char fingerprint[128];
    FILE *out;   /* its stdout, kept open while it runs */
};

/* Starts `exe` --listen 127.0.0.1:<free port> --state-dir state --log-level warn, then the NULL-
 * terminated `extra` arguments, with SESSMAX_PASSWORD=password in its environment only; it dies
 * with the caller. Waits for its "listening on" line. Returns 0, or -1 with err. */
int sim_selfcheck_spawn(struct sim_selfcheck_child *ch, const char *exe, const char *password, const char *state,
                        const char *const *extra, char *err, size_t errlen);
/* SIGTERM and wait. */
void sim_selfcheck_stop(struct sim_selfcheck_child *ch);

struct sim_selfcheck_args {
    const char *exe;        /* the simhost binary to start */
    const char *workload;   /* whose loop is played */
    unsigned loops;         /* passes of the loop */
    double work_scale;      /* the child's --work-scale */
    int bpp;                /* the session's depth (SIM_COST_BPP as the agents' default) */
    const char *dir;        /* scratch: the child's state dir and the client's config */
};

/* Runs the whole check; *cpu_per_loop = the child's CPU seconds per loop. Returns 0, or -1 with
 * err (cannot start, log on, or read the workload). */
int sim_selfcheck_run(const struct sim_selfcheck_args *a, double *cpu_per_loop, char *err, size_t errlen);

/* --predict's use of it (--session-loops N, 0: off): runs the check for the workload of o (its
 * --predict WORKLOAD, or the plan's) and scales c so one loop costs what the session measured;
 * prints one line either way. On failure c is left as the synthetic model. */
void sim_selfcheck_predict(const struct sim_opts *o, struct sim_costs *c, FILE *out);

#endif

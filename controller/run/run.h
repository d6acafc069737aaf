/* controller/run/ -- running a test plan. plan.c reads and checks the plan (plan_check.c adds its
 * workload and score section), ramp.c spaces the launches and picks agents, agentpool.c accepts
 * the agents (agentspawn.c starts local ones) and speaks the agent link, runner.c/phases.c drive the run through its
 * phases, intake.c takes in what agents send, ledger.c keeps every session's state, livescore.c
 * scores while the run goes on and progress.c shows it. At the end the run is scored by
 * score/score_run.h, the same code `sessmax score` uses. Only run/ talks to agents.
 *
 * run.h -- one execution of a plan: agents, ramp, steady state, logoff, results into the store.
 *
 *   WAIT_AGENTS --all ready--> PREFLIGHT --first session active--> RAMP --last launch--> STEADY
 *        |                        \--it failed: the run fails--> LOGOFF     --steady_state over--> LOGOFF
 *        |                         RAMP, STEADY --early stop / target unavailable / Ctrl-C--> LOGOFF
 *        \--wait over: fail        (an agent lost: its sessions lost, the run goes on)
 *   LOGOFF --every agent DONE or lost (or deadline + grace)--> DRAIN (final commit, ACKs) --> end
 *
 * Everything that arrives is written to the store as it comes (batched; committed and
 * acknowledged every PHASES_TICK_MS). Used by `sessmax run` and `sessmax demo`. */
#ifndef SESSMAX_RUN_H
#define SESSMAX_RUN_H

#include <stdint.h>
#include <stdio.h>

struct plan_checked;

struct run_options {
    const char *db_path;        /* NULL: the plan's `results` */
    int tty;                    /* -1: detect on `out` */
    FILE *out;                  /* progress and summary; NULL: stdout */
    const char *agent_bin;      /* NULL: SESSMAX_AGENT_BIN or next to sessmax */
    const char *agent_log;      /* local agents' stderr; NULL: <db>.agents.log */
    const char *report_path;    /* write the HTML report here at the end; NULL: none */
    const char *verdict_path;   /* write verdict.json here; NULL: none */
    int shots_all;              /* --shots all: a PNG at the end of every first-loop timer too */
    int64_t matrix_id;          /* `sessmax matrix` the run belongs to (runs.matrix_id); 0: none */
    const char *cell;           /* its cell tag (runs.cell); NULL: none */
    const char *web_addr;       /* --web ADDR:PORT: the live view and /metrics; NULL: none */
    const char *web_token_file; /* --web-token-file: its token (0600); NULL: a random one */
    int no_preflight;           /* --no-preflight: the ramp starts without the pre-flight logon */
};

struct run_outcome {
    int64_t run_id;             /* -1 when the run never started */
    char status[16];            /* completed | aborted | failed */
    char message[256];
    /* what the controller spent on the way (benches print it) */
    uint32_t live_score_runs;   /* live re-scorings, their total and longest time */
    uint64_t live_score_us, live_score_max_us;
    uint64_t commits, commit_us, commit_max_us;   /* store commits (one per tick) */
    uint64_t tick_lag_p99_us, tick_lag_max_us;    /* the loop's tick later than due (ms resolution) */
};

/* Runs the plan; returns the exit code (0 pass, 1 thresholds failed, 2 inconclusive, 64+ for
 * configuration, I/O or internal errors, each with one line on stderr). */
int run_execute(struct plan_checked *pc, const struct run_options *o, struct run_outcome *out);

#endif

/* runner.h -- the state of one run shared by its parts: the plan, the loop, the store, the agent
 * pool, the session ledger, the live score and the phase. run.c sets it up and tears it down,
 * phases.c moves it through its phases, intake.c takes in what the agents send. Everything runs
 * on the loop thread. */
#ifndef SESSMAX_RUNNER_H
#define SESSMAX_RUNNER_H

#include <stdint.h>
#include <stdio.h>

#include "controller/run/ledger.h"
#include "controller/run/livescore.h"
#include "controller/run/progress.h"
#include "controller/run/run_limits.h"
#include "controller/run/ticklag.h"

struct run_options;
struct scrape;
struct targetload;
struct webfeed;

enum runner_phase { RUNNER_WAIT, RUNNER_PREFLIGHT, RUNNER_RAMP, RUNNER_STEADY, RUNNER_LOGOFF, RUNNER_DRAIN, RUNNER_END };

#define RUNNER_PASSWORD_LEN 512

struct runner {
    struct plan_checked *pc;
    const struct plan *plan;
    const struct run_options *opt;
    struct event_base *base;
    struct store *st;
    const char *db_path;        /* the results database (run_options, or the plan's `results`) */
    int64_t run;
    char shots[1024];           /* <db>.shots/run-<id>: PNGs the local agents save; "" none */
    struct agentpool *pool;
    char token[RUN_TOKEN_MAX_LEN + 1];
    char password[RUNNER_PASSWORD_LEN];
    struct ledger ledger;
    struct livescore live;
    enum runner_phase phase;
    uint64_t t_start_us, t_ramp_us, t_steady_end_us, t_logoff_end_us, t_drain_end_us;
    uint32_t next_launch;
    struct event *tick, *launch_ev, *sig_int, *sig_term;
    uint64_t samples;
    uint64_t commits, commit_us, commit_max_us;   /* the tick's store commits: count, total, longest */
    struct ticklag lag;             /* how late the tick ran */
    uint64_t cross_at_us;
    int aborted, failed_run, store_errors;
    int configured;                 /* CONFIG went to the agents (the ramp started) */
    int preflight;                  /* the first session logs on alone before the ramp (plan's
                                       `preflight`, unless --no-preflight) */
    int exit_code;
    /* The code the run exits with instead of the verdict's 0, 1 or 2, printed after the score as
     * "exit CODE END_WHY": EX_UNAVAILABLE when no session could reach the target, EX_CONFIG when
     * the pre-flight's TLS failed; 0 none. (A refused logon is the verdict's own 77.) */
    int end_code;
    char end_why[400];
    char last_failure[RESULTS_DETAIL_LEN];   /* the newest failed session's detail; "" none */
    char last_user[RESULTS_NAME_LEN];        /* ... its user, and its reason */
    enum failure_reason last_reason;
    char auth_user[RESULTS_NAME_LEN];        /* the score's first user whose logon was refused */
    char message[512];
    struct progress progress;
    FILE *out;
    struct targetload *target_load;  /* the plan's target.local, sampled every few seconds; NULL none */
    uint64_t target_load_next_us;
    struct scrape *scrape;           /* the plan's target.metrics, scraped on the loop; NULL none */
    struct webfeed *web;             /* --web: the live view; NULL none (webfeed.h) */
    /* Begins the logoff with `why` when the results store fails (runner_stored): run.c sets it to
     * phases_begin_logoff, so this file needs nothing of the phases above it; NULL: no logoff. */
    void (*begin_logoff)(struct runner *r, const char *why);
};

/* A line on the console that is also a run event in the store. */
void runner_note(struct runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Counts and logs (rate-limited) a failed store call `what` when rc < 0. */
void runner_stored(struct runner *r, int rc, const char *what);
/* Agents still ready or away within their grace period (not done, not lost). */
int runner_agents_alive(struct runner *r);

#endif

/* store_write.h -- the writer: inserts and updates batched into transactions (see the invariants
 * in store.h). Functions return 0 (or an id > 0), or -1 with the store's one-line error. */
#ifndef SESSMAX_STORE_WRITE_H
#define SESSMAX_STORE_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "common/results.h"

struct store;

/* Batching: flush when `max_rows` are pending or `max_age_us` passed since the batch opened.
 * Defaults: 5000 rows, 200 ms. The age is checked on every insert and by store_tick().
 * max_rows 1 (or max_age_us 0) commits every row. An open batch holds SQLite's write lock (WAL
 * readers are never blocked), so a writer that stops inserting must keep calling store_tick().
 * A failed commit loses that batch only, and says how many rows in the error. */
void store_set_batch(struct store *st, unsigned max_rows, uint64_t max_age_us);
int store_flush(struct store *st);
/* Call periodically (e.g. from a timer) so a quiet batch is still committed on time. */
int store_tick(struct store *st);

struct store_run_info {
    const char *name;            /* plan name */
    const char *transport;       /* tcp | gateway */
    const char *platform;        /* free label */
    const char *network;         /* network profile label */
    const char *target;          /* host:port */
    const char *workload_name;
    const char *workload_hash;   /* sha256 hex of the workload text */
    const char *plan_text;       /* redacted plan YAML */
    const char *score_params;    /* JSON of the score parameters used by the plan */
    uint32_t sessions_planned;
    uint64_t started_us;         /* wall clock */
    const char *network_profile; /* the profile itself (JSON, common/netprofile.h); NULL: "" */
    const char *client;          /* client program label; NULL: "builtin" (the FreeRDP engine) */
    int64_t matrix_id;           /* `sessmax matrix` this run belongs to; 0: none */
    const char *cell;            /* its cell tag ("network=lan,sessions=4"); NULL: "" */
};
/* Inserts a run with status "running"; returns its id (> 0) or -1. */
int64_t store_run_begin(struct store *st, const struct store_run_info *info);
/* status: "completed", "aborted", "failed". Flushes first. */
int store_run_end(struct store *st, int64_t run, const char *status, uint64_t ended_us, const char *message);
/* Marks every run still "running" as "aborted" (a controller killed mid-run), ending it at its
 * last sample; returns how many. Call it when a controller starts: one writer per file. */
int store_mark_stale_runs(struct store *st);

/* A new `sessmax matrix`: returns its id (> 0) or -1. `spec` identifies what it runs (plan hash,
 * varied keys, repeats) so that --resume can find it again. Committed at once. */
int64_t store_matrix_begin(struct store *st, const char *name, const char *spec, uint64_t started_us);

/* Score fields written by `sessmax score` / the end of `sessmax run`. */
struct store_score {
    const char *score_version;
    double baseline_ms, threshold_ms;
    int smax;                     /* -1: not reached */
    int smax_reached;
    uint32_t launched, active, stuck;
    const char *verdict;          /* pass | fail | inconclusive */
    const char *verdict_reasons;  /* one line per reason */
};
int store_run_set_score(struct store *st, int64_t run, const struct store_score *score);

int64_t store_add_agent(struct store *st, int64_t run, const char *name, const char *host, uint32_t capacity);
int store_agent_status(struct store *st, int64_t agent, const char *status, const char *detail);
/* The agent's clock offset (its wall clock minus ours) and round trip, from the handshake. */
int store_agent_clock(struct store *st, int64_t agent, int64_t offset_us, uint32_t rtt_us);

/* Sessions are identified by (run, index). The row is created at launch. */
int store_session_launch(struct store *st, int64_t run, uint32_t index, int64_t agent, const char *user, uint64_t t_us);
/* Applies a session event: sets active time + logon ms, end time, state and failure reason. */
int store_session_event(struct store *st, int64_t run, const struct rec_session *ev);
/* A session's logon phases (the agent's logon record): stored in its row, which must exist. */
int store_session_logon(struct store *st, int64_t run, const struct rec_logon *l);
/* Marks every non-terminal session of an agent as failed with `reason` (agent lost). */
int store_sessions_lost(struct store *st, int64_t run, int64_t agent, enum failure_reason reason, const char *detail, uint64_t t_us);

/* Batched appends. `active` is the number of active sessions when the sample arrived. */
int store_add_sample(struct store *st, int64_t run, const struct rec_sample *s, uint32_t active);
int store_add_traffic(struct store *st, int64_t run, const struct rec_traffic *t);
int store_add_health(struct store *st, int64_t run, int64_t agent, const struct rec_health *h);
/* One sample of a local target's CPU use (the controller's own measurement, not an agent's). */
struct store_target_load { uint64_t t_us; uint32_t cpus, target_permille, others_permille; };
int store_add_target_load(struct store *st, int64_t run, const struct store_target_load *l);
int store_add_event(struct store *st, int64_t run, uint64_t t_us, const char *level, const char *text);
/* A copy timer of the run: `bytes` moved per sample, to_client 0 (copy in) or 1 (copy out). */
int store_add_copy_timer(struct store *st, int64_t run, const char *name, int to_client, uint64_t bytes);

#endif

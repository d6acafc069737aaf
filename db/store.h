/* store.h -- the results store: one SQLite file per campaign, many runs in it.
 *
 * Invariants (see schema.sql):
 *   - one writer per file: the controller (or a test). Readers (score, report) may run at once.
 *   - WAL mode; the writer batches inserts into transactions flushed by count and by time, so
 *     a crash loses at most the open batch, never a committed one.
 *   - samples, traffic and events are append-only; only runs and sessions rows are updated.
 *   - the schema carries a version (PRAGMA user_version); opening an older file migrates it,
 *     opening a newer one is refused with a clear error.
 *   - no secret is ever stored: plan text is stored as given after the caller redacts it.
 *   - a sessmax file is marked (PRAGMA application_id 'SSMX' and meta.application = 'sessmax');
 *     any other SQLite file is refused, never written to.
 *   - store_check() and STORE_READ never write to a current-version file; a reader opening an
 *     older file migrates it once through a short-lived writable connection.
 *   - run and agent rows (begin, end, score, status) are committed at once; sessions, samples,
 *     traffic, health and events ride in the batch.
 * All SQL of the project lives in db/. Functions return 0 (or an id > 0) on success and -1 with
 * a one-line message naming the file in err on failure. A store is used by one thread. */
#ifndef SESSMAX_STORE_H
#define SESSMAX_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "common/results.h"

/* Version of schema.sql. 1: first release; 2: samples.loop and the health table; 3: network
 * profile and TCP segment counters; 4: copy_timers; 5: runs.client, runs.matrix_id/cell and
 * matrices; 6: agents.clock_offset_us and rtt_us; 7: target_load. */
#define STORE_SCHEMA_VERSION 7

struct store;

enum store_mode { STORE_READ = 0, STORE_WRITE = 1 };

/* Opens (and with STORE_WRITE creates or migrates) a results database. STORE_READ never creates
 * a file; on an older schema it migrates the file once through a short-lived writable
 * connection. Refuses a file that is not a sessmax database or has a newer schema. */
struct store *store_open(const char *path, enum store_mode mode, char *err, size_t errlen);
/* Flushes the open batch (writer) and closes. Accepts NULL. */
void store_close(struct store *st);
/* The last error message of this store (also returned through err). */
const char *store_errmsg(const struct store *st);

/* `sessmax db check`: integrity_check, sessmax schema, version. Fills report with one line per
 * finding; returns 0 when the file is a healthy sessmax database, -1 otherwise. */
int store_check(const char *path, char *report, size_t reportlen);

/* --- writer ------------------------------------------------------------------------------- */

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

/* --- reader ------------------------------------------------------------------------------- */

struct store_run {
    int64_t id;
    char name[128], transport[32], platform[128], network[128], target[128];
    char workload_name[128], workload_hash[72], status[16], verdict[16];
    char score_version[16];
    uint64_t started_us, ended_us;
    uint32_t sessions_planned;
    double baseline_ms, threshold_ms;     /* as last stored; NaN when never scored */
    int smax, smax_reached;
    char network_profile[512];            /* JSON; "" for runs stored before schema 3 */
    char client[64];                      /* "builtin" for runs stored before schema 4 */
    int64_t matrix_id;                    /* 0: not part of a matrix */
    char cell[256];                       /* matrix cell tag; "" when none */
};

/* Fills *out with runs in id order (malloc'd; caller frees). */
int store_list_runs(struct store *st, struct store_run **out, size_t *count);
int store_get_run(struct store *st, int64_t run, struct store_run *out);
/* The newest matrix with this spec: its id, 0 when there is none, -1 on error. */
int64_t store_matrix_find(struct store *st, const char *spec);
/* How many completed runs of matrix `matrix` carry the cell tag `cell` (-1 on error). */
int store_matrix_cell_done(struct store *st, int64_t matrix, const char *cell);

/* The newest run id, or -1 when the file has none. */
int64_t store_latest_run(struct store *st);
/* Plan text and score parameters JSON of a run (malloc'd strings; caller frees). */
int store_run_texts(struct store *st, int64_t run, char **plan_text, char **score_params);

struct store_sample_row {
    uint32_t session;
    uint32_t loop;
    uint32_t active;
    uint8_t ok, is_measure;
    uint64_t t_us;
    int64_t value_us;
    int name_id;                  /* index into the names array returned alongside */
};
/* All samples of a run ordered by t_us (then insertion). names[] holds the distinct timer
 * names; every array is malloc'd and owned by the caller (store_free_samples). */
struct store_samples {
    struct store_sample_row *rows;
    size_t count;
    char **names;
    size_t name_count;
};
int store_load_samples(struct store *st, int64_t run, struct store_samples *out);
void store_free_samples(struct store_samples *s);

struct store_session_row {
    uint32_t index;
    int64_t agent;
    char user[RESULTS_NAME_LEN];
    char state[16];               /* launched | active | failed | ended */
    char reason[24];
    char detail[RESULTS_DETAIL_LEN];
    uint64_t launch_us, active_us, end_us;   /* 0 when not reached */
    int64_t logon_us;                        /* -1 when never active */
};
int store_load_sessions(struct store *st, int64_t run, struct store_session_row **out, size_t *count);

struct store_traffic_row { uint32_t session; struct rec_traffic t; };
int store_load_traffic(struct store *st, int64_t run, struct store_traffic_row **out, size_t *count);

struct store_health_row { int64_t agent; struct rec_health h; };
int store_load_health(struct store *st, int64_t run, struct store_health_row **out, size_t *count);
/* The run's target_load rows in time order; *out is malloc'd (NULL when none). 0 or -1. */
int store_load_target_load(struct store *st, int64_t run, struct store_target_load **out, size_t *count);

struct store_copy_row { char name[RESULTS_NAME_LEN]; int to_client; uint64_t bytes; };
int store_load_copy_timers(struct store *st, int64_t run, struct store_copy_row **out, size_t *count);

struct store_agent_row {
    int64_t id;
    char name[64], host[128], status[16], detail[RESULTS_DETAIL_LEN];
    uint32_t capacity;
    int64_t clock_offset_us;
    uint32_t rtt_us;
};
int store_load_agents(struct store *st, int64_t run, struct store_agent_row **out, size_t *count);

#endif

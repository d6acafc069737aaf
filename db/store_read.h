/* store_read.h -- the reader API for score, report, compare and export: whole runs loaded into
 * plain arrays, children of a run in time order. Works on a store opened either way. */
#ifndef SESSMAX_STORE_READ_H
#define SESSMAX_STORE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "common/results.h"
#include "db/store_samples.h"

struct store;

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


struct store_session_row {
    uint32_t index;
    int64_t agent;
    char user[RESULTS_NAME_LEN];
    char state[16];               /* launched | active | failed | ended */
    char reason[24];
    char detail[RESULTS_DETAIL_LEN];
    uint64_t launch_us, active_us, end_us;   /* 0 when not reached */
    int64_t logon_us;                        /* -1 when never active */
    int64_t logon_phase_us[LOGON__PHASES];   /* enum logon_phase; -1 not measured */
};
int store_load_sessions(struct store *st, int64_t run, struct store_session_row **out, size_t *count);

/* seq: the row's place in the order the rows were stored (rows of one time come in that order) */
struct store_traffic_row { uint32_t session; struct rec_traffic t; int64_t seq; };
int store_load_traffic(struct store *st, int64_t run, struct store_traffic_row **out, size_t *count);

struct store_health_row { int64_t agent; struct rec_health h; };
int store_load_health(struct store *st, int64_t run, struct store_health_row **out, size_t *count);
struct store_target_load;   /* store_write.h */
/* The run's target_load rows (store_write.h) in time order; *out is malloc'd (NULL when none). */
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

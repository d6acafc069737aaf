/* store_read.c -- the reader API for score, report, compare and export: whole runs loaded into
 * plain arrays, children of a run always in time order (t_us, then insertion). Works on a store
 * opened either way; a writer's reads also see its open batch. */
#include "db/store_read.h"
#include "db/store_handle.h"
#include "db/store_write.h"       /* struct store_target_load */
#include "common/prefault.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int prepare(struct store *st, const char *sql, sqlite3_stmt **s)
{
    return (*s = store_reader(st, sql)) ? 0 : -1;
}

/* The column's text cut to len - 1 bytes (at its first NUL, as "%s" would). */
static void col_text(sqlite3_stmt *s, int col, char *dst, size_t len)
{
    const char *t = (const char *)sqlite3_column_text(s, col);
    size_t n = t ? strnlen(t, len - 1) : 0;
    memcpy(dst, t ? t : "", n);
    dst[n] = 0;
}

static char *col_strdup(sqlite3_stmt *s, int col)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    return strdup(t ? (const char *)t : "");
}

/* Grows *arr (elements of `size`) so index n fits. */
static int grow(struct store *st, void **arr, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 256;
    void *p = realloc(*arr, ncap * size);
    if (!p)
        return store_fail(st, "out of memory");
    *arr = p;
    *cap = ncap;
    return 0;
}

/* Room for the rows of `table` that belong to `run` (every row with run < 0), counted first
 * (through the table's run_id index): one allocation of the final size instead of doubling, which
 * copied and faulted in about twice the memory for a big run (and 256 rows of runs, 430 KB, for
 * a list of two). A writer adding rows meanwhile only makes grow() run. */
static int presize(struct store *st, const char *table, int64_t run, void **arr, size_t *cap, size_t size)
{
    char sql[128];
    sqlite3_stmt *s = NULL;
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s%s", table, run < 0 ? "" : " WHERE run_id = ?1");
    if (prepare(st, sql, &s) != 0)
        return -1;
    if (run >= 0)
        sqlite3_bind_int64(s, 1, run);
    int64_t n = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
    store_reader_done(st, s);
    if (n < 0)
        return store_fail_db(st, "cannot count rows");
    if (n == 0)
        return 0;
    void *p = malloc((size_t)n * size);
    if (!p)
        return store_fail(st, "out of memory");
    prefault(p, (size_t)n * size);
    *arr = p;
    *cap = (size_t)n;
    return 0;
}

/* --- runs -------------------------------------------------------------------------------- */

#define RUN_COLUMNS "id, name, transport, platform, network, target, workload_name, workload_hash, status," \
                    " coalesce(verdict, ''), coalesce(score_version, ''), started_us, ended_us, sessions_planned," \
                    " baseline_ms, threshold_ms, coalesce(smax, -1), coalesce(smax_reached, 0), network_profile," \
                    " client, matrix_id, cell FROM runs"

static void run_row(sqlite3_stmt *s, struct store_run *r)
{
    memset(r, 0, sizeof *r);
    r->id = sqlite3_column_int64(s, 0);
    col_text(s, 1, r->name, sizeof r->name);
    col_text(s, 2, r->transport, sizeof r->transport);
    col_text(s, 3, r->platform, sizeof r->platform);
    col_text(s, 4, r->network, sizeof r->network);
    col_text(s, 5, r->target, sizeof r->target);
    col_text(s, 6, r->workload_name, sizeof r->workload_name);
    col_text(s, 7, r->workload_hash, sizeof r->workload_hash);
    col_text(s, 8, r->status, sizeof r->status);
    col_text(s, 9, r->verdict, sizeof r->verdict);
    col_text(s, 10, r->score_version, sizeof r->score_version);
    r->started_us = (uint64_t)sqlite3_column_int64(s, 11);
    r->ended_us = (uint64_t)sqlite3_column_int64(s, 12);
    r->sessions_planned = (uint32_t)sqlite3_column_int64(s, 13);
    r->baseline_ms = sqlite3_column_type(s, 14) == SQLITE_NULL ? NAN : sqlite3_column_double(s, 14);
    r->threshold_ms = sqlite3_column_type(s, 15) == SQLITE_NULL ? NAN : sqlite3_column_double(s, 15);
    r->smax = sqlite3_column_int(s, 16);
    r->smax_reached = sqlite3_column_int(s, 17);
    col_text(s, 18, r->network_profile, sizeof r->network_profile);
    col_text(s, 19, r->client, sizeof r->client);
    r->matrix_id = sqlite3_column_int64(s, 20);
    col_text(s, 21, r->cell, sizeof r->cell);
}

static int load_rows(struct store *st, const char *table, const char *sql, int64_t run, size_t size,
                     void (*fill)(sqlite3_stmt *s, void *row), void **out, size_t *count);

static void fill_run(sqlite3_stmt *s, void *row)
{
    run_row(s, row);
}

int store_list_runs(struct store *st, struct store_run **out, size_t *count)
{
    return load_rows(st, "runs", "SELECT " RUN_COLUMNS " ORDER BY id", -1, sizeof **out, fill_run, (void **)out, count);
}

int store_get_run(struct store *st, int64_t run, struct store_run *out)
{
    sqlite3_stmt *s = NULL;
    if (prepare(st, "SELECT " RUN_COLUMNS " WHERE id = ?1", &s) != 0)
        return -1;
    sqlite3_bind_int64(s, 1, run);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        run_row(s, out);
    store_reader_done(st, s);
    if (rc == SQLITE_ROW)
        return 0;
    return rc == SQLITE_DONE ? store_fail(st, "no run %lld", (long long)run) : store_fail_db(st, "cannot read run");
}

int64_t store_matrix_find(struct store *st, const char *spec)
{
    sqlite3_stmt *s = NULL;
    if (prepare(st, "SELECT coalesce(max(id), 0) FROM matrices WHERE spec = ?1", &s) != 0)
        return -1;
    sqlite3_bind_text(s, 1, spec, -1, SQLITE_TRANSIENT);
    int64_t id = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : store_fail_db(st, "cannot find a matrix");
    store_reader_done(st, s);
    return id;
}

int store_matrix_cell_done(struct store *st, int64_t matrix, const char *cell)
{
    sqlite3_stmt *s = NULL;
    if (prepare(st, "SELECT count(*) FROM runs WHERE matrix_id = ?1 AND cell = ?2 AND status = 'completed'", &s) != 0)
        return -1;
    sqlite3_bind_int64(s, 1, matrix);
    sqlite3_bind_text(s, 2, cell, -1, SQLITE_TRANSIENT);
    int n = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int(s, 0) : store_fail_db(st, "cannot count a cell's runs");
    store_reader_done(st, s);
    return n;
}

int64_t store_latest_run(struct store *st)
{
    sqlite3_stmt *s = NULL;
    int64_t id = -1;
    if (prepare(st, "SELECT max(id) FROM runs", &s) != 0)
        return -1;
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL)
        id = sqlite3_column_int64(s, 0);
    else
        store_fail(st, "no run in this file");
    store_reader_done(st, s);
    return id;
}

int store_run_texts(struct store *st, int64_t run, char **plan_text, char **score_params)
{
    sqlite3_stmt *s = NULL;
    *plan_text = *score_params = NULL;
    if (prepare(st, "SELECT plan_text, score_params FROM runs WHERE id = ?1", &s) != 0)
        return -1;
    sqlite3_bind_int64(s, 1, run);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        *plan_text = col_strdup(s, 0);
        *score_params = col_strdup(s, 1);
    }
    store_reader_done(st, s);
    if (rc != SQLITE_ROW)
        return rc == SQLITE_DONE ? store_fail(st, "no run %lld", (long long)run) : store_fail_db(st, "cannot read run");
    if (!*plan_text || !*score_params) {
        free(*plan_text);
        free(*score_params);
        *plan_text = *score_params = NULL;
        return store_fail(st, "out of memory");
    }
    return 0;
}

/* --- sessions, traffic, health, agents --------------------------------------------------- */

/* Runs `sql` (one ?1 = run id) over `table` and calls fill() for each row into an array; with
 * run < 0, `sql` takes no parameter and the array is sized for the whole table (the list of runs). */
static int load_rows(struct store *st, const char *table, const char *sql, int64_t run, size_t size,
                     void (*fill)(sqlite3_stmt *s, void *row), void **out, size_t *count)
{
    sqlite3_stmt *s = NULL;
    char *rows = NULL;
    size_t n = 0, cap = 0;
    int rc;
    *out = NULL;
    *count = 0;
    if (presize(st, table, run, (void **)&rows, &cap, size) != 0 || prepare(st, sql, &s) != 0) {
        free(rows);
        return -1;
    }
    if (run >= 0)
        sqlite3_bind_int64(s, 1, run);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (grow(st, (void **)&rows, &cap, n, size) != 0)
            goto fail;
        memset(rows + n * size, 0, size);
        fill(s, rows + n * size);
        n++;
    }
    if (rc != SQLITE_DONE) {
        store_fail_db(st, "cannot read");
        goto fail;
    }
    store_reader_done(st, s);
    *out = rows;
    *count = n;
    return 0;
fail:
    store_reader_done(st, s);
    free(rows);
    return -1;
}

static void fill_session(sqlite3_stmt *s, void *row)
{
    struct store_session_row *r = row;
    r->index = (uint32_t)sqlite3_column_int64(s, 0);
    r->agent = sqlite3_column_int64(s, 1);
    col_text(s, 2, r->user, sizeof r->user);
    col_text(s, 3, r->state, sizeof r->state);
    col_text(s, 4, r->reason, sizeof r->reason);
    col_text(s, 5, r->detail, sizeof r->detail);
    r->launch_us = (uint64_t)sqlite3_column_int64(s, 6);
    r->active_us = (uint64_t)sqlite3_column_int64(s, 7);
    r->end_us = (uint64_t)sqlite3_column_int64(s, 8);
    r->logon_us = sqlite3_column_int64(s, 9);
    for (int i = 0; i < LOGON__PHASES; i++)
        r->logon_phase_us[i] = sqlite3_column_int64(s, 10 + i);
}

int store_load_sessions(struct store *st, int64_t run, struct store_session_row **out, size_t *count)
{
    return load_rows(st, "sessions", "SELECT idx, agent_id, user, state, reason, detail, launch_us, active_us, end_us, logon_us,"
                         " logon_wait_us, logon_tcp_us, logon_security_us, logon_rdp_us, logon_paint_us,"
                         " logon_desktop_us FROM sessions WHERE run_id = ?1 ORDER BY idx",
                     run, sizeof **out, fill_session, (void **)out, count);
}

static void fill_traffic(sqlite3_stmt *s, void *row)
{
    struct store_traffic_row *r = row;
    r->session = r->t.session = (uint32_t)sqlite3_column_int64(s, 0);
    r->t.t_us = (uint64_t)sqlite3_column_int64(s, 1);
    r->t.bytes_in = (uint64_t)sqlite3_column_int64(s, 2);
    r->t.bytes_out = (uint64_t)sqlite3_column_int64(s, 3);
    r->t.wire_in = (uint64_t)sqlite3_column_int64(s, 4);
    r->t.wire_out = (uint64_t)sqlite3_column_int64(s, 5);
    r->t.rtt_us = (uint32_t)sqlite3_column_int64(s, 6);
    r->t.frames = (uint32_t)sqlite3_column_int64(s, 7);
    r->t.data_segs_out = (uint32_t)sqlite3_column_int64(s, 8);
    r->t.retrans = (uint32_t)sqlite3_column_int64(s, 9);
    r->t.data_segs_in = (uint32_t)sqlite3_column_int64(s, 10);
    r->t.min_rtt_us = (uint32_t)sqlite3_column_int64(s, 11);
    r->seq = sqlite3_column_int64(s, 12);
}

/* Rows of the same time into the order they were stored: the index that gives time order holds
 * every column read (schema versions 10 and 11), so among equal times it orders by those; SQLite sorting
 * each run of equal times by rowid itself took longer than reading the rows. */
static void traffic_ties(struct store_traffic_row *r, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        if (r[i - 1].t.t_us != r[i].t.t_us || r[i - 1].seq < r[i].seq)
            continue;
        struct store_traffic_row x = r[i];
        size_t j = i;
        for (; j > 0 && r[j - 1].t.t_us == x.t.t_us && r[j - 1].seq > x.seq; j--)
            r[j] = r[j - 1];
        r[j] = x;
    }
}

int store_load_traffic(struct store *st, int64_t run, struct store_traffic_row **out, size_t *count)
{
    int rc = load_rows(st, "traffic", "SELECT session, t_us, bytes_in, bytes_out, wire_in, wire_out, rtt_us, frames,"
                           " data_segs_out, retrans, data_segs_in, min_rtt_us, rowid"
                           " FROM traffic WHERE run_id = ?1 ORDER BY t_us",
                       run, sizeof **out, fill_traffic, (void **)out, count);
    if (rc == 0)
        traffic_ties(*out, *count);
    return rc;
}

static void fill_health(sqlite3_stmt *s, void *row)
{
    struct store_health_row *r = row;
    r->agent = sqlite3_column_int64(s, 0);
    r->h.t_us = (uint64_t)sqlite3_column_int64(s, 1);
    r->h.sessions_active = (uint32_t)sqlite3_column_int64(s, 2);
    r->h.sessions_connecting = (uint32_t)sqlite3_column_int64(s, 3);
    r->h.lag_p50_us = (uint32_t)sqlite3_column_int64(s, 4);
    r->h.lag_p99_us = (uint32_t)sqlite3_column_int64(s, 5);
    r->h.lag_max_us = (uint32_t)sqlite3_column_int64(s, 6);
    r->h.cpu_permille = (uint32_t)sqlite3_column_int64(s, 7);
    r->h.rss_kb = (uint64_t)sqlite3_column_int64(s, 8);
    r->h.ext.sessions = (uint32_t)sqlite3_column_int64(s, 9);
    r->h.ext.cpu_permille = (uint32_t)sqlite3_column_int64(s, 10);
    r->h.ext.client_rss_kb = (uint64_t)sqlite3_column_int64(s, 11);
    r->h.ext.client_pss_kb = (uint64_t)sqlite3_column_int64(s, 12);
    r->h.ext.xserver_rss_kb = (uint64_t)sqlite3_column_int64(s, 13);
    r->h.ext.xserver_pss_kb = (uint64_t)sqlite3_column_int64(s, 14);
    r->h.has_sched = sqlite3_column_type(s, 15) != SQLITE_NULL;   /* NULL: before version 13, or not measured */
    r->h.loop_cpu_permille = (uint32_t)sqlite3_column_int64(s, 15);
    r->h.loop_delay_permille = (uint32_t)sqlite3_column_int64(s, 16);
    r->h.delay_permille = (uint32_t)sqlite3_column_int64(s, 17);
    r->h.loop_wakeups = (uint32_t)sqlite3_column_int64(s, 18);
    r->h.throttled_permille = (uint32_t)sqlite3_column_int64(s, 19);
}

int store_load_health(struct store *st, int64_t run, struct store_health_row **out, size_t *count)
{
    return load_rows(st, "health", "SELECT agent_id, t_us, sessions_active, sessions_connecting, lag_p50_us, lag_p99_us,"
                         " lag_max_us, cpu_permille, rss_kb, ext_sessions, ext_cpu_permille, ext_client_rss_kb,"
                         " ext_client_pss_kb, ext_xserver_rss_kb, ext_xserver_pss_kb, loop_cpu_permille,"
                         " loop_delay_permille, delay_permille, loop_wakeups, throttled_permille"
                         " FROM health WHERE run_id = ?1 ORDER BY t_us, rowid",
                     run, sizeof **out, fill_health, (void **)out, count);
}

static void fill_target_load(sqlite3_stmt *s, void *row)
{
    struct store_target_load *r = row;
    r->t_us = (uint64_t)sqlite3_column_int64(s, 0);
    r->cpus = (uint32_t)sqlite3_column_int64(s, 1);
    r->target_permille = (uint32_t)sqlite3_column_int64(s, 2);
    r->others_permille = (uint32_t)sqlite3_column_int64(s, 3);
}

int store_load_target_load(struct store *st, int64_t run, struct store_target_load **out, size_t *count)
{
    return load_rows(st, "target_load", "SELECT t_us, cpus, target_permille, others_permille FROM target_load"
                         " WHERE run_id = ?1 ORDER BY t_us, rowid",
                     run, sizeof **out, fill_target_load, (void **)out, count);
}

static void fill_agent(sqlite3_stmt *s, void *row)
{
    struct store_agent_row *r = row;
    r->id = sqlite3_column_int64(s, 0);
    col_text(s, 1, r->name, sizeof r->name);
    col_text(s, 2, r->host, sizeof r->host);
    col_text(s, 3, r->status, sizeof r->status);
    col_text(s, 4, r->detail, sizeof r->detail);
    r->capacity = (uint32_t)sqlite3_column_int64(s, 5);
    r->clock_offset_us = sqlite3_column_int64(s, 6);
    r->rtt_us = (uint32_t)sqlite3_column_int64(s, 7);
}

int store_load_agents(struct store *st, int64_t run, struct store_agent_row **out, size_t *count)
{
    return load_rows(st, "agents", "SELECT id, name, host, status, detail, capacity, clock_offset_us, rtt_us FROM agents"
                     " WHERE run_id = ?1 ORDER BY id",
                     run, sizeof **out, fill_agent, (void **)out, count);
}

static void fill_copy(sqlite3_stmt *s, void *row)
{
    struct store_copy_row *r = row;
    col_text(s, 0, r->name, sizeof r->name);
    r->to_client = sqlite3_column_int(s, 1) != 0;
    int64_t b = sqlite3_column_int64(s, 2);
    r->bytes = b > 0 ? (uint64_t)b : 0;
}

int store_load_copy_timers(struct store *st, int64_t run, struct store_copy_row **out, size_t *count)
{
    return load_rows(st, "copy_timers", "SELECT name, to_client, bytes FROM copy_timers WHERE run_id = ?1 ORDER BY to_client, bytes, name",
                     run, sizeof **out, fill_copy, (void **)out, count);
}

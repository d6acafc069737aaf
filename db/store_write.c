/* store_write.c -- the writer: every insert and update goes into one open transaction (the
 * batch), committed when it holds max_rows rows or is max_age_us old, on store_flush(), and on
 * store_close(). Run and agent rows commit at once: they are rare and readers wait for them.
 * Statements are prepared on first use and reused until the store closes. */
#include "db/store_write.h"
#include "db/store_chunk.h"
#include "db/store_handle.h"
#include "db/store_write_int.h"

#include "common/clock.h"

#include <stdlib.h>
#include <string.h>

static const char *const stmt_sql[STMT__COUNT] = {
    [STMT_BEGIN] = "BEGIN IMMEDIATE",
    [STMT_COMMIT] = "COMMIT",
    [STMT_ROLLBACK] = "ROLLBACK",
    [STMT_NAME_FIND] = "SELECT id FROM timer_names WHERE name = ?1",
    [STMT_NAME_ADD] = "INSERT INTO timer_names (name) VALUES (?1)",
    [STMT_CHUNK] = STORE_CHUNK_INSERT_SQL,
    [STMT_TRAFFIC] = "INSERT INTO traffic (run_id, session, t_us, bytes_in, bytes_out, wire_in, wire_out, rtt_us, frames,"
                     " data_segs_out, retrans, data_segs_in, min_rtt_us)"
                     " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    [STMT_HEALTH] = "INSERT INTO health (run_id, agent_id, t_us, sessions_active, sessions_connecting,"
                    " lag_p50_us, lag_p99_us, lag_max_us, cpu_permille, rss_kb, ext_sessions, ext_cpu_permille,"
                    " ext_client_rss_kb, ext_client_pss_kb, ext_xserver_rss_kb, ext_xserver_pss_kb)"
                    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
    [STMT_TARGET_LOAD] = "INSERT INTO target_load (run_id, t_us, cpus, target_permille, others_permille)"
                         " VALUES (?1, ?2, ?3, ?4, ?5)",
    [STMT_EVENT] = "INSERT INTO events (run_id, t_us, level, text) VALUES (?1, ?2, ?3, ?4)",
    [STMT_COPY_TIMER] = "INSERT OR REPLACE INTO copy_timers (run_id, name, to_client, bytes) VALUES (?1, ?2, ?3, ?4)",
    [STMT_RUN_BEGIN] = "INSERT INTO runs (name, transport, platform, network, target, workload_name,"
                       " workload_hash, plan_text, score_params, sessions_planned, started_us, network_profile, client,"
                       " matrix_id, cell) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    [STMT_MATRIX_BEGIN] = "INSERT INTO matrices (name, spec, started_us) VALUES (?1, ?2, ?3)",
    [STMT_RUN_END] = "UPDATE runs SET status = ?2, ended_us = ?3, message = ?4 WHERE id = ?1",
    [STMT_RUN_SCORE] = "UPDATE runs SET score_version = ?2, baseline_ms = ?3, threshold_ms = ?4, smax = ?5,"
                       " smax_reached = ?6, launched = ?7, active = ?8, stuck = ?9, verdict = ?10,"
                       " verdict_reasons = ?11 WHERE id = ?1",
    [STMT_RUN_STALE] = "UPDATE runs SET status = 'aborted',"
                       " ended_us = coalesce((SELECT max(t_max) FROM sample_chunks WHERE run_id = runs.id), started_us),"
                       " message = 'the controller stopped before the run ended' WHERE status = 'running'",
    [STMT_AGENT_ADD] = "INSERT INTO agents (run_id, name, host, capacity) VALUES (?1, ?2, ?3, ?4)",
    [STMT_AGENT_STATUS] = "UPDATE agents SET status = ?2, detail = ?3 WHERE id = ?1",
    [STMT_AGENT_CLOCK] = "UPDATE agents SET clock_offset_us = ?2, rtt_us = ?3 WHERE id = ?1",
    [STMT_SESSION_LAUNCH] = "INSERT INTO sessions (run_id, idx, agent_id, user, launch_us) VALUES (?1, ?2, ?3, ?4, ?5)"
                            " ON CONFLICT (run_id, idx) DO UPDATE SET agent_id = excluded.agent_id,"
                            " user = excluded.user, launch_us = excluded.launch_us",
    [STMT_SESSION_TOUCH] = "INSERT INTO sessions (run_id, idx, user, launch_us) VALUES (?1, ?2, ?3, ?4)"
                           " ON CONFLICT (run_id, idx) DO UPDATE SET"
                           " user = CASE WHEN user = '' THEN excluded.user ELSE user END,"
                           " launch_us = CASE WHEN launch_us = 0 THEN excluded.launch_us ELSE launch_us END",
    [STMT_SESSION_ACTIVE] = "UPDATE sessions SET state = 'active', active_us = ?3, logon_us = ?4, detail = ?5"
                            " WHERE run_id = ?1 AND idx = ?2 AND state IN ('launched', 'active')",
    [STMT_SESSION_LOGON] = "UPDATE sessions SET logon_wait_us = ?3, logon_tcp_us = ?4, logon_security_us = ?5,"
                           " logon_rdp_us = ?6, logon_paint_us = ?7, logon_desktop_us = ?8"
                           " WHERE run_id = ?1 AND idx = ?2",
    [STMT_SESSION_FAILED] = "UPDATE sessions SET state = 'failed', reason = ?3, detail = ?4, end_us = ?5"
                            " WHERE run_id = ?1 AND idx = ?2 AND state IN ('launched', 'active')",
    [STMT_SESSION_ENDED] = "UPDATE sessions SET state = 'ended', end_us = ?3"
                           " WHERE run_id = ?1 AND idx = ?2 AND state IN ('launched', 'active')",
    [STMT_SESSION_LOST] = "UPDATE sessions SET state = 'failed', reason = ?3, detail = ?4, end_us = ?5"
                          " WHERE run_id = ?1 AND agent_id = ?2 AND state IN ('launched', 'active')",
};

static sqlite3_stmt *stmt(struct store *st, enum store_stmt_id id)
{
    if (!st->stmt[id] &&
        sqlite3_prepare_v3(st->db, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT, &st->stmt[id], NULL) != SQLITE_OK) {
        store_fail_db(st, "cannot prepare a statement");
        return NULL;
    }
    return st->stmt[id];
}

void store_finalize_all(struct store *st)
{
    for (int i = 0; i < STMT__COUNT; i++) {
        sqlite3_finalize(st->stmt[i]);
        st->stmt[i] = NULL;
    }
    for (size_t i = 0; i < st->reader_count; i++) {
        sqlite3_finalize(st->reader[i].s);
        free(st->reader[i].sql);
    }
    st->reader_count = 0;
}

/* Steps a bound statement to completion and resets it. */
static int run(struct store *st, sqlite3_stmt *s, const char *what)
{
    if (!s)
        return -1;
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return (rc == SQLITE_DONE || rc == SQLITE_ROW) ? 0 : store_fail_db(st, what);
}

static void bind_text(sqlite3_stmt *s, int i, const char *text)
{
    sqlite3_bind_text(s, i, text ? text : "", -1, SQLITE_STATIC);
}

static int writable(struct store *st)
{
    return st->mode == STORE_WRITE ? 0 : store_fail(st, "opened read-only, cannot write");
}

/* Opens the batch if none is open. */
static int batch_open(struct store *st)
{
    if (writable(st) != 0)
        return -1;
    if (st->in_tx)
        return 0;
    if (run(st, stmt(st, STMT_BEGIN), "cannot begin a transaction") != 0)
        return -1;
    st->in_tx = 1;
    st->pending = 0;
    st->batch_started_us = clock_now_us();
    return 0;
}

static int batch_due(const struct store *st)
{
    return st->in_tx && (st->pending >= st->max_rows || clock_now_us() - st->batch_started_us >= st->max_age_us);
}

/* Counts one row into the batch and commits it when it is full or old enough. */
static int batch_row(struct store *st)
{
    st->pending++;
    return batch_due(st) ? store_flush(st) : 0;
}

int store_batch_begin(struct store *st)
{
    return batch_open(st);
}

int store_batch_add(struct store *st)
{
    return batch_row(st);
}

void store_set_batch(struct store *st, unsigned max_rows, uint64_t max_age_us)
{
    st->max_rows = max_rows ? max_rows : 1;
    st->max_age_us = max_age_us;
}

int store_chunk_flush(struct store *st)
{
    if (!st->chunk || st->chunk->n == 0)
        return 0;
    sqlite3_stmt *s = stmt(st, STMT_CHUNK);
    if (!s) {
        st->chunk->n = 0;
        return -1;
    }
    int rc = store_chunk_write(s, st->chunk);
    return rc == SQLITE_DONE ? 0 : store_fail_db(st, "cannot insert samples");
}

int store_flush(struct store *st)
{
    if (!st->in_tx)
        return 0;
    unsigned rows = st->pending;
    int chunk_rc = store_chunk_flush(st);
    st->in_tx = 0;
    st->pending = 0;
    if (chunk_rc == 0 && run(st, stmt(st, STMT_COMMIT), "commit failed") == 0)
        return 0;
    char why[sizeof st->err];
    memcpy(why, st->err, sizeof why);
    if (sqlite3_get_autocommit(st->db) == 0)
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    store_names_clear(st);       /* names added in the lost batch are gone too */
    return store_fail(st, "%s (%u rows lost)", why, rows);
}

int store_tick(struct store *st)
{
    return batch_due(st) ? store_flush(st) : 0;
}

/* --- timer names ------------------------------------------------------------------------- */

void store_names_clear(struct store *st)
{
    for (size_t i = 0; i < st->name_count; i++)
        free(st->names[i].name);
    st->name_count = 0;
}

static int name_cache(struct store *st, const char *name, int64_t id)
{
    if (st->name_count == st->name_cap) {
        size_t cap = st->name_cap ? st->name_cap * 2 : 16;
        struct store_name *n = realloc(st->names, cap * sizeof *n);
        if (!n)
            return store_fail(st, "out of memory");
        st->names = n;
        st->name_cap = cap;
    }
    if (!(st->names[st->name_count].name = strdup(name)))
        return store_fail(st, "out of memory");
    st->names[st->name_count++].id = id;
    return 0;
}

/* The id of a timer name, adding it inside the open batch when new. */
static int64_t name_id(struct store *st, const char *name)
{
    for (size_t i = 0; i < st->name_count; i++)
        if (strcmp(st->names[i].name, name) == 0)
            return st->names[i].id;
    sqlite3_stmt *s = stmt(st, STMT_NAME_FIND);
    if (!s)
        return -1;
    bind_text(s, 1, name);
    int64_t id = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (id == 0) {
        if (!(s = stmt(st, STMT_NAME_ADD)))
            return -1;
        bind_text(s, 1, name);
        if (run(st, s, "cannot store a timer name") != 0)
            return -1;
        id = sqlite3_last_insert_rowid(st->db);
    }
    return name_cache(st, name, id) == 0 ? id : -1;
}

/* --- runs and agents (committed at once) ------------------------------------------------- */

int64_t store_run_begin(struct store *st, const struct store_run_info *info)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_RUN_BEGIN)))
        return -1;
    const char *texts[] = { info->name, info->transport, info->platform, info->network, info->target,
                            info->workload_name, info->workload_hash, info->plan_text, info->score_params };
    for (int i = 0; i < 9; i++)
        bind_text(s, i + 1, texts[i]);
    sqlite3_bind_int64(s, 10, info->sessions_planned);
    sqlite3_bind_int64(s, 11, (int64_t)info->started_us);
    bind_text(s, 12, info->network_profile ? info->network_profile : "");
    bind_text(s, 13, info->client ? info->client : "builtin");
    sqlite3_bind_int64(s, 14, info->matrix_id);
    bind_text(s, 15, info->cell ? info->cell : "");
    if (run(st, s, "cannot insert the run") != 0)
        return -1;
    int64_t id = sqlite3_last_insert_rowid(st->db);
    return store_flush(st) == 0 ? id : -1;
}

int64_t store_matrix_begin(struct store *st, const char *name, const char *spec, uint64_t started_us)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_MATRIX_BEGIN)))
        return -1;
    bind_text(s, 1, name);
    bind_text(s, 2, spec);
    sqlite3_bind_int64(s, 3, (int64_t)started_us);
    if (run(st, s, "cannot insert the matrix") != 0)
        return -1;
    int64_t id = sqlite3_last_insert_rowid(st->db);
    return store_flush(st) == 0 ? id : -1;
}

static int is_run_status(const char *s)
{
    return s && (!strcmp(s, "completed") || !strcmp(s, "aborted") || !strcmp(s, "failed") || !strcmp(s, "running"));
}

/* Runs an UPDATE of one row by id in the batch, commits, and insists the row existed. */
static int update_one(struct store *st, sqlite3_stmt *s, const char *what, int64_t id)
{
    if (run(st, s, what) != 0)
        return -1;
    if (sqlite3_changes(st->db) != 1) {
        store_flush(st);
        return store_fail(st, "%s: no row with id %lld", what, (long long)id);
    }
    return store_flush(st);
}

int store_run_end(struct store *st, int64_t run_id, const char *status, uint64_t ended_us, const char *message)
{
    sqlite3_stmt *s;
    if (!is_run_status(status))
        return store_fail(st, "run %lld: unknown status '%s'", (long long)run_id, status ? status : "");
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_RUN_END)))
        return -1;
    sqlite3_bind_int64(s, 1, run_id);
    bind_text(s, 2, status);
    sqlite3_bind_int64(s, 3, (int64_t)ended_us);
    bind_text(s, 4, message);
    return update_one(st, s, "cannot end the run", run_id);
}

int store_mark_stale_runs(struct store *st)
{
    if (batch_open(st) != 0 || store_chunk_flush(st) != 0 ||
        run(st, stmt(st, STMT_RUN_STALE), "cannot mark stale runs") != 0)
        return -1;
    int n = sqlite3_changes(st->db);
    return store_flush(st) == 0 ? n : -1;
}

int store_run_set_score(struct store *st, int64_t run_id, const struct store_score *sc)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_RUN_SCORE)))
        return -1;
    sqlite3_bind_int64(s, 1, run_id);
    bind_text(s, 2, sc->score_version);
    sqlite3_bind_double(s, 3, sc->baseline_ms);
    sqlite3_bind_double(s, 4, sc->threshold_ms);
    sqlite3_bind_int(s, 5, sc->smax);
    sqlite3_bind_int(s, 6, sc->smax_reached);
    sqlite3_bind_int64(s, 7, sc->launched);
    sqlite3_bind_int64(s, 8, sc->active);
    sqlite3_bind_int64(s, 9, sc->stuck);
    bind_text(s, 10, sc->verdict);
    bind_text(s, 11, sc->verdict_reasons);
    return update_one(st, s, "cannot store the score", run_id);
}

int64_t store_add_agent(struct store *st, int64_t run_id, const char *name, const char *host, uint32_t capacity)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_AGENT_ADD)))
        return -1;
    sqlite3_bind_int64(s, 1, run_id);
    bind_text(s, 2, name);
    bind_text(s, 3, host);
    sqlite3_bind_int64(s, 4, capacity);
    if (run(st, s, "cannot insert the agent") != 0)
        return -1;
    int64_t id = sqlite3_last_insert_rowid(st->db);
    return store_flush(st) == 0 ? id : -1;
}

int store_agent_status(struct store *st, int64_t agent, const char *status, const char *detail)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_AGENT_STATUS)))
        return -1;
    sqlite3_bind_int64(s, 1, agent);
    bind_text(s, 2, status);
    bind_text(s, 3, detail);
    return update_one(st, s, "cannot update the agent", agent);
}

int store_agent_clock(struct store *st, int64_t agent, int64_t offset_us, uint32_t rtt_us)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_AGENT_CLOCK)))
        return -1;
    sqlite3_bind_int64(s, 1, agent);
    sqlite3_bind_int64(s, 2, offset_us);
    sqlite3_bind_int64(s, 3, rtt_us);
    return update_one(st, s, "cannot update the agent", agent);
}

/* --- sessions (batched) ------------------------------------------------------------------ */

int store_session_launch(struct store *st, int64_t run_id, uint32_t index, int64_t agent, const char *user, uint64_t t_us)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_SESSION_LAUNCH)))
        return -1;
    sqlite3_bind_int64(s, 1, run_id);
    sqlite3_bind_int64(s, 2, index);
    sqlite3_bind_int64(s, 3, agent);
    bind_text(s, 4, user);
    sqlite3_bind_int64(s, 5, (int64_t)t_us);
    return run(st, s, "cannot insert the session") == 0 ? batch_row(st) : -1;
}

/* Makes sure the session row exists (an event may arrive for a session the controller did not
 * launch itself, e.g. after a reconnect) without overwriting what is known. */
static int session_touch(struct store *st, int64_t run_id, const struct rec_session *ev)
{
    sqlite3_stmt *s = stmt(st, STMT_SESSION_TOUCH);
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, run_id);
    sqlite3_bind_int64(s, 2, ev->session);
    bind_text(s, 3, ev->user);
    sqlite3_bind_int64(s, 4, ev->kind == SESSION_LAUNCHED ? (int64_t)ev->t_us : 0);
    return run(st, s, "cannot insert the session");
}

int store_session_event(struct store *st, int64_t run_id, const struct rec_session *ev)
{
    if (batch_open(st) != 0 || session_touch(st, run_id, ev) != 0)
        return -1;
    sqlite3_stmt *s = NULL;
    switch (ev->kind) {
    case SESSION_ACTIVE:
        if (!(s = stmt(st, STMT_SESSION_ACTIVE)))
            return -1;
        sqlite3_bind_int64(s, 3, (int64_t)ev->t_us);
        sqlite3_bind_int64(s, 4, ev->value_us);
        bind_text(s, 5, ev->detail);   /* "repaint requests: N, logon retries: M" when any */
        break;
    case SESSION_FAILED:
        if (!(s = stmt(st, STMT_SESSION_FAILED)))
            return -1;
        bind_text(s, 3, failure_reason_name(ev->reason));
        bind_text(s, 4, ev->detail);
        sqlite3_bind_int64(s, 5, (int64_t)ev->t_us);
        break;
    case SESSION_ENDED:
        if (!(s = stmt(st, STMT_SESSION_ENDED)))
            return -1;
        sqlite3_bind_int64(s, 3, (int64_t)ev->t_us);
        break;
    case SESSION_LAUNCHED:
    case SESSION_LOGOFF:
        return batch_row(st);   /* launch time set by session_touch; logoff changes no state */
    }
    if (!s)
        return store_fail(st, "session %u: unknown event kind %d", ev->session, (int)ev->kind);
    sqlite3_bind_int64(s, 1, run_id);
    sqlite3_bind_int64(s, 2, ev->session);
    return run(st, s, "cannot update the session") == 0 ? batch_row(st) : -1;
}

int store_sessions_lost(struct store *st, int64_t run_id, int64_t agent, enum failure_reason reason,
                        const char *detail, uint64_t t_us)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_SESSION_LOST)))
        return -1;
    sqlite3_bind_int64(s, 1, run_id);
    sqlite3_bind_int64(s, 2, agent);
    bind_text(s, 3, failure_reason_name(reason));
    bind_text(s, 4, detail);
    sqlite3_bind_int64(s, 5, (int64_t)t_us);
    return run(st, s, "cannot fail the agent's sessions") == 0 ? batch_row(st) : -1;
}

/* --- append-only records (batched) ------------------------------------------------------- */

int store_add_sample(struct store *st, int64_t run_id, const struct rec_sample *r, uint32_t active)
{
    int64_t name;
    if (batch_open(st) != 0 || (name = name_id(st, r->name)) < 0)
        return -1;
    if (!st->chunk && !(st->chunk = calloc(1, sizeof *st->chunk)))
        return store_fail(st, "out of memory");
    struct store_chunk_rec rec = { { [CHUNK_SESSION] = r->session, [CHUNK_LOOP] = r->loop,
                                     [CHUNK_T] = (int64_t)r->t_us, [CHUNK_NAME] = name,
                                     [CHUNK_VALUE] = r->value_us,
                                     /* 0 failed, 1 ok, 2 suspect */
                                     [CHUNK_OK] = r->ok <= SAMPLE_SUSPECT ? r->ok : SAMPLE_FAILED,
                                     [CHUNK_MEASURE] = r->is_measure ? 1 : 0, [CHUNK_ACTIVE] = active } };
    if (!store_chunk_fits(st->chunk, run_id, rec.f[CHUNK_T]) && store_chunk_flush(st) != 0)
        return -1;
    store_chunk_add(st->chunk, run_id, &rec);
    return batch_row(st);
}

int store_add_traffic(struct store *st, int64_t run_id, const struct rec_traffic *t)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_TRAFFIC)))
        return -1;
    sqlite3_bind_int64(s, 1, run_id);
    sqlite3_bind_int64(s, 2, t->session);
    sqlite3_bind_int64(s, 3, (int64_t)t->t_us);
    sqlite3_bind_int64(s, 4, (int64_t)t->bytes_in);
    sqlite3_bind_int64(s, 5, (int64_t)t->bytes_out);
    sqlite3_bind_int64(s, 6, (int64_t)t->wire_in);
    sqlite3_bind_int64(s, 7, (int64_t)t->wire_out);
    sqlite3_bind_int64(s, 8, t->rtt_us);
    sqlite3_bind_int64(s, 9, t->frames);
    sqlite3_bind_int64(s, 10, t->data_segs_out);
    sqlite3_bind_int64(s, 11, t->retrans);
    sqlite3_bind_int64(s, 12, t->data_segs_in);
    sqlite3_bind_int64(s, 13, t->min_rtt_us);
    return run(st, s, "cannot insert a traffic record") == 0 ? batch_row(st) : -1;
}

int store_session_logon(struct store *st, int64_t run_id, const struct rec_logon *l)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_SESSION_LOGON)))
        return -1;
    sqlite3_bind_int64(s, 1, run_id);
    sqlite3_bind_int64(s, 2, l->session);
    for (int i = 0; i < LOGON__PHASES; i++)
        sqlite3_bind_int64(s, 3 + i, l->phase_us[i]);
    return run(st, s, "cannot store a logon's phases") == 0 ? batch_row(st) : -1;
}

int store_add_health(struct store *st, int64_t run_id, int64_t agent, const struct rec_health *h)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_HEALTH)))
        return -1;
    sqlite3_bind_int64(s, 1, run_id);
    sqlite3_bind_int64(s, 2, agent);
    sqlite3_bind_int64(s, 3, (int64_t)h->t_us);
    sqlite3_bind_int64(s, 4, h->sessions_active);
    sqlite3_bind_int64(s, 5, h->sessions_connecting);
    sqlite3_bind_int64(s, 6, h->lag_p50_us);
    sqlite3_bind_int64(s, 7, h->lag_p99_us);
    sqlite3_bind_int64(s, 8, h->lag_max_us);
    sqlite3_bind_int64(s, 9, h->cpu_permille);
    sqlite3_bind_int64(s, 10, (int64_t)h->rss_kb);
    sqlite3_bind_int64(s, 11, h->ext.sessions);
    sqlite3_bind_int64(s, 12, h->ext.cpu_permille);
    sqlite3_bind_int64(s, 13, (int64_t)h->ext.client_rss_kb);
    sqlite3_bind_int64(s, 14, (int64_t)h->ext.client_pss_kb);
    sqlite3_bind_int64(s, 15, (int64_t)h->ext.xserver_rss_kb);
    sqlite3_bind_int64(s, 16, (int64_t)h->ext.xserver_pss_kb);
    return run(st, s, "cannot insert a health record") == 0 ? batch_row(st) : -1;
}

int store_add_target_load(struct store *st, int64_t run_id, const struct store_target_load *l)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_TARGET_LOAD)))
        return -1;
    sqlite3_bind_int64(s, 1, run_id);
    sqlite3_bind_int64(s, 2, (int64_t)l->t_us);
    sqlite3_bind_int64(s, 3, l->cpus);
    sqlite3_bind_int64(s, 4, l->target_permille);
    sqlite3_bind_int64(s, 5, l->others_permille);
    return run(st, s, "cannot insert a target load record") == 0 ? batch_row(st) : -1;
}

int store_add_event(struct store *st, int64_t run_id, uint64_t t_us, const char *level, const char *text)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_EVENT)))
        return -1;
    sqlite3_bind_int64(s, 1, run_id);
    sqlite3_bind_int64(s, 2, (int64_t)t_us);
    bind_text(s, 3, level);
    bind_text(s, 4, text);
    return run(st, s, "cannot insert an event") == 0 ? batch_row(st) : -1;
}

int store_add_copy_timer(struct store *st, int64_t run_id, const char *name, int to_client, uint64_t bytes)
{
    sqlite3_stmt *s;
    if (batch_open(st) != 0 || !(s = stmt(st, STMT_COPY_TIMER)))
        return -1;
    sqlite3_bind_int64(s, 1, run_id);
    bind_text(s, 2, name);
    sqlite3_bind_int(s, 3, to_client ? 1 : 0);
    sqlite3_bind_int64(s, 4, (int64_t)bytes);
    return run(st, s, "cannot insert a copy timer") == 0 ? batch_row(st) : -1;
}

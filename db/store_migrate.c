/* store_migrate.c -- schema versions: creates the current schema (schema.sql) on an empty file
 * and walks an older file up one version at a time, each step in the same transaction as its
 * user_version bump, so a crash mid-migration leaves the file at the old version, intact.
 *
 * Adding version N+1: append its step to `migrations` (never edit an earlier step), update
 * schema.sql to the resulting schema and bump STORE_SCHEMA_VERSION in store_types.h. */
#include "db/store_migrate.h"
#include "db/store_chunk.h"
#include "db/store_conn.h"
#include "schema_sql.h"

#include <stdio.h>
#include <stdlib.h>

struct migration {
    int from;                /* applies to a file at this version, leaves it at from + 1 */
    const char *sql;
    /* a step SQL alone cannot do, run after sql (NULL: none) */
    int (*step)(sqlite3 *db, const char *path, char *err, size_t errlen);
};

/* 1 -> 2: the loop index of each sample, and the agents' health records. */
static const char MIGRATE_1_TO_2[] =
    "ALTER TABLE samples ADD COLUMN loop INTEGER NOT NULL DEFAULT 0;"
    "CREATE TABLE health ("
    " run_id INTEGER NOT NULL, agent_id INTEGER NOT NULL, t_us INTEGER NOT NULL,"
    " sessions_active INTEGER NOT NULL, sessions_connecting INTEGER NOT NULL,"
    " lag_p50_us INTEGER NOT NULL, lag_p99_us INTEGER NOT NULL, lag_max_us INTEGER NOT NULL,"
    " cpu_permille INTEGER NOT NULL, rss_kb INTEGER NOT NULL);"
    "CREATE INDEX health_run_t ON health (run_id, t_us);";

/* 2 -> 3: the network profile of each run (JSON) and TCP segment counters per traffic record. */
static const char MIGRATE_2_TO_3[] =
    "ALTER TABLE runs ADD COLUMN network_profile TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE traffic ADD COLUMN data_segs_out INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE traffic ADD COLUMN retrans INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE traffic ADD COLUMN data_segs_in INTEGER NOT NULL DEFAULT 0;";

/* 3 -> 4: the copy timers of each run (bytes and direction, for throughput). */
static const char MIGRATE_3_TO_4[] =
    "CREATE TABLE copy_timers (run_id INTEGER NOT NULL, name TEXT NOT NULL, to_client INTEGER NOT NULL,"
    " bytes INTEGER NOT NULL, PRIMARY KEY (run_id, name)) WITHOUT ROWID;";

/* 4 -> 5: the client program of each run, `sessmax matrix` cells and the matrices table. */
static const char MIGRATE_4_TO_5[] =
    "ALTER TABLE runs ADD COLUMN client TEXT NOT NULL DEFAULT 'builtin';"
    "ALTER TABLE runs ADD COLUMN matrix_id INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE runs ADD COLUMN cell TEXT NOT NULL DEFAULT '';"
    "CREATE INDEX runs_matrix ON runs (matrix_id, cell);"
    "CREATE TABLE matrices (id INTEGER PRIMARY KEY, name TEXT NOT NULL, spec TEXT NOT NULL,"
    " started_us INTEGER NOT NULL);";

/* 5 -> 6: each agent's clock offset and round trip, measured in the handshake. */
static const char MIGRATE_5_TO_6[] =
    "ALTER TABLE agents ADD COLUMN clock_offset_us INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE agents ADD COLUMN rtt_us INTEGER NOT NULL DEFAULT 0;";

/* 6 -> 7: CPU use of a local target and of the other processes on its CPUs. */
static const char MIGRATE_6_TO_7[] =
    "CREATE TABLE target_load (run_id INTEGER NOT NULL, t_us INTEGER NOT NULL, cpus INTEGER NOT NULL,"
    " target_permille INTEGER NOT NULL, others_permille INTEGER NOT NULL);"
    "CREATE INDEX target_load_run_t ON target_load (run_id, t_us);";

/* 7 -> 8: samples move into chunks (store_chunk.h); `samples` becomes a view over them. The old
 * table is renamed, its rows are packed by samples_to_chunks() in the order readers load them,
 * and then dropped. */
static const char MIGRATE_7_TO_8[] =
    "DROP INDEX samples_run_t;"
    "ALTER TABLE samples RENAME TO samples_v7;"
    "CREATE TABLE sample_chunks (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, n INTEGER NOT NULL,"
    " t_min INTEGER NOT NULL, t_max INTEGER NOT NULL, w_session INTEGER NOT NULL, w_loop INTEGER NOT NULL,"
    " w_t INTEGER NOT NULL, w_name INTEGER NOT NULL, w_value INTEGER NOT NULL, w_ok INTEGER NOT NULL,"
    " w_measure INTEGER NOT NULL, w_active INTEGER NOT NULL, data BLOB NOT NULL);"
    "CREATE INDEX sample_chunks_run ON sample_chunks (run_id);"
    "CREATE TABLE sample_slots (i INTEGER PRIMARY KEY);"
    "WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 1023)"
    " INSERT INTO sample_slots (i) SELECT i FROM k;"
    "CREATE VIEW samples AS SELECT run_id,"
    " CAST(substr(data, o, w_session) AS INTEGER) AS session,"
    " CAST(substr(data, o + w_session, w_loop) AS INTEGER) AS loop,"
    " t_min + CAST(substr(data, o + w_session + w_loop, w_t) AS INTEGER) AS t_us,"
    " CAST(substr(data, o + w_session + w_loop + w_t, w_name) AS INTEGER) AS name_id,"
    " CAST(substr(data, o + w_session + w_loop + w_t + w_name, w_value) AS INTEGER) AS value_us,"
    " CAST(substr(data, o + w_session + w_loop + w_t + w_name + w_value, w_ok) AS INTEGER) AS ok,"
    " CAST(substr(data, o + w_session + w_loop + w_t + w_name + w_value + w_ok, w_measure) AS INTEGER)"
    " AS is_measure,"
    " CAST(substr(data, o + w_session + w_loop + w_t + w_name + w_value + w_ok + w_measure, w_active)"
    " AS INTEGER) AS active"
    " FROM (SELECT c.*, 1 + k.i * (w_session + w_loop + w_t + w_name + w_value + w_ok + w_measure + w_active) AS o"
    " FROM sample_chunks c JOIN sample_slots k ON k.i < c.n);"
    "CREATE TRIGGER samples_insert INSTEAD OF INSERT ON samples BEGIN"
    " INSERT INTO sample_chunks (run_id, n, t_min, t_max, w_session, w_loop, w_t, w_name, w_value, w_ok,"
    " w_measure, w_active, data)"
    " VALUES (NEW.run_id, 1, NEW.t_us, NEW.t_us, length(NEW.session), length(coalesce(NEW.loop, 0)), 1,"
    " length(NEW.name_id), length(NEW.value_us), length(NEW.ok), length(coalesce(NEW.is_measure, 0)),"
    " length(coalesce(NEW.active, 0)),"
    " CAST(NEW.session || coalesce(NEW.loop, 0) || '0' || NEW.name_id || NEW.value_us || NEW.ok"
    " || coalesce(NEW.is_measure, 0) || coalesce(NEW.active, 0) AS BLOB));"
    " END;";

/* Packs samples_v7 into chunks, each run's rows in (t_us, rowid) order, then drops it. */
static int samples_to_chunks(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    sqlite3_stmt *q = NULL, *ins = NULL;
    struct store_chunk *c = calloc(1, sizeof *c);
    int rc = c ? SQLITE_OK : SQLITE_NOMEM;
    if (rc == SQLITE_OK &&
        (rc = sqlite3_prepare_v2(db, "SELECT run_id, session, loop, t_us, name_id, value_us, ok, is_measure, active"
                                     " FROM samples_v7 ORDER BY run_id, t_us, rowid", -1, &q, NULL)) == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, STORE_CHUNK_INSERT_SQL, -1, &ins, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct store_chunk_rec r;
        int64_t run = sqlite3_column_int64(q, 0);
        for (int f = 0; f < CHUNK__FIELDS; f++)
            r.f[f] = sqlite3_column_int64(q, 1 + f);
        rc = store_chunk_fits(c, run, r.f[CHUNK_T]) ? SQLITE_OK : store_chunk_write(ins, c);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
        if (rc == SQLITE_OK)
            store_chunk_add(c, run, &r);
    }
    if (rc == SQLITE_DONE && c->n)
        rc = store_chunk_write(ins, c);
    if (rc == SQLITE_DONE)
        rc = sqlite3_exec(db, "DROP TABLE samples_v7", NULL, NULL, NULL);
    if (rc != SQLITE_OK && rc != SQLITE_DONE)
        snprintf(err, errlen, "%s: migration from schema version 7 failed: cannot pack samples: %s", path,
                 sqlite3_errmsg(db));
    sqlite3_finalize(q);
    sqlite3_finalize(ins);
    free(c);
    return rc == SQLITE_OK || rc == SQLITE_DONE ? 0 : -1;
}

/* 8 -> 9: the external clients' costs in each health record (0 in older rows). */
static const char MIGRATE_8_TO_9[] =
    "ALTER TABLE health ADD COLUMN ext_sessions INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE health ADD COLUMN ext_cpu_permille INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE health ADD COLUMN ext_client_rss_kb INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE health ADD COLUMN ext_client_pss_kb INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE health ADD COLUMN ext_xserver_rss_kb INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE health ADD COLUMN ext_xserver_pss_kb INTEGER NOT NULL DEFAULT 0;";

/* 9 -> 10: the traffic index covers the columns readers load (no table seek per row). */
static const char MIGRATE_9_TO_10[] =
    "DROP INDEX traffic_run_t;"
    "CREATE INDEX traffic_run_t ON traffic (run_id, t_us, session, bytes_in, bytes_out, wire_in, wire_out, rtt_us,"
    " frames, data_segs_out, retrans, data_segs_in);";

/* 10 -> 11: the logon's phases per session, the minimum RTT per traffic record (in the index too). */
static const char MIGRATE_10_TO_11[] =
    "ALTER TABLE sessions ADD COLUMN logon_wait_us INTEGER NOT NULL DEFAULT -1;"
    "ALTER TABLE sessions ADD COLUMN logon_tcp_us INTEGER NOT NULL DEFAULT -1;"
    "ALTER TABLE sessions ADD COLUMN logon_security_us INTEGER NOT NULL DEFAULT -1;"
    "ALTER TABLE sessions ADD COLUMN logon_rdp_us INTEGER NOT NULL DEFAULT -1;"
    "ALTER TABLE sessions ADD COLUMN logon_paint_us INTEGER NOT NULL DEFAULT -1;"
    "ALTER TABLE sessions ADD COLUMN logon_desktop_us INTEGER NOT NULL DEFAULT -1;"
    "ALTER TABLE traffic ADD COLUMN min_rtt_us INTEGER NOT NULL DEFAULT 0;"
    "DROP INDEX traffic_run_t;"
    "CREATE INDEX traffic_run_t ON traffic (run_id, t_us, session, bytes_in, bytes_out, wire_in, wire_out, rtt_us,"
    " frames, data_segs_out, retrans, data_segs_in, min_rtt_us);";

/* 11 -> 12: the target's resources from its exporters (target.metrics): a new table. */
static const char MIGRATE_11_TO_12[] =
    "CREATE TABLE target_metrics (run_id INTEGER NOT NULL, t_us INTEGER NOT NULL, source TEXT NOT NULL,"
    " active INTEGER NOT NULL, cpu_pct REAL, mem_used_bytes REAL, mem_avail_bytes REAL, disk_read_bps REAL,"
    " disk_write_bps REAL, disk_busy_pct REAL, net_rx_bps REAL, net_tx_bps REAL, net_pct REAL, sessions REAL);"
    "CREATE INDEX target_metrics_run_t ON target_metrics (run_id, t_us);";

static const struct migration migrations[] = {
    { 1, MIGRATE_1_TO_2, NULL },
    { 2, MIGRATE_2_TO_3, NULL },
    { 3, MIGRATE_3_TO_4, NULL },
    { 4, MIGRATE_4_TO_5, NULL },
    { 5, MIGRATE_5_TO_6, NULL },
    { 6, MIGRATE_6_TO_7, NULL },
    { 7, MIGRATE_7_TO_8, samples_to_chunks },
    { 8, MIGRATE_8_TO_9, NULL },
    { 9, MIGRATE_9_TO_10, NULL },
    { 10, MIGRATE_10_TO_11, NULL },
    { 11, MIGRATE_11_TO_12, NULL },
};

static int exec(sqlite3 *db, const char *path, const char *sql, const char *what, char *err, size_t errlen)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
        return 0;
    snprintf(err, errlen, "%s: %s: %s", path, what, msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return -1;
}

static int set_version(sqlite3 *db, const char *path, int version, char *err, size_t errlen)
{
    char sql[96];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d; PRAGMA application_id = %d",
             version, STORE_APPLICATION_ID);
    return exec(db, path, sql, "cannot set the schema version", err, errlen);
}

static int apply(sqlite3 *db, const char *path, int kind, int version, char *err, size_t errlen)
{
    if (kind == 0) {
        if (exec(db, path, SESSMAX_SCHEMA_SQL, "cannot create the schema", err, errlen) != 0)
            return -1;
        return set_version(db, path, STORE_SCHEMA_VERSION, err, errlen);
    }
    for (size_t i = 0; i < sizeof migrations / sizeof migrations[0]; i++) {
        if (migrations[i].from != version)
            continue;
        char what[64];
        snprintf(what, sizeof what, "migration from schema version %d failed", version);
        if (exec(db, path, migrations[i].sql, what, err, errlen) != 0 ||
            (migrations[i].step && migrations[i].step(db, path, err, errlen) != 0))
            return -1;
        version++;
    }
    if (version != STORE_SCHEMA_VERSION) {
        snprintf(err, errlen, "%s: no migration from schema version %d", path, version);
        return -1;
    }
    return set_version(db, path, version, err, errlen);
}

int store_migrate(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    int kind = 0, version = 0;
    /* IMMEDIATE: two writers opening the same new file must not both create the schema. */
    if (exec(db, path, "BEGIN IMMEDIATE", "cannot lock for migration", err, errlen) != 0)
        return -1;
    if (store_identify(db, path, &kind, &version, err, errlen) != 0)
        goto fail;
    if (kind == 1 && version == STORE_SCHEMA_VERSION) {
        exec(db, path, "COMMIT", "commit", err, errlen);
        return 0;
    }
    if (apply(db, path, kind, version, err, errlen) != 0)
        goto fail;
    return exec(db, path, "COMMIT", "cannot commit the migration", err, errlen);
fail:
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

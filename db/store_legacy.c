/* store_legacy.c -- the schema as version 1 shipped it, frozen, so tests can build a version-1
 * file with data in it and prove the migrations carry it to the current version intact.
 * Never edit SCHEMA_V1: it is history. */
#include "db/store_legacy.h"

#include "db/store_conn.h"

#include <stdint.h>
#include <stdio.h>

static const char SCHEMA_V1[] =
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;"
    "INSERT INTO meta (key, value) VALUES ('application', 'sessmax');"
    "CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
    " transport TEXT NOT NULL DEFAULT '', platform TEXT NOT NULL DEFAULT '',"
    " network TEXT NOT NULL DEFAULT '', target TEXT NOT NULL DEFAULT '',"
    " workload_name TEXT NOT NULL DEFAULT '', workload_hash TEXT NOT NULL DEFAULT '',"
    " plan_text TEXT NOT NULL DEFAULT '', score_params TEXT NOT NULL DEFAULT '',"
    " sessions_planned INTEGER NOT NULL DEFAULT 0, started_us INTEGER NOT NULL,"
    " ended_us INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'running'"
    " CHECK (status IN ('running', 'completed', 'aborted', 'failed')),"
    " message TEXT NOT NULL DEFAULT '', score_version TEXT, baseline_ms REAL, threshold_ms REAL,"
    " smax INTEGER, smax_reached INTEGER, launched INTEGER, active INTEGER, stuck INTEGER,"
    " verdict TEXT, verdict_reasons TEXT);"
    "CREATE INDEX runs_status ON runs (status);"
    "CREATE TABLE agents (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs (id),"
    " name TEXT NOT NULL, host TEXT NOT NULL DEFAULT '', capacity INTEGER NOT NULL DEFAULT 0,"
    " status TEXT NOT NULL DEFAULT 'connecting', detail TEXT NOT NULL DEFAULT '');"
    "CREATE INDEX agents_run ON agents (run_id);"
    "CREATE TABLE sessions (run_id INTEGER NOT NULL REFERENCES runs (id), idx INTEGER NOT NULL,"
    " agent_id INTEGER NOT NULL DEFAULT 0, user TEXT NOT NULL DEFAULT '',"
    " state TEXT NOT NULL DEFAULT 'launched' CHECK (state IN ('launched', 'active', 'failed', 'ended')),"
    " reason TEXT NOT NULL DEFAULT 'none', detail TEXT NOT NULL DEFAULT '',"
    " launch_us INTEGER NOT NULL DEFAULT 0, active_us INTEGER NOT NULL DEFAULT 0,"
    " end_us INTEGER NOT NULL DEFAULT 0, logon_us INTEGER NOT NULL DEFAULT -1,"
    " PRIMARY KEY (run_id, idx)) WITHOUT ROWID;"
    "CREATE INDEX sessions_agent ON sessions (run_id, agent_id);"
    "CREATE TABLE timer_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);"
    "CREATE TABLE samples (run_id INTEGER NOT NULL, session INTEGER NOT NULL,"
    " t_us INTEGER NOT NULL, name_id INTEGER NOT NULL, value_us INTEGER NOT NULL,"
    " ok INTEGER NOT NULL, is_measure INTEGER NOT NULL DEFAULT 0, active INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX samples_run_t ON samples (run_id, t_us);"
    "CREATE TABLE traffic (run_id INTEGER NOT NULL, session INTEGER NOT NULL, t_us INTEGER NOT NULL,"
    " bytes_in INTEGER NOT NULL, bytes_out INTEGER NOT NULL, wire_in INTEGER NOT NULL,"
    " wire_out INTEGER NOT NULL, rtt_us INTEGER NOT NULL, frames INTEGER NOT NULL);"
    "CREATE INDEX traffic_run_t ON traffic (run_id, t_us);"
    "CREATE TABLE events (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, t_us INTEGER NOT NULL,"
    " level TEXT NOT NULL, text TEXT NOT NULL);"
    "CREATE INDEX events_run_t ON events (run_id, t_us);"
    "PRAGMA user_version = 1;"
    "PRAGMA application_id = 1397968216;";

/* One finished run "legacy" (started at 1,000,000 µs) with agent "a1", session 0 of user
 * "user0" active after 1.5 s, and samples i = 0.. at t = 2,000,000 + i*1000 alternating the
 * timers "open" and "type", value 1000 + i µs, all ok, active = 1. */
static const char FIXTURE_V1[] =
    "INSERT INTO runs (id, name, transport, started_us, ended_us, status, sessions_planned)"
    " VALUES (1, 'legacy', 'tcp', 1000000, 9000000, 'completed', 1);"
    "INSERT INTO agents (id, run_id, name, host, capacity, status) VALUES (1, 1, 'a1', '127.0.0.1', 10, 'done');"
    "INSERT INTO sessions (run_id, idx, agent_id, user, state, launch_us, active_us, end_us, logon_us)"
    " VALUES (1, 0, 1, 'user0', 'ended', 1000000, 2500000, 8000000, 1500000);"
    "INSERT INTO timer_names (id, name) VALUES (1, 'open'), (2, 'type');"
    "INSERT INTO events (run_id, t_us, level, text) VALUES (1, 1000000, 'info', 'legacy run');";

static int exec(sqlite3 *db, const char *path, const char *sql, char *err, size_t errlen)
{
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK)
        return 0;
    snprintf(err, errlen, "%s: building a version-1 file: %s", path, sqlite3_errmsg(db));
    return -1;
}

int store_legacy_create_v1(const char *path, unsigned samples, char *err, size_t errlen)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    int rc = -1;
    if (store_connect(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &db, err, errlen) != 0)
        goto done;
    if (exec(db, path, "BEGIN", err, errlen) || exec(db, path, SCHEMA_V1, err, errlen) ||
        exec(db, path, FIXTURE_V1, err, errlen))
        goto done;
    if (sqlite3_prepare_v2(db, "INSERT INTO samples (run_id, session, t_us, name_id, value_us, ok, active)"
                               " VALUES (1, 0, ?1, ?2, ?3, 1, 1)", -1, &s, NULL) != SQLITE_OK)
        goto sqlfail;
    for (unsigned i = 0; i < samples; i++) {
        sqlite3_bind_int64(s, 1, 2000000 + (int64_t)i * 1000);
        sqlite3_bind_int(s, 2, 1 + (int)(i % 2));
        sqlite3_bind_int64(s, 3, 1000 + (int64_t)i);
        if (sqlite3_step(s) != SQLITE_DONE)
            goto sqlfail;
        sqlite3_reset(s);
    }
    rc = exec(db, path, "COMMIT", err, errlen);
    goto done;
sqlfail:
    snprintf(err, errlen, "%s: building a version-1 file: %s", path, sqlite3_errmsg(db));
done:
    sqlite3_finalize(s);
    sqlite3_close(db);
    return rc;
}

const char STORE_LEGACY_SAMPLES_V7[] =
    "DROP TRIGGER samples_insert; DROP VIEW samples; DROP TABLE sample_chunks; DROP TABLE sample_slots;"
    "CREATE TABLE samples (run_id INTEGER NOT NULL, session INTEGER NOT NULL, loop INTEGER NOT NULL DEFAULT 0,"
    " t_us INTEGER NOT NULL, name_id INTEGER NOT NULL, value_us INTEGER NOT NULL, ok INTEGER NOT NULL,"
    " is_measure INTEGER NOT NULL DEFAULT 0, active INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX samples_run_t ON samples (run_id, t_us);";

const char STORE_LEGACY_V10[] =
    "DROP TABLE IF EXISTS target_metrics;"   /* 12 */
    "DROP INDEX traffic_run_t;"
    "ALTER TABLE traffic DROP COLUMN min_rtt_us;"
    "CREATE INDEX traffic_run_t ON traffic (run_id, t_us, session, bytes_in, bytes_out, wire_in, wire_out, rtt_us,"
    " frames, data_segs_out, retrans, data_segs_in);"
    "ALTER TABLE sessions DROP COLUMN logon_wait_us;"
    "ALTER TABLE sessions DROP COLUMN logon_tcp_us;"
    "ALTER TABLE sessions DROP COLUMN logon_security_us;"
    "ALTER TABLE sessions DROP COLUMN logon_rdp_us;"
    "ALTER TABLE sessions DROP COLUMN logon_paint_us;"
    "ALTER TABLE sessions DROP COLUMN logon_desktop_us;";

const char STORE_LEGACY_HEALTH_V8[] =
    "DROP TABLE health;"
    "CREATE TABLE health (run_id INTEGER NOT NULL, agent_id INTEGER NOT NULL, t_us INTEGER NOT NULL,"
    " sessions_active INTEGER NOT NULL, sessions_connecting INTEGER NOT NULL, lag_p50_us INTEGER NOT NULL,"
    " lag_p99_us INTEGER NOT NULL, lag_max_us INTEGER NOT NULL, cpu_permille INTEGER NOT NULL,"
    " rss_kb INTEGER NOT NULL);"
    "CREATE INDEX health_run_t ON health (run_id, t_us);";

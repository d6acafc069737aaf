/* test_store_schema.c -- the results store and files it did not just create: migration from
 * version 1 (by a writer and by a reader), 5 -> 6 (agent clock), 6 -> 7 (target load), 8 -> 9
 * (external clients' costs) and 9 -> 10 (the traffic index); refusing
 * a foreign file, a text file, a missing file and a newer schema; detecting a corrupt file. */
#include "unit.h"

#include "db/store.h"
#include "db/store_legacy.h"
#include "fixture_db.h"

#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char errbuf[512];

static void test_store__migrate_v1(void)
{
    const char *path = db_path("v1.db");
    char report[2048];
    CU_ASSERT_EQUAL_FATAL(store_legacy_create_v1(path, 100, errbuf, sizeof errbuf), 0);
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "schema version 1 (older"));
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "samples: 100"));

    struct store *st = open_ok(path, STORE_WRITE);
    /* the data of version 1 is all there, with the new column defaulted */
    struct store_run r;
    CU_ASSERT_EQUAL(store_get_run(st, 1, &r), 0);
    CU_ASSERT_STRING_EQUAL(r.name, "legacy");
    CU_ASSERT_STRING_EQUAL(r.status, "completed");
    CU_ASSERT_TRUE(isnan(r.baseline_ms));
    CU_ASSERT_EQUAL(r.smax, -1);
    /* version 5's columns: every older run used the built-in engine and belongs to no matrix */
    CU_ASSERT_STRING_EQUAL(r.client, "builtin");
    CU_ASSERT_EQUAL(r.matrix_id, 0);
    CU_ASSERT_STRING_EQUAL(r.cell, "");
    CU_ASSERT_EQUAL(store_matrix_find(st, "spec"), 0);
    struct store_samples s;
    CU_ASSERT_EQUAL_FATAL(store_load_samples(st, 1, &s), 0);
    CU_ASSERT_EQUAL_FATAL(s.count, 100);
    CU_ASSERT_EQUAL(s.name_count, 2);
    CU_ASSERT_STRING_EQUAL(s.names[s.rows[0].name_id], "open");
    CU_ASSERT_STRING_EQUAL(s.names[s.rows[99].name_id], "type");
    CU_ASSERT_EQUAL(s.rows[99].t_us, 2000000 + 99 * 1000);
    CU_ASSERT_EQUAL(s.rows[99].value_us, 1099);
    CU_ASSERT_EQUAL(s.rows[50].loop, 0);
    store_free_samples(&s);
    struct store_session_row *ss = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL(store_load_sessions(st, 1, &ss, &n), 0);
    CU_ASSERT_EQUAL(n, 1);
    if (n == 1)
        CU_ASSERT_EQUAL(ss[0].logon_us, 1500000);
    free(ss);
    /* what version 2 added works on the migrated file; the old names are reused */
    struct rec_health h = { .t_us = 3000000, .cpu_permille = 250 };
    CU_ASSERT_EQUAL(store_add_health(st, 1, 1, &h), 0);
    struct rec_sample x = sample(0, 9000000, "open", 5);
    x.loop = 7;
    CU_ASSERT_EQUAL(store_add_sample(st, 1, &x, 1), 0);
    /* what version 4 added: copy timers */
    CU_ASSERT_EQUAL(store_add_copy_timer(st, 1, "copyin_10m", 0, 10485760), 0);
    store_close(st);

    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, FIXTURE_DB_CURRENT));
    st = open_ok(path, STORE_READ);
    CU_ASSERT_EQUAL(store_load_samples(st, 1, &s), 0);
    CU_ASSERT_EQUAL(s.count, 101);
    CU_ASSERT_EQUAL(s.name_count, 2);
    if (s.count == 101)
        CU_ASSERT_EQUAL(s.rows[100].loop, 7);
    store_free_samples(&s);
    struct store_health_row *hh = NULL;
    CU_ASSERT_EQUAL(store_load_health(st, 1, &hh, &n), 0);
    CU_ASSERT_EQUAL(n, 1);
    free(hh);
    struct store_copy_row *cr = NULL;
    CU_ASSERT_EQUAL(store_load_copy_timers(st, 1, &cr, &n), 0);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_STRING_EQUAL(cr[0].name, "copyin_10m");
    CU_ASSERT_EQUAL(cr[0].to_client, 0);
    CU_ASSERT_EQUAL(cr[0].bytes, 10485760);
    free(cr);
    store_close(st);
}

/* A reader opening a version-1 file migrates it (once) and reads it as current. */
static void test_store__reader_migrates_v1(void)
{
    const char *path = db_path("v1_reader.db");
    CU_ASSERT_EQUAL_FATAL(store_legacy_create_v1(path, 10, errbuf, sizeof errbuf), 0);
    struct store *st = open_ok(path, STORE_READ);
    struct store_samples s;
    CU_ASSERT_EQUAL(store_load_samples(st, 1, &s), 0);
    CU_ASSERT_EQUAL(s.count, 10);
    store_free_samples(&s);
    struct store_health_row *hh = NULL;
    size_t n = 99;
    CU_ASSERT_EQUAL(store_load_health(st, 1, &hh, &n), 0);
    CU_ASSERT_EQUAL(n, 0);
    free(hh);
    store_close(st);
}

static void test_store__refuses_foreign_file(void)
{
    const char *path = db_path("foreign.db");
    char want[4300], report[2048];
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, "CREATE TABLE photos (id INTEGER PRIMARY KEY, data BLOB)"), SQLITE_OK);
    snprintf(want, sizeof want, "%s: not a sessmax database (an SQLite file of another application)", path);
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NULL(st);
    CU_ASSERT_STRING_EQUAL(errbuf, want);
    store_close(st);
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), -1);
    strcat(want, "\n");
    CU_ASSERT_STRING_EQUAL(report, want);
    /* the foreign file was left alone: still one table, still not WAL */
    CU_ASSERT_EQUAL(raw_exec(path, "SELECT * FROM photos"), SQLITE_OK);
    CU_ASSERT_NOT_EQUAL(raw_exec(path, "SELECT * FROM meta"), SQLITE_OK);

    /* not SQLite at all */
    path = db_path("text.db");
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (int i = 0; i < 200; i++)
        fputs("this is a text file, not a database\n", f);
    fclose(f);
    CU_ASSERT_PTR_NULL(store_open(path, STORE_READ, errbuf, sizeof errbuf));
    snprintf(want, sizeof want, "%s: not a sessmax database (not an SQLite file at all)", path);
    CU_ASSERT_STRING_EQUAL(errbuf, want);
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, want));

    /* missing */
    path = db_path("missing.db");
    CU_ASSERT_PTR_NULL(store_open(path, STORE_READ, errbuf, sizeof errbuf));
    snprintf(want, sizeof want, "%s: No such file or directory", path);
    CU_ASSERT_STRING_EQUAL(errbuf, want);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);    /* a reader never creates the file */
}

static void test_store__refuses_newer_schema(void)
{
    const char *path = db_path("newer.db");
    char want[4300], report[2048];
    struct store *st = open_ok(path, STORE_WRITE);
    CU_ASSERT(begin_run(st, "future") > 0);
    store_close(st);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, "PRAGMA user_version = 99"), SQLITE_OK);
    snprintf(want, sizeof want,
             "%s: schema version 99 is newer than this sessmax supports (%d); use a newer sessmax", path,
             STORE_SCHEMA_VERSION);
    CU_ASSERT_PTR_NULL(store_open(path, STORE_WRITE, errbuf, sizeof errbuf));
    CU_ASSERT_STRING_EQUAL(errbuf, want);
    CU_ASSERT_PTR_NULL(store_open(path, STORE_READ, errbuf, sizeof errbuf));
    CU_ASSERT_STRING_EQUAL(errbuf, want);
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), -1);
    strcat(want, "\n");
    CU_ASSERT_STRING_EQUAL(report, want);
}

static void test_store__detects_corruption(void)
{
    const char *path = db_path("corrupt.db");
    char report[4096];
    struct store *st = open_ok(path, STORE_WRITE);
    int64_t run = begin_run(st, "corrupt");
    for (unsigned i = 0; i < 5000; i++) {
        struct rec_sample s = sample(i % 10, 10000 + i, "open", i);
        CU_ASSERT_EQUAL_FATAL(store_add_sample(st, run, &s, 1), 0);
    }
    store_close(st);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, "PRAGMA wal_checkpoint(TRUNCATE)"), SQLITE_OK);
    /* scribble over the middle of the file (pages of the samples table and its index) */
    FILE *f = fopen(path, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    char junk[4096];
    memset(junk, 0x5A, sizeof junk);
    for (long off = 4096 * 3; off + 4096 < size; off += 4096 * 4) {
        fseek(f, off + 100, SEEK_SET);
        fwrite(junk, 1, 512, f);
    }
    fclose(f);
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), -1);
    char want[4300];
    snprintf(want, sizeof want, "%s: corrupt database: ", path);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, want));
    CU_ASSERT_PTR_NULL(strstr(report, "integrity: ok"));
}

/* Checks that store_check reports the file as older (its report contains `older`), then opens
 * it for writing, which migrates it. */
static struct store *reopen_older(const char *path, const char *older)
{
    char report[2048];
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, older));
    return open_ok(path, STORE_WRITE);
}

/* A file of the current version taken back to version 7's samples table, then to an older
 * version by `downgrade_sql`; store_check reports `older` for it; returns it opened for writing,
 * which migrates it. */
static struct store *open_older(const char *path, const char *downgrade_sql, const char *older)
{
    struct store *st = open_ok(path, STORE_WRITE);
    store_close(st);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, STORE_LEGACY_V10), SQLITE_OK);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, STORE_LEGACY_HEALTH_V8), SQLITE_OK);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, STORE_LEGACY_SAMPLES_V7), SQLITE_OK);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, downgrade_sql), SQLITE_OK);
    return reopen_older(path, older);
}

/* Closes a migrated file and checks it now stands at the current version. */
static void close_current(struct store *st, const char *path)
{
    store_close(st);
    char report[2048];
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, FIXTURE_DB_CURRENT));
}

/* 5 -> 6: an agent row of version 5 gets a zero clock offset and round trip, and the handshake's
 * figures can be stored and read back on the migrated file. */
static void test_store__migrate_v5_agent_clock(void)
{
    const char *path = db_path("v5.db");
    /* back to what version 5 had */
    struct store *st = open_older(path, "ALTER TABLE agents DROP COLUMN clock_offset_us;"
                                        "ALTER TABLE agents DROP COLUMN rtt_us;"
                                        "DROP TABLE target_load;"
                                        "INSERT INTO runs (name, started_us) VALUES ('old', 1);"
                                        "INSERT INTO agents (run_id, name, capacity) VALUES (1, 'old-agent', 7);"
                                        "DROP TABLE IF EXISTS target_metrics;"
                                        "PRAGMA user_version = 5",
                                  "schema version 5 (older");
    int64_t agent = store_add_agent(st, 1, "new-agent", "127.0.0.1:1", 9);
    CU_ASSERT_FATAL(agent > 0);
    CU_ASSERT_EQUAL(store_agent_clock(st, agent, -2500000, 180), 0);
    CU_ASSERT_EQUAL(store_flush(st), 0);
    struct store_agent_row *ag = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL(store_load_agents(st, 1, &ag, &n), 0);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_STRING_EQUAL(ag[0].name, "old-agent");
    CU_ASSERT_EQUAL(ag[0].clock_offset_us, 0);
    CU_ASSERT_EQUAL(ag[0].rtt_us, 0);
    CU_ASSERT_EQUAL(ag[1].clock_offset_us, -2500000);
    CU_ASSERT_EQUAL(ag[1].rtt_us, 180);
    free(ag);
    close_current(st, path);
}

/* 6 -> 7: a version-6 file gains the target_load table; a run's samples of a local target's CPU
 * use are stored and read back in time order. */
static void test_store__migrate_v6_target_load(void)
{
    const char *path = db_path("v6.db");
    struct store *st = open_older(path, "DROP TABLE target_load;"
                                        "INSERT INTO runs (name, started_us) VALUES ('old', 1);"
                                        "DROP TABLE IF EXISTS target_metrics;"
                                        "PRAGMA user_version = 6",
                                  "schema version 6 (older");
    struct store_target_load a = { 2000000, 1, 430, 610 }, b = { 1000000, 1, 20, 5 };
    CU_ASSERT_EQUAL(store_add_target_load(st, 1, &a), 0);
    CU_ASSERT_EQUAL(store_add_target_load(st, 1, &b), 0);
    CU_ASSERT_EQUAL(store_flush(st), 0);
    struct store_target_load *rows = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL(store_load_target_load(st, 1, &rows, &n), 0);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(rows[0].t_us, 1000000);
    CU_ASSERT_EQUAL(rows[1].target_permille, 430);
    CU_ASSERT_EQUAL(rows[1].others_permille, 610);
    CU_ASSERT_EQUAL(rows[1].cpus, 1);
    free(rows);
    CU_ASSERT_EQUAL(store_load_target_load(st, 2, &rows, &n), 0);
    CU_ASSERT_EQUAL(n, 0);
    free(rows);
    close_current(st, path);
}

/* 8 -> 9: a version-8 health row reads back with no external costs; a new one keeps them. */
static void test_store__migrate_v8_ext_costs(void)
{
    const char *path = db_path("v8.db");
    struct store *st = open_ok(path, STORE_WRITE);
    store_close(st);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, STORE_LEGACY_V10), SQLITE_OK);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, STORE_LEGACY_HEALTH_V8), SQLITE_OK);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, "INSERT INTO runs (name, started_us) VALUES ('old', 1);"
                                        "INSERT INTO health (run_id, agent_id, t_us, sessions_active, sessions_connecting,"
                                        " lag_p50_us, lag_p99_us, lag_max_us, cpu_permille, rss_kb)"
                                        " VALUES (1, 1, 1000, 3, 0, 10, 20, 30, 400, 5000);"
                                        "DROP TABLE IF EXISTS target_metrics;"
                                        "PRAGMA user_version = 8"), SQLITE_OK);
    char report[2048];
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "schema version 8 (older"));
    st = open_ok(path, STORE_WRITE);
    struct rec_health h = { .t_us = 2000, .sessions_active = 2, .rss_kb = 6000, .ext.sessions = 2,
                            .ext.cpu_permille = 31, .ext.client_rss_kb = 84000, .ext.client_pss_kb = 30000,
                            .ext.xserver_rss_kb = 46000, .ext.xserver_pss_kb = 29000 };
    CU_ASSERT_EQUAL(store_add_health(st, 1, 1, &h), 0);
    CU_ASSERT_EQUAL(store_flush(st), 0);
    struct store_health_row *rows = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL(store_load_health(st, 1, &rows, &n), 0);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(rows[0].h.rss_kb, 5000);
    CU_ASSERT_EQUAL(rows[0].h.ext.sessions, 0);
    CU_ASSERT_EQUAL(rows[0].h.ext.client_pss_kb, 0);
    CU_ASSERT_EQUAL(rows[1].h.ext.sessions, 2);
    CU_ASSERT_EQUAL(rows[1].h.ext.cpu_permille, 31);
    CU_ASSERT_EQUAL(rows[1].h.ext.client_rss_kb, 84000);
    CU_ASSERT_EQUAL(rows[1].h.ext.client_pss_kb, 30000);
    CU_ASSERT_EQUAL(rows[1].h.ext.xserver_rss_kb, 46000);
    CU_ASSERT_EQUAL(rows[1].h.ext.xserver_pss_kb, 29000);
    free(rows);
    close_current(st, path);
}

/* The number of columns of index `name` (0 when there is no such index). */
static int index_columns(const char *path, const char *name)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    int n = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT count(*) FROM pragma_index_info(?1)", -1, &s, NULL) == SQLITE_OK) {
        sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
        if (sqlite3_step(s) == SQLITE_ROW)
            n = sqlite3_column_int(s, 0);
    }
    sqlite3_finalize(s);
    sqlite3_close(db);
    return n;
}

/* 9 -> 10: the traffic index of version 9 (run_id, t_us) becomes one that holds every column
 * read; a run's traffic still reads back in time order, rows of the same time in the order they
 * were stored, though the new index orders those by session. */
static void test_store__migrate_v9_traffic_index(void)
{
    const char *path = db_path("v9.db");
    struct store *st = open_ok(path, STORE_WRITE);
    store_close(st);
    CU_ASSERT_EQUAL(index_columns(path, "traffic_run_t"), 13);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, STORE_LEGACY_V10), SQLITE_OK);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, "DROP INDEX traffic_run_t;"
                                        "CREATE INDEX traffic_run_t ON traffic (run_id, t_us);"
                                        "INSERT INTO runs (name, started_us) VALUES ('old', 1);"
                                        "INSERT INTO traffic (run_id, session, t_us, bytes_in, bytes_out, wire_in,"
                                        " wire_out, rtt_us, frames) VALUES (1, 5, 2000, 50, 0, 0, 0, 300, 1),"
                                        " (1, 2, 2000, 20, 0, 0, 0, 300, 1), (1, 9, 1000, 90, 0, 0, 0, 300, 1);"
                                        "DROP TABLE IF EXISTS target_metrics;"
                                        "PRAGMA user_version = 9"), SQLITE_OK);
    CU_ASSERT_EQUAL(index_columns(path, "traffic_run_t"), 2);
    st = reopen_older(path, "schema version 9 (older");
    CU_ASSERT_EQUAL(index_columns(path, "traffic_run_t"), 13);
    struct rec_traffic t = { .session = 1, .t_us = 2000, .bytes_in = 10, .rtt_us = 200 };
    CU_ASSERT_EQUAL(store_add_traffic(st, 1, &t), 0);
    CU_ASSERT_EQUAL(store_flush(st), 0);
    struct store_traffic_row *rows = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL(store_load_traffic(st, 1, &rows, &n), 0);
    CU_ASSERT_EQUAL_FATAL(n, 4);
    static const uint32_t want[] = { 9, 5, 2, 1 };
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(rows[i].session, want[i]);
        CU_ASSERT_EQUAL(rows[i].t.bytes_in, want[i] * 10);
        CU_ASSERT_EQUAL(rows[i].t.t_us, i ? 2000 : 1000);
    }
    free(rows);
    close_current(st, path);
}

/* 10 -> 11: a version-10 session reads back with its logon phases not measured (-1) and a
 * traffic row with no minimum RTT (0); new ones keep both; the traffic index covers min_rtt_us. */
static void test_store__migrate_v10_logon_phases(void)
{
    const char *path = db_path("v10.db");
    struct store *st = open_ok(path, STORE_WRITE);
    store_close(st);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, STORE_LEGACY_V10), SQLITE_OK);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, "INSERT INTO runs (name, started_us) VALUES ('old', 1);"
                                        "INSERT INTO sessions (run_id, idx, state, launch_us, active_us, logon_us)"
                                        " VALUES (1, 0, 'active', 1000, 701000, 700000);"
                                        "INSERT INTO traffic (run_id, session, t_us, bytes_in, bytes_out, wire_in,"
                                        " wire_out, rtt_us, frames) VALUES (1, 0, 2000, 50, 0, 0, 0, 300, 1);"
                                        "PRAGMA user_version = 10"), SQLITE_OK);
    st = reopen_older(path, "schema version 10 (older");
    CU_ASSERT_EQUAL(index_columns(path, "traffic_run_t"), 13);
    CU_ASSERT_EQUAL(store_session_launch(st, 1, 1, 0, "u", 5000), 0);
    struct rec_logon l = { .session = 1, .t_us = 9, .phase_us = { 100, 50, 8000, 600000, 2000, -1 } };
    CU_ASSERT_EQUAL(store_session_logon(st, 1, &l), 0);
    struct rec_traffic t = { .session = 1, .t_us = 3000, .rtt_us = 15000, .min_rtt_us = 40 };
    CU_ASSERT_EQUAL(store_add_traffic(st, 1, &t), 0);
    CU_ASSERT_EQUAL(store_flush(st), 0);
    struct store_session_row *ss = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL(store_load_sessions(st, 1, &ss, &n), 0);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(ss[0].logon_us, 700000);
    for (int i = 0; i < LOGON__PHASES; i++) {
        CU_ASSERT_EQUAL(ss[0].logon_phase_us[i], -1);
        CU_ASSERT_EQUAL(ss[1].logon_phase_us[i], l.phase_us[i]);
    }
    free(ss);
    struct store_traffic_row *rows = NULL;
    CU_ASSERT_EQUAL(store_load_traffic(st, 1, &rows, &n), 0);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(rows[0].t.min_rtt_us, 0);
    CU_ASSERT_EQUAL(rows[0].t.rtt_us, 300);
    CU_ASSERT_EQUAL(rows[1].t.min_rtt_us, 40);
    free(rows);
    close_current(st, path);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_store__migrate_v1),
        UNIT_TEST(test_store__migrate_v5_agent_clock),
        UNIT_TEST(test_store__migrate_v6_target_load),
        UNIT_TEST(test_store__migrate_v8_ext_costs),
        UNIT_TEST(test_store__migrate_v9_traffic_index),
        UNIT_TEST(test_store__migrate_v10_logon_phases),
        UNIT_TEST(test_store__reader_migrates_v1),
        UNIT_TEST(test_store__refuses_foreign_file),
        UNIT_TEST(test_store__refuses_newer_schema),
        UNIT_TEST(test_store__detects_corruption),
        UNIT_END,
    };
    return unit_run("store_schema", tests, NULL, NULL);
}

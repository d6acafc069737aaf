/* test_store.c -- the results store: schema creation, write/read round trip, batching by count,
 * age and close (seen from a second connection), migration from version 1, refusing foreign and
 * newer files, and a writer killed with SIGKILL mid-batch. */
#include "unit.h"

#include "db/store.h"
#include "db/store_int.h"
#include "db/store_legacy.h"

#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char errbuf[512];

/* A fresh database path under the test's temporary directory. */
static const char *db_path(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", unit_tmpdir(), name);
    unlink(path);
    char side[4200];
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
    return path;
}

static struct rec_sample sample(uint32_t session, uint64_t t_us, const char *name, int64_t value_us)
{
    struct rec_sample s = { .session = session, .loop = 1, .t_us = t_us, .value_us = value_us, .ok = 1 };
    snprintf(s.name, sizeof s.name, "%s", name);
    return s;
}

static int64_t begin_run(struct store *st, const char *name)
{
    struct store_run_info info = { .name = name, .transport = "tcp", .platform = "test", .network = "lan",
                                   .target = "127.0.0.1:3389", .workload_name = "wl", .workload_hash = "abc",
                                   .plan_text = "plan: yes\n", .score_params = "{}", .sessions_planned = 3,
                                   .started_us = 1000 };
    return store_run_begin(st, &info);
}

/* Number of samples of `run` seen by a separate read-only connection. */
static long samples_seen(const char *path, int64_t run)
{
    struct store *rd = store_open(path, STORE_READ, errbuf, sizeof errbuf);
    if (!rd)
        return -1;
    struct store_samples s;
    long n = store_load_samples(rd, run, &s) == 0 ? (long)s.count : -1;
    store_free_samples(&s);
    store_close(rd);
    return n;
}

static void test_store__create_and_check(void)
{
    const char *path = db_path("create.db");
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    store_close(st);
    char report[2048];
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "schema version 8"));
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "integrity: ok"));
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "runs: 0"));
    /* reopening a current file changes nothing */
    st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL(st);
    store_close(st);
}

static void test_store__round_trip(void)
{
    const char *path = db_path("roundtrip.db");
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    int64_t run = begin_run(st, "rt");
    CU_ASSERT_FATAL(run > 0);
    int64_t agent = store_add_agent(st, run, "a1", "127.0.0.1", 50);
    CU_ASSERT_FATAL(agent > 0);
    CU_ASSERT_EQUAL(store_agent_status(st, agent, "ready", "ok"), 0);
    CU_ASSERT_EQUAL(store_session_launch(st, run, 0, agent, "user0", 2000), 0);
    CU_ASSERT_EQUAL(store_session_launch(st, run, 1, agent, "user1", 2100), 0);
    struct rec_session ev = { .session = 0, .t_us = 3000, .kind = SESSION_ACTIVE, .value_us = 1000 };
    CU_ASSERT_EQUAL(store_session_event(st, run, &ev), 0);
    ev = (struct rec_session){ .session = 1, .t_us = 3500, .kind = SESSION_FAILED, .reason = FAIL_AUTH };
    snprintf(ev.detail, sizeof ev.detail, "bad password");
    CU_ASSERT_EQUAL(store_session_event(st, run, &ev), 0);
    /* a later event cannot resurrect a failed session */
    ev = (struct rec_session){ .session = 1, .t_us = 3600, .kind = SESSION_ACTIVE, .value_us = 5 };
    CU_ASSERT_EQUAL(store_session_event(st, run, &ev), 0);
    /* samples out of time order come back sorted, names interned */
    struct rec_sample a = sample(0, 5000, "open", 100), b = sample(0, 4000, "type", 200), c = sample(0, 6000, "open", 300);
    c.ok = 0;
    c.is_measure = 1;
    CU_ASSERT_EQUAL(store_add_sample(st, run, &a, 1), 0);
    CU_ASSERT_EQUAL(store_add_sample(st, run, &b, 1), 0);
    CU_ASSERT_EQUAL(store_add_sample(st, run, &c, 2), 0);
    struct rec_traffic tr = { .session = 0, .t_us = 4500, .bytes_in = 10, .bytes_out = 20, .wire_in = 30,
                              .wire_out = 40, .rtt_us = 50, .frames = 60 };
    CU_ASSERT_EQUAL(store_add_traffic(st, run, &tr), 0);
    struct rec_health h = { .t_us = 4600, .sessions_active = 1, .lag_p99_us = 77, .rss_kb = 1234 };
    CU_ASSERT_EQUAL(store_add_health(st, run, agent, &h), 0);
    CU_ASSERT_EQUAL(store_add_event(st, run, 4700, "info", "hello"), 0);
    struct store_score sc = { .score_version = "4.1-s1", .baseline_ms = 800, .threshold_ms = 1800, .smax = 2,
                              .smax_reached = 1, .launched = 2, .active = 1, .verdict = "pass" };
    CU_ASSERT_EQUAL(store_run_set_score(st, run, &sc), 0);
    CU_ASSERT_EQUAL(store_run_end(st, run, "completed", 9000, "done"), 0);
    CU_ASSERT_EQUAL(store_run_end(st, run + 99, "completed", 9000, "done"), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(store_errmsg(st), path));
    CU_ASSERT_EQUAL(store_run_end(st, run, "bogus", 9000, ""), -1);
    store_close(st);

    st = store_open(path, STORE_READ, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL(store_latest_run(st), run);
    struct store_run r;
    CU_ASSERT_EQUAL_FATAL(store_get_run(st, run, &r), 0);
    CU_ASSERT_STRING_EQUAL(r.name, "rt");
    CU_ASSERT_STRING_EQUAL(r.status, "completed");
    CU_ASSERT_STRING_EQUAL(r.verdict, "pass");
    CU_ASSERT_EQUAL(r.smax, 2);
    CU_ASSERT_DOUBLE_EQUAL(r.baseline_ms, 800, 1e-9);
    CU_ASSERT_EQUAL(r.ended_us, 9000);
    CU_ASSERT_EQUAL(r.sessions_planned, 3);
    char *plan = NULL, *params = NULL;
    CU_ASSERT_EQUAL(store_run_texts(st, run, &plan, &params), 0);
    CU_ASSERT_STRING_EQUAL(plan, "plan: yes\n");
    free(plan);
    free(params);

    struct store_samples s;
    CU_ASSERT_EQUAL_FATAL(store_load_samples(st, run, &s), 0);
    CU_ASSERT_EQUAL_FATAL(s.count, 3);
    CU_ASSERT_EQUAL(s.name_count, 2);
    CU_ASSERT_EQUAL(s.rows[0].t_us, 4000);
    CU_ASSERT_STRING_EQUAL(s.names[s.rows[0].name_id], "type");
    CU_ASSERT_STRING_EQUAL(s.names[s.rows[1].name_id], "open");
    CU_ASSERT_EQUAL(s.rows[2].value_us, 300);
    CU_ASSERT_EQUAL(s.rows[2].ok, 0);
    CU_ASSERT_EQUAL(s.rows[2].is_measure, 1);
    CU_ASSERT_EQUAL(s.rows[2].active, 2);
    CU_ASSERT_EQUAL(s.rows[2].loop, 1);
    store_free_samples(&s);

    struct store_session_row *ss = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL_FATAL(store_load_sessions(st, run, &ss, &n), 0);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_STRING_EQUAL(ss[0].state, "active");
    CU_ASSERT_EQUAL(ss[0].logon_us, 1000);
    CU_ASSERT_STRING_EQUAL(ss[0].user, "user0");
    CU_ASSERT_STRING_EQUAL(ss[1].state, "failed");
    CU_ASSERT_STRING_EQUAL(ss[1].reason, "auth");
    CU_ASSERT_STRING_EQUAL(ss[1].detail, "bad password");
    CU_ASSERT_EQUAL(ss[1].logon_us, -1);
    free(ss);

    struct store_traffic_row *t = NULL;
    CU_ASSERT_EQUAL(store_load_traffic(st, run, &t, &n), 0);
    CU_ASSERT_EQUAL(n, 1);
    if (n == 1)
        CU_ASSERT_EQUAL(t[0].t.frames, 60);
    free(t);
    struct store_health_row *hh = NULL;
    CU_ASSERT_EQUAL(store_load_health(st, run, &hh, &n), 0);
    CU_ASSERT_EQUAL(n, 1);
    if (n == 1)
        CU_ASSERT_EQUAL(hh[0].h.rss_kb, 1234);
    free(hh);
    struct store_agent_row *ag = NULL;
    CU_ASSERT_EQUAL(store_load_agents(st, run, &ag, &n), 0);
    CU_ASSERT_EQUAL(n, 1);
    if (n == 1) {
        CU_ASSERT_STRING_EQUAL(ag[0].status, "ready");
        CU_ASSERT_EQUAL(ag[0].capacity, 50);
    }
    free(ag);
    /* a reader cannot write */
    CU_ASSERT_EQUAL(store_add_event(st, run, 1, "info", "x"), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(store_errmsg(st), "read-only"));
    store_close(st);
}


/* A matrix row, runs tagged with it and their cell, and the count of a cell's completed runs. */
static void test_store__matrix_cells(void)
{
    const char *path = db_path("matrix.db");
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL(store_matrix_find(st, "plan=ab vary=network=lan,wan"), 0);
    int64_t m1 = store_matrix_begin(st, "nightly", "plan=ab vary=network=lan,wan", 1000);
    int64_t m2 = store_matrix_begin(st, "nightly", "plan=ab vary=network=lan,wan", 2000);
    int64_t other = store_matrix_begin(st, "nightly", "plan=cd vary=network=lan,wan", 3000);
    CU_ASSERT_TRUE(m1 > 0 && m2 > m1 && other > m2);
    CU_ASSERT_EQUAL(store_matrix_find(st, "plan=ab vary=network=lan,wan"), m2);
    const char *status[] = { "completed", "completed", "aborted", "completed" };
    const char *cells[] = { "network=lan", "network=lan", "network=wan", "network=wan" };
    int64_t matrix[] = { m2, m2, m2, m1 };
    for (int i = 0; i < 4; i++) {
        struct store_run_info info = { .name = "nightly", .started_us = 5000 + i, .client = i ? NULL : "xfreerdp",
                                       .matrix_id = matrix[i], .cell = cells[i] };
        int64_t run = store_run_begin(st, &info);
        CU_ASSERT_TRUE_FATAL(run > 0);
        CU_ASSERT_EQUAL(store_run_end(st, run, status[i], 6000, ""), 0);
    }
    CU_ASSERT_EQUAL(store_matrix_cell_done(st, m2, "network=lan"), 2);
    CU_ASSERT_EQUAL(store_matrix_cell_done(st, m2, "network=wan"), 0);   /* aborted is not done */
    CU_ASSERT_EQUAL(store_matrix_cell_done(st, m1, "network=wan"), 1);
    CU_ASSERT_EQUAL(store_matrix_cell_done(st, other, "network=lan"), 0);
    struct store_run r;
    CU_ASSERT_EQUAL(store_get_run(st, 1, &r), 0);
    CU_ASSERT_STRING_EQUAL(r.client, "xfreerdp");
    CU_ASSERT_EQUAL(r.matrix_id, m2);
    CU_ASSERT_STRING_EQUAL(r.cell, "network=lan");
    CU_ASSERT_EQUAL(store_get_run(st, 2, &r), 0);
    CU_ASSERT_STRING_EQUAL(r.client, "builtin");
    store_close(st);
}

static void test_store__batch_by_count_and_close(void)
{
    const char *path = db_path("batch_count.db");
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    store_set_batch(st, 100, 3600ull * 1000000);
    int64_t run = begin_run(st, "count");
    CU_ASSERT_FATAL(run > 0);
    CU_ASSERT_EQUAL(samples_seen(path, run), 0);   /* the run row is committed at once */
    for (unsigned i = 0; i < 250; i++) {
        struct rec_sample s = sample(i % 7, 10000 + i, i % 2 ? "open" : "type", i);
        CU_ASSERT_EQUAL_FATAL(store_add_sample(st, run, &s, 1), 0);
    }
    CU_ASSERT_EQUAL(samples_seen(path, run), 200); /* two full batches; 50 rows still open */
    CU_ASSERT_EQUAL(store_tick(st), 0);            /* not old enough: nothing changes */
    CU_ASSERT_EQUAL(samples_seen(path, run), 200);
    store_close(st);
    CU_ASSERT_EQUAL(samples_seen(path, run), 250); /* close commits the open batch */
}

static void test_store__batch_by_age(void)
{
    const char *path = db_path("batch_age.db");
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    store_set_batch(st, 1000000, 3600ull * 1000000);
    int64_t run = begin_run(st, "age");
    for (unsigned i = 0; i < 10; i++) {
        struct rec_sample s = sample(0, 10000 + i, "open", i);
        CU_ASSERT_EQUAL_FATAL(store_add_sample(st, run, &s, 1), 0);
    }
    CU_ASSERT_EQUAL(store_tick(st), 0);
    CU_ASSERT_EQUAL(samples_seen(path, run), 0);   /* an hour has not passed */
    store_set_batch(st, 1000000, 1000);            /* 1 ms */
    usleep(5000);
    CU_ASSERT_EQUAL(store_tick(st), 0);
    CU_ASSERT_EQUAL(samples_seen(path, run), 10);  /* the tick committed the aged batch */
    /* an insert into an aged batch commits it too */
    struct rec_sample s = sample(0, 20000, "open", 1);
    CU_ASSERT_EQUAL(store_add_sample(st, run, &s, 1), 0);
    usleep(5000);
    s.t_us++;
    CU_ASSERT_EQUAL(store_add_sample(st, run, &s, 1), 0);
    CU_ASSERT_EQUAL(samples_seen(path, run), 12);
    store_close(st);
}

static void test_store__migrate_v1(void)
{
    const char *path = db_path("v1.db");
    char report[2048];
    CU_ASSERT_EQUAL_FATAL(store_legacy_create_v1(path, 100, errbuf, sizeof errbuf), 0);
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "schema version 1 (older"));
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "samples: 100"));

    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
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
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "schema version 8\n"));
    st = store_open(path, STORE_READ, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
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
    struct store *st = store_open(path, STORE_READ, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
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

/* Test-only raw SQLite access, to fabricate files sessmax itself would never write. */
static int raw_exec(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open(path, &db) == SQLITE_OK ? sqlite3_exec(db, sql, NULL, NULL, NULL) : -1;
    sqlite3_close(db);
    return rc;
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
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
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
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
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

static void test_store__mark_stale_runs(void)
{
    const char *path = db_path("stale.db");
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    int64_t done = begin_run(st, "done"), left = begin_run(st, "left");
    CU_ASSERT_EQUAL(store_run_end(st, done, "completed", 5000, ""), 0);
    struct rec_sample s = sample(0, 7777, "open", 1);
    CU_ASSERT_EQUAL(store_add_sample(st, left, &s, 1), 0);
    CU_ASSERT_EQUAL(store_mark_stale_runs(st), 1);
    CU_ASSERT_EQUAL(store_mark_stale_runs(st), 0);
    struct store_run *runs = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL_FATAL(store_list_runs(st, &runs, &n), 0);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_STRING_EQUAL(runs[0].status, "completed");
    CU_ASSERT_STRING_EQUAL(runs[1].status, "aborted");
    CU_ASSERT_EQUAL(runs[1].ended_us, 7777);       /* the last sample it holds */
    free(runs);
    store_close(st);
}

/* --- a writer killed with SIGKILL ------------------------------------------------------- */

#define KILL_BATCH 400u
#define KILL_MID_BATCH 0xFFFFFFFFu

/* Rows of the batch left open in the deterministic variant: enough to overflow SQLite's page
 * cache (2 MB by default; a sample takes about 20 bytes), so uncommitted pages really are in the WAL when the kill lands. */
#define KILL_SPILL_ROWS 400000u

/* The child: writes samples in batches of KILL_BATCH forever, reporting on `fd` the number of
 * batches committed after each commit. With `stop_mid_batch` it stops after that many batches,
 * opens one more that never fills (KILL_SPILL_ROWS rows), reports KILL_MID_BATCH and waits to
 * be killed. Never returns. */
static void kill_child(const char *path, int fd, uint32_t stop_mid_batch)
{
    char err[512];
    struct store *st = store_open(path, STORE_WRITE, err, sizeof err);
    if (!st)
        _exit(3);
    store_set_batch(st, KILL_BATCH, 3600ull * 1000000);
    int64_t run = begin_run(st, "killed");
    if (run <= 0)
        _exit(4);
    for (uint64_t i = 0;; i++) {
        struct rec_sample s = sample((uint32_t)(i % 50), 1000000 + i, i % 3 ? "open" : "type", (int64_t)i);
        if (store_add_sample(st, run, &s, 50) != 0)
            _exit(5);
        uint32_t batches = (uint32_t)((i + 1) / KILL_BATCH);
        if ((i + 1) % KILL_BATCH == 0 && write(fd, &batches, sizeof batches) != sizeof batches)
            _exit(6);
        if (stop_mid_batch && batches == stop_mid_batch && (i + 1) % KILL_BATCH == 0) {
            store_set_batch(st, KILL_SPILL_ROWS * 2, 3600ull * 1000000);
            for (uint64_t j = i + 1; j <= i + KILL_SPILL_ROWS; j++) {
                s = sample((uint32_t)(j % 50), 1000000 + j, "open", (int64_t)j);
                if (store_add_sample(st, run, &s, 50) != 0)
                    _exit(5);
            }
            uint32_t mark = KILL_MID_BATCH;
            if (write(fd, &mark, sizeof mark) != sizeof mark)
                _exit(6);
            for (;;)
                pause();
        }
    }
}

static long wal_size(const char *path)
{
    char wal[4200];
    struct stat sb;
    snprintf(wal, sizeof wal, "%s-wal", path);
    return stat(wal, &sb) == 0 ? (long)sb.st_size : -1;
}

/* Runs a child, kills it after it reported `batches` commits (or its mid-batch mark), and
 * returns the highest commit count it reported. */
static long kill_writer(const char *path, uint32_t batches, uint32_t stop_mid_batch)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        kill_child(path, fds[1], stop_mid_batch);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return -1;
    }
    uint32_t v, last = 0;
    int killed = 0;
    while (read(fds[0], &v, sizeof v) == sizeof v) {
        if (v != KILL_MID_BATCH)
            last = v;
        /* The committed batches need well under 0.5 MB of WAL: anything past 1 MB is pages
         * of the open batch that spilled from the cache, as intended. */
        if (v == KILL_MID_BATCH)
            CU_ASSERT(wal_size(path) > 1024L * 1024);
        if (!killed && (v == KILL_MID_BATCH || (!stop_mid_batch && v >= batches))) {
            kill(pid, SIGKILL);
            killed = 1;
        }
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    CU_ASSERT_TRUE(killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    return last;
}

static void check_killed_file(const char *path, long reported, int exact)
{
    char report[2048];
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "integrity: ok"));
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "1 running"));
    struct store *st = store_open(path, STORE_READ, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    struct store_samples s;
    CU_ASSERT_EQUAL_FATAL(store_load_samples(st, 1, &s), 0);
    long batches = (long)(s.count / KILL_BATCH);
    CU_ASSERT_EQUAL(s.count % KILL_BATCH, 0);      /* whole batches only */
    if (exact) {
        CU_ASSERT_EQUAL(batches, reported);
    } else {  /* a commit may land between its report and the kill, never one less */
        CU_ASSERT_TRUE(batches == reported || batches == reported + 1);
    }
    for (size_t i = 0; i < s.count; i++)
        if (s.rows[i].value_us != (int64_t)i) {
            CU_FAIL("samples lost or reordered");
            break;
        }
    store_free_samples(&s);
    store_close(st);
    /* the next controller marks the run aborted */
    st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL(store_mark_stale_runs(st), 1);
    store_close(st);
}

static void test_store__sigkill_mid_batch(void)
{
    const char *path = db_path("killed_mid.db");
    long reported = kill_writer(path, 0, 6);
    CU_ASSERT_EQUAL(reported, 6);
    check_killed_file(path, reported, 1);
}

static void test_store__sigkill_while_writing(void)
{
    const char *path = db_path("killed_busy.db");
    long reported = kill_writer(path, 10, 0);
    CU_ASSERT(reported >= 10);
    check_killed_file(path, reported, 0);
}

/* 5 -> 6: an agent row of version 5 gets a zero clock offset and round trip, and the handshake's
 * figures can be stored and read back on the migrated file. */
static void test_store__migrate_v5_agent_clock(void)
{
    const char *path = db_path("v5.db");
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    store_close(st);
    /* back to what version 5 had */
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, STORE_LEGACY_SAMPLES_V7), SQLITE_OK);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, "ALTER TABLE agents DROP COLUMN clock_offset_us;"
                                         "ALTER TABLE agents DROP COLUMN rtt_us;"
                                         "DROP TABLE target_load;"
                                         "INSERT INTO runs (name, started_us) VALUES ('old', 1);"
                                         "INSERT INTO agents (run_id, name, capacity) VALUES (1, 'old-agent', 7);"
                                         "PRAGMA user_version = 5"), SQLITE_OK);
    char report[2048];
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "schema version 5 (older"));
    st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
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
    store_close(st);
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "schema version 8\n"));
}

/* 6 -> 7: a version-6 file gains the target_load table; a run's samples of a local target's CPU
 * use are stored and read back in time order. */
static void test_store__migrate_v6_target_load(void)
{
    const char *path = db_path("v6.db");
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    store_close(st);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, STORE_LEGACY_SAMPLES_V7), SQLITE_OK);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, "DROP TABLE target_load;"
                                         "INSERT INTO runs (name, started_us) VALUES ('old', 1);"
                                         "PRAGMA user_version = 6"), SQLITE_OK);
    char report[2048];
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "schema version 6 (older"));
    st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
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
    store_close(st);
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "schema version 8\n"));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_store__create_and_check),
        UNIT_TEST(test_store__round_trip),
        UNIT_TEST(test_store__matrix_cells),
        UNIT_TEST(test_store__batch_by_count_and_close),
        UNIT_TEST(test_store__batch_by_age),
        UNIT_TEST(test_store__migrate_v1),
        UNIT_TEST(test_store__migrate_v5_agent_clock),
        UNIT_TEST(test_store__migrate_v6_target_load),
        UNIT_TEST(test_store__reader_migrates_v1),
        UNIT_TEST(test_store__refuses_foreign_file),
        UNIT_TEST(test_store__refuses_newer_schema),
        UNIT_TEST(test_store__detects_corruption),
        UNIT_TEST(test_store__mark_stale_runs),
        UNIT_TEST(test_store__sigkill_mid_batch),
        UNIT_TEST(test_store__sigkill_while_writing),
        UNIT_END,
    };
    return unit_run("store", tests, NULL, NULL);
}

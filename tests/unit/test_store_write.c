/* test_store_write.c -- the results store's write path: schema creation, a write/read round trip,
 * matrix rows and cells, batching by count, age and close (seen from a second connection), and
 * marking runs a dead controller left running. Old and foreign files: test_store_schema.c; a writer
 * killed mid-batch: test_store_kill.c. */
#include "unit.h"

#include "db/store.h"
#include "fixture_db.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char errbuf[512];

static void test_store__create_and_check(void)
{
    const char *path = db_path("create.db");
    struct store *st = open_ok(path, STORE_WRITE);
    store_close(st);
    char report[2048];
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, FIXTURE_DB_CURRENT));
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "integrity: ok"));
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "runs: 0"));
    /* reopening a current file changes nothing */
    st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL(st);
    store_close(st);
}

/* A new database and its WAL are owner-only whatever the umask: they name users and hosts. */
static void test_store__new_database_is_owner_only(void)
{
    const char *path = db_path("mode.db");
    char wal[4200];
    struct stat sb;
    mode_t old = umask(022);
    struct store *st = open_ok(path, STORE_WRITE);
    umask(old);
    CU_ASSERT_EQUAL_FATAL(stat(path, &sb), 0);
    CU_ASSERT_EQUAL(sb.st_mode & 0777, 0600);
    snprintf(wal, sizeof wal, "%s-wal", path);
    if (stat(wal, &sb) == 0)
        CU_ASSERT_EQUAL(sb.st_mode & 0777, 0600);
    store_close(st);
}

/* The round trip's traffic, health and agent rows: one of each, with the values written. */
static void check_one_each(struct store *st, int64_t run)
{
    struct store_traffic_row *t = NULL;
    struct store_health_row *hh = NULL;
    struct store_agent_row *ag = NULL;
    size_t nt = 0, nh = 0, na = 0;
    CU_ASSERT_EQUAL(store_load_traffic(st, run, &t, &nt), 0);
    CU_ASSERT_EQUAL(nt, 1);
    CU_ASSERT_EQUAL(store_load_health(st, run, &hh, &nh), 0);
    CU_ASSERT_EQUAL(nh, 1);
    CU_ASSERT_EQUAL(store_load_agents(st, run, &ag, &na), 0);
    CU_ASSERT_EQUAL(na, 1);
    if (nt == 1)
        CU_ASSERT_EQUAL(t[0].t.frames, 60);
    if (nh == 1)
        CU_ASSERT_EQUAL(hh[0].h.rss_kb, 1234);
    if (na == 1) {
        CU_ASSERT_STRING_EQUAL(ag[0].status, "ready");
        CU_ASSERT_EQUAL(ag[0].capacity, 50);
    }
    free(t);
    free(hh);
    free(ag);
}

static void test_store__round_trip(void)
{
    const char *path = db_path("roundtrip.db");
    struct store *st = open_ok(path, STORE_WRITE);
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

    st = open_ok(path, STORE_READ);
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

    check_one_each(st, run);
    /* a reader cannot write */
    CU_ASSERT_EQUAL(store_add_event(st, run, 1, "info", "x"), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(store_errmsg(st), "read-only"));
    store_close(st);
}


/* A matrix row, runs tagged with it and their cell, and the count of a cell's completed runs. */
static void test_store__matrix_cells(void)
{
    const char *path = db_path("matrix.db");
    struct store *st = open_ok(path, STORE_WRITE);
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
    struct store *st = open_ok(path, STORE_WRITE);
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
    struct store *st = open_ok(path, STORE_WRITE);
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

static void test_store__mark_stale_runs(void)
{
    const char *path = db_path("stale.db");
    struct store *st = open_ok(path, STORE_WRITE);
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

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_store__create_and_check),
        UNIT_TEST(test_store__new_database_is_owner_only),
        UNIT_TEST(test_store__round_trip),
        UNIT_TEST(test_store__matrix_cells),
        UNIT_TEST(test_store__batch_by_count_and_close),
        UNIT_TEST(test_store__batch_by_age),
        UNIT_TEST(test_store__mark_stale_runs),
        UNIT_END,
    };
    return unit_run("store_write", tests, NULL, NULL);
}

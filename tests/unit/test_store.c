/* test_store.c -- the results store: schema creation, write/read round trip, batching by count,
 * age and close (seen from a second connection), migration from version 1, refusing foreign and
 * newer files, and a writer killed with SIGKILL mid-batch. */
#include "unit.h"

#include "db/store.h"
#include "db/store_int.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
__attribute__((unused)) static long samples_seen(const char *path, int64_t run)
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
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "schema version 2"));
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

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_store__create_and_check),
        UNIT_TEST(test_store__round_trip),
        UNIT_END,
    };
    return unit_run("store", tests, NULL, NULL);
}

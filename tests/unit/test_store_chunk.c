/* test_store_chunk.c -- samples packed in chunks (db/store_chunk.h): what the writer stores is
 * what the reader and the `samples` view give back, in (t_us, insertion) order; a version-7
 * file's samples table is migrated into chunks intact; a damaged chunk is an error, not a crash. */
#include "unit.h"

#include "db/store.h"
#include "db/store_chunk.h"
#include "db/store_legacy.h"
#include "fixture_db.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char errbuf[512];

static int64_t chunk_run(struct store *st)
{
    struct store_run_info info = { .name = "chunks", .transport = "tcp", .score_params = "{}", .started_us = 1 };
    return store_run_begin(st, &info);
}

/* Sample i of the pattern: times out of order by a few steps, equal times, negative values,
 * large session and loop numbers, every ok kind. */
static struct rec_sample pattern(unsigned i)
{
    struct rec_sample s = { .session = i % 7 == 0 ? 4000000000u : i % 13, .loop = i / 13,
                            .t_us = 1764460800000000ull + (i / 4) * 1000 + (i % 4 == 3 ? 0 : (i % 4) * 7),
                            .value_us = i % 11 == 0 ? -(int64_t)i : (int64_t)i * 977, .ok = (uint8_t)(i % 3),
                            .is_measure = i % 2 == 0 };
    snprintf(s.name, sizeof s.name, "%s", i % 5 ? "vsi" : "app_start");
    return s;
}

/* 3000 samples, a stretch of them for another run: each run's samples come back complete,
 * stable-sorted by time, fields intact; the view agrees with the reader. */
static void test_store_chunk__round_trip_and_view(void)
{
    const char *path = db_path("chunks.db");
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    int64_t a = chunk_run(st), b = chunk_run(st);
    for (unsigned i = 0; i < 3000; i++) {
        struct rec_sample s = pattern(i);
        CU_ASSERT_EQUAL_FATAL(store_add_sample(st, i >= 1000 && i < 1300 ? b : a, &s, i % 500), 0);
    }
    struct store_samples ss;
    CU_ASSERT_EQUAL_FATAL(store_load_samples(st, a, &ss), 0);    /* the writer sees its open batch */
    CU_ASSERT_EQUAL(ss.count, 2700);
    store_free_samples(&ss);
    store_close(st);
    CU_ASSERT(raw_int(path, "SELECT count(*) FROM sample_chunks") <= 6);     /* not one row per sample */
    CU_ASSERT_EQUAL(raw_int(path, "SELECT count(*) FROM samples"), 3000);
    st = store_open(path, STORE_READ, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL_FATAL(store_load_samples(st, a, &ss), 0);
    CU_ASSERT_EQUAL_FATAL(ss.count, 2700);
    unsigned want = 0, bad = 0;
    uint64_t last = 0;
    for (size_t k = 0; k < ss.count; k++) {
        const struct store_sample_row *r = &ss.rows[k];
        bad += r->t_us < last;
        last = r->t_us;
        /* the value says which sample this is; same-time samples keep insertion order */
        unsigned i = r->value_us < 0 ? (unsigned)-r->value_us : r->value_us % 11 == 0 && r->value_us == 0
                         ? 0 : (unsigned)(r->value_us / 977);
        struct rec_sample s = pattern(i);
        bad += r->session != s.session || r->loop != s.loop || r->t_us != s.t_us || r->ok != s.ok ||
               r->is_measure != s.is_measure || r->active != i % 500 || strcmp(ss.names[r->name_id], s.name);
        want++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(want, 2700);
    store_free_samples(&ss);
    store_close(st);
    /* the view: same rows, same values */
    CU_ASSERT_EQUAL(raw_int(path, "SELECT count(*) FROM samples WHERE run_id = 1"), 2700);
    CU_ASSERT_EQUAL(raw_int(path, "SELECT session FROM samples WHERE run_id = 1 AND value_us = -77"), 4000000000LL);
    CU_ASSERT_EQUAL(raw_int(path, "SELECT t_us FROM samples WHERE value_us = 977 * 2999"),
                    (long long)pattern(2999).t_us);
    CU_ASSERT_EQUAL(raw_int(path, "SELECT sum(ok = 2) FROM samples"), 1000);
    /* a row inserted through the view is a sample like any other */
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, "INSERT INTO samples (run_id, session, t_us, name_id, value_us, ok)"
                                         " VALUES (2, 5, 17, 1, -250, 1)"), SQLITE_OK);
    st = store_open(path, STORE_READ, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL_FATAL(store_load_samples(st, b, &ss), 0);
    CU_ASSERT_EQUAL_FATAL(ss.count, 301);
    CU_ASSERT_EQUAL(ss.rows[0].t_us, 17);
    CU_ASSERT_EQUAL(ss.rows[0].value_us, -250);
    CU_ASSERT_EQUAL(ss.rows[0].session, 5);
    store_free_samples(&ss);
    store_close(st);
}

/* 7 -> 8: a version-7 samples table (rows out of time order, two runs) becomes chunks; the
 * reader gives the same rows in the same (t_us, rowid) order, and the view the same values. */
static void test_store_chunk__migrate_v7(void)
{
    const char *path = db_path("v7.db");
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    store_close(st);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, STORE_LEGACY_V10), SQLITE_OK);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, STORE_LEGACY_HEALTH_V8), SQLITE_OK);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, STORE_LEGACY_SAMPLES_V7), SQLITE_OK);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, "INSERT INTO runs (name, started_us) VALUES ('old', 1), ('old2', 2);"
                                         "INSERT INTO timer_names (id, name) VALUES (3, 'vsi'), (9, 'app');"
                                         "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2499)"
                                         " INSERT INTO samples (run_id, session, loop, t_us, name_id, value_us, ok,"
                                         " is_measure, active) SELECT 1 + (i % 5 = 4), i % 17, i % 3,"
                                         " 5000000 - (i % 50) * 1000 + i / 50, CASE WHEN i % 2 THEN 3 ELSE 9 END,"
                                         " i - 100, i % 3, i % 2, i FROM n;"
                                         "PRAGMA user_version = 7"), SQLITE_OK);
    char report[2048];
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "schema version 7 (older"));
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "samples: 2500\n"));
    /* the expected order, from the old table itself */
    long long first = raw_int(path, "SELECT value_us FROM samples WHERE run_id = 1 ORDER BY t_us, rowid LIMIT 1");
    long long last = raw_int(path, "SELECT value_us FROM samples WHERE run_id = 1 ORDER BY t_us DESC, rowid DESC LIMIT 1");
    st = store_open(path, STORE_READ, errbuf, sizeof errbuf);       /* a reader migrates once */
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    struct store_samples ss;
    CU_ASSERT_EQUAL_FATAL(store_load_samples(st, 1, &ss), 0);
    CU_ASSERT_EQUAL_FATAL(ss.count, 2000);
    CU_ASSERT_EQUAL(ss.rows[0].value_us, first);
    CU_ASSERT_EQUAL(ss.rows[ss.count - 1].value_us, last);
    unsigned bad = 0;
    for (size_t k = 0; k < ss.count; k++) {
        const struct store_sample_row *r = &ss.rows[k];
        long long i = r->value_us + 100;
        bad += k && (r->t_us < ss.rows[k - 1].t_us ||
                     (r->t_us == ss.rows[k - 1].t_us && r->value_us < ss.rows[k - 1].value_us));
        bad += r->session != i % 17 || r->loop != i % 3 || r->ok != i % 3 || r->is_measure != i % 2 ||
               r->active != i || strcmp(ss.names[r->name_id], i % 2 ? "vsi" : "app");
    }
    CU_ASSERT_EQUAL(bad, 0);
    store_free_samples(&ss);
    store_close(st);
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, FIXTURE_DB_CURRENT));
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "samples: 2500\n"));
    CU_ASSERT_EQUAL(raw_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'samples_v7'"), 0);
    CU_ASSERT_EQUAL(raw_int(path, "SELECT sum(value_us) FROM samples WHERE run_id = 2"),
                    raw_int(path, "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2499)"
                                  " SELECT sum(i - 100) FROM n WHERE i % 5 = 4"));
}

/* A chunk whose data is not what its widths say: the reader and `db check` name it. */
static void test_store_chunk__damaged(void)
{
    const char *path = db_path("damaged.db");
    struct store *st = store_open(path, STORE_WRITE, errbuf, sizeof errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    int64_t run = chunk_run(st);
    for (unsigned i = 0; i < 10; i++) {
        struct rec_sample s = pattern(i);
        CU_ASSERT_EQUAL_FATAL(store_add_sample(st, run, &s, 1), 0);
    }
    store_close(st);
    const char *edits[] = { "UPDATE sample_chunks SET data = CAST('Z' || substr(data, 2) AS BLOB)",
                            "UPDATE sample_chunks SET n = 11", "UPDATE sample_chunks SET w_value = 0",
                            "UPDATE sample_chunks SET data = zeroblob(3)", "UPDATE sample_chunks SET n = 100000",
                            "UPDATE sample_chunks SET w_loop = 9223372036854775807" };
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        sqlite3 *db = NULL;
        CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &db), SQLITE_OK);
        sqlite3_exec(db, "CREATE TEMP TABLE keep AS SELECT * FROM sample_chunks", NULL, NULL, NULL);
        sqlite3_exec(db, edits[e], NULL, NULL, NULL);
        st = store_open(path, STORE_READ, errbuf, sizeof errbuf);
        CU_ASSERT_PTR_NOT_NULL_FATAL(st);
        struct store_samples ss;
        CU_ASSERT_EQUAL(store_load_samples(st, run, &ss), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(store_errmsg(st), "corrupt sample chunk 1: "));
        store_close(st);
        char report[2048];
        CU_ASSERT_EQUAL(store_check(path, report, sizeof report), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(report, ": corrupt database: sample chunk 1: "));
        sqlite3_exec(db, "DELETE FROM sample_chunks; INSERT INTO sample_chunks SELECT * FROM keep", NULL, NULL, NULL);
        sqlite3_close(db);
    }
    char report[2048];
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_store_chunk__round_trip_and_view),
        UNIT_TEST(test_store_chunk__migrate_v7),
        UNIT_TEST(test_store_chunk__damaged),
        UNIT_END,
    };
    return unit_run("store_chunk", tests, NULL, NULL);
}

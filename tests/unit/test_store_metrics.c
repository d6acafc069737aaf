/* test_store_metrics.c -- the target_metrics table: rows round-trip with figures not reported
 * as NaN (NULL), in time order per run, and a version 11 file migrates to a working table. */
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/store_metrics.h"
#include "fixture_db.h"

static void test_store_metrics__round_trip(void)
{
    const char *path = db_path("metrics.db");
    struct store *st = open_ok(path, STORE_WRITE);
    int64_t run = begin_run(st, "m"), other = begin_run(st, "other");
    struct store_target_metrics m;
    store_target_metrics_clear(&m);
    snprintf(m.source, sizeof m.source, "rds01:9182");
    m.t_us = 2000;
    m.active = 84;
    m.cpu_pct = 97.5;
    m.mem_used_bytes = 1e9;
    m.mem_avail_bytes = 3e9;
    m.sessions = 84;
    CU_ASSERT_EQUAL(store_add_target_metrics(st, run, &m), 0);
    m.t_us = 1000;
    m.active = 80;
    m.disk_busy_pct = 12;
    CU_ASSERT_EQUAL(store_add_target_metrics(st, run, &m), 0);
    CU_ASSERT_EQUAL(store_add_target_metrics(st, other, &m), 0);
    store_close(st);

    st = open_ok(path, STORE_READ);
    struct store_target_metrics *rows = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL(store_load_target_metrics(st, run, &rows, &n), 0);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(rows[0].t_us, 1000);
    CU_ASSERT_EQUAL(rows[0].active, 80);
    CU_ASSERT_DOUBLE_EQUAL(rows[0].disk_busy_pct, 12, 0);
    CU_ASSERT(isnan(rows[1].disk_busy_pct));
    CU_ASSERT(isnan(rows[1].net_rx_bps));
    CU_ASSERT_DOUBLE_EQUAL(rows[1].cpu_pct, 97.5, 0);
    CU_ASSERT_DOUBLE_EQUAL(rows[1].mem_avail_bytes, 3e9, 0);
    CU_ASSERT_STRING_EQUAL(rows[1].source, "rds01:9182");
    free(rows);
    CU_ASSERT_EQUAL(store_load_target_metrics(st, 99, &rows, &n), 0);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_PTR_NULL(rows);
    store_close(st);
}

/* A file from before target_metrics (version 11) gets the table. */
static void test_store_metrics__migrate_v11(void)
{
    const char *path = db_path("v11.db");
    struct store *st = open_ok(path, STORE_WRITE);
    store_close(st);
    CU_ASSERT_EQUAL_FATAL(raw_exec(path, "DROP TABLE target_metrics; PRAGMA user_version = 11"), SQLITE_OK);
    char report[2048];
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "schema version 11 (older"));
    st = open_ok(path, STORE_WRITE);
    int64_t run = begin_run(st, "after");
    struct store_target_metrics m;
    store_target_metrics_clear(&m);
    m.cpu_pct = 50;
    CU_ASSERT_EQUAL(store_add_target_metrics(st, run, &m), 0);
    store_close(st);
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, FIXTURE_DB_CURRENT));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_store_metrics__round_trip),
        UNIT_TEST(test_store_metrics__migrate_v11),
        UNIT_END,
    };
    return unit_run("store_metrics", tests, NULL, NULL);
}

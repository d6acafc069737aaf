/* fixture_db.h -- small helpers the results-store tests share (test_store_write.c,
 * test_store_schema.c, test_store_kill.c): opening a store that must open, a fresh database path,
 * a sample, a run begun with fixed fields, the sample count a second connection sees, and raw SQLite
 * access to fabricate files sessmax itself would never write. Static inline functions only, so each
 * test uses what it needs. */
#ifndef SESSMAX_FIXTURE_DB_H
#define SESSMAX_FIXTURE_DB_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "db/store.h"
#include "unit.h"

/* What store_check reports for a file at the current schema version. */
#define FIXTURE_DB_CURRENT "schema version 12\n"

/* Opens `path` and asserts it opened (a failure prints the store's error). */
static inline struct store *open_ok(const char *path, enum store_mode mode)
{
    char err[512];
    struct store *st = store_open(path, mode, err, sizeof err);
    if (!st)
        fprintf(stderr, "\n  %s\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    return st;
}

/* A fresh database path under the test's temporary directory (static buffer). */
static inline const char *db_path(const char *name)
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

static inline struct rec_sample sample(uint32_t session, uint64_t t_us, const char *name, int64_t value_us)
{
    struct rec_sample s = { .session = session, .loop = 1, .t_us = t_us, .value_us = value_us, .ok = 1 };
    snprintf(s.name, sizeof s.name, "%s", name);
    return s;
}

static inline int64_t begin_run(struct store *st, const char *name)
{
    struct store_run_info info = { .name = name, .transport = "tcp", .platform = "test", .network = "lan",
                                   .target = "127.0.0.1:3389", .workload_name = "wl", .workload_hash = "abc",
                                   .plan_text = "plan: yes\n", .score_params = "{}", .sessions_planned = 3,
                                   .started_us = 1000 };
    return store_run_begin(st, &info);
}

/* Number of samples of `run` seen by a separate read-only connection. */
static inline long samples_seen(const char *path, int64_t run)
{
    char err[512];
    struct store *rd = store_open(path, STORE_READ, err, sizeof err);
    if (!rd)
        return -1;
    struct store_samples s;
    long n = store_load_samples(rd, run, &s) == 0 ? (long)s.count : -1;
    store_free_samples(&s);
    store_close(rd);
    return n;
}

/* Test-only raw SQLite access, to fabricate files sessmax itself would never write. */
static inline int raw_exec(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open(path, &db) == SQLITE_OK ? sqlite3_exec(db, sql, NULL, NULL, NULL) : -1;
    sqlite3_close(db);
    return rc;
}

#endif

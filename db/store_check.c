/* store_check.c -- `sessmax db check`: is this a sessmax database, which schema version, does
 * SQLite's integrity_check pass, does every sample chunk decode, and what it holds. Opens the file read-only and never migrates
 * it, so checking a file (even one a killed writer left with a WAL) changes nothing but -shm. */
#include "db/store_check.h"
#include "db/store_chunk.h"
#include "db/store_conn.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct report {
    char *buf;
    size_t len, used;
};

static void say(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct report *r, const char *fmt, ...)
{
    if (!r->buf || r->used >= r->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->buf + r->used, r->len - r->used, fmt, ap);
    va_end(ap);
    if (n > 0)
        r->used += (size_t)n < r->len - r->used ? (size_t)n : r->len - r->used - 1;
}

static int64_t count(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *s = NULL;
    int64_t n = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return n;
}

/* Counts the problems in one row of integrity_check output (a row may hold several lines) and
 * keeps the first one seen in `first` (left alone once set). */
static int problems_in(const char *text, char *first, size_t firstlen)
{
    int n = 0;
    while (text && *text) {
        size_t len = strcspn(text, "\n");
        int header = strncmp(text, "*** in database", 15) == 0;
        if (len && !header && !(len == 2 && strncmp(text, "ok", 2) == 0) && n++ == 0 && !first[0])
            snprintf(first, firstlen, "%.*s", (int)len, text);
        text += len + (text[len] == '\n');
    }
    return n;
}

/* integrity_check answers "ok" or lines of problems (at most 100); the report gets one line. */
static int integrity(sqlite3 *db, const char *path, struct report *r)
{
    sqlite3_stmt *s = NULL;
    char first[256] = "";
    int rc, problems = 0;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check(100)", -1, &s, NULL) != SQLITE_OK) {
        say(r, "%s: corrupt database: %s\n", path, sqlite3_errmsg(db));
        return -1;
    }
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        problems += problems_in((const char *)sqlite3_column_text(s, 0), first, sizeof first);
    if (rc != SQLITE_DONE) {
        say(r, "%s: corrupt database: %s\n", path, sqlite3_errmsg(db));
        sqlite3_finalize(s);
        return -1;
    }
    sqlite3_finalize(s);
    if (problems) {
        say(r, "%s: corrupt database: integrity_check found %d%s problem%s, first: %s\n", path, problems,
            problems >= 100 ? " or more" : "", problems == 1 ? "" : "s", first);
        return -1;
    }
    if (count(db, "SELECT count(*) FROM pragma_foreign_key_check") > 0) {
        say(r, "%s: corrupt database: rows refer to runs that do not exist\n", path);
        return -1;
    }
    return 0;
}

/* Whether chunk row `s` has its shape and decimal records; NULL or what is wrong. */
static const char *chunk_problem(sqlite3_stmt *s)
{
    struct store_chunk_view v;
    store_chunk_view_read(&v, s, 1);
    const char *why;
    struct store_chunk_rec rec;
    if (store_chunk_check(&v, &why) != 0)
        return why;
    for (size_t k = 0; k < (size_t)v.n; k++)
        if (store_chunk_decode(&v, k, &rec) != 0)
            return "a record is not decimal";
    return NULL;
}

/* Every sample chunk decodes (SQLite's integrity_check cannot see inside a BLOB). */
static int chunks(sqlite3 *db, const char *path, int version, struct report *r)
{
    sqlite3_stmt *s = NULL;
    const char *why = NULL;
    /* before version 13 no chunk has an agent share: its width reads as 0 */
    int rc = sqlite3_prepare_v2(db, version >= 13 ?
                                "SELECT id, n, t_min, w_session, w_loop, w_t, w_name, w_value, w_ok, w_measure,"
                                " w_active, w_agent, data FROM sample_chunks ORDER BY id" :
                                "SELECT id, n, t_min, w_session, w_loop, w_t, w_name, w_value, w_ok, w_measure,"
                                " w_active, 0, data FROM sample_chunks ORDER BY id", -1, &s, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW && !(why = chunk_problem(s)))
        rc = SQLITE_OK;
    if (why)
        say(r, "%s: corrupt database: sample chunk %lld: %s\n", path, (long long)sqlite3_column_int64(s, 0), why);
    else if (rc != SQLITE_DONE)
        say(r, "%s: corrupt database: %s\n", path, sqlite3_errmsg(db));
    sqlite3_finalize(s);
    return why || rc != SQLITE_DONE ? -1 : 0;
}

static void contents(sqlite3 *db, struct report *r)
{
    say(r, "runs: %lld (%lld running, %lld aborted)\n",
        (long long)count(db, "SELECT count(*) FROM runs"),
        (long long)count(db, "SELECT count(*) FROM runs WHERE status = 'running'"),
        (long long)count(db, "SELECT count(*) FROM runs WHERE status = 'aborted'"));
    say(r, "sessions: %lld\n", (long long)count(db, "SELECT count(*) FROM sessions"));
    say(r, "samples: %lld\n", (long long)count(db, "SELECT count(*) FROM samples"));
}

int store_check(const char *path, char *report, size_t reportlen)
{
    struct report r = { report, reportlen, 0 };
    char err[512];
    sqlite3 *db = NULL;
    int kind = 0, version = 0, rc = -1;
    if (report && reportlen)
        report[0] = '\0';
    if (store_connect(path, SQLITE_OPEN_READONLY, &db, err, sizeof err) != 0 ||
        store_identify(db, path, &kind, &version, err, sizeof err) != 0) {
        say(&r, "%s\n", err);
        goto done;
    }
    if (kind == 0) {
        say(&r, "%s: not a sessmax database (an empty file)\n", path);
        goto done;
    }
    say(&r, "%s: sessmax database, schema version %d%s\n", path, version,
        version < STORE_SCHEMA_VERSION ? " (older; migrated when next opened)" : "");
    if (integrity(db, path, &r) != 0 || (version >= 8 && chunks(db, path, version, &r) != 0))
        goto done;
    say(&r, "integrity: ok\n");
    contents(db, &r);
    rc = 0;
done:
    sqlite3_close(db);
    return rc;
}

int store_check_params(const char *path, store_check_params_fn fn, void *ctx, char *err, size_t errlen)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int rc = store_connect(path, SQLITE_OPEN_READONLY, &db, err, errlen);
    if (rc == 0 && sqlite3_prepare_v2(db, "SELECT id, score_params FROM runs ORDER BY id", -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(db));
        rc = -1;
    }
    int step = SQLITE_DONE;
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW)
        fn(ctx, sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1));
    if (rc == 0 && step != SQLITE_DONE) {
        snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(db));
        rc = -1;
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc;
}

/* store.c -- opening and closing a results database: connection pragmas, recognising a sessmax
 * file (and refusing anything else), and the one-line errors every store function returns.
 * Schema creation and migrations live in store_migrate.c, the writer in store_write.c, the
 * reader in store_read.c, `db check` in store_check.c. */
#include "db/store.h"
#include "db/store_int.h"
#include "db/store_ckpt.h"

#include "common/log.h"
#include "db/store_migrate.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define STORE_BUSY_TIMEOUT_MS 5000
#define STORE_MMAP_BYTES "1073741824"   /* map up to 1 GiB of the file */
#define STORE_CACHE_KIB "-65536"        /* page cache: 64 MiB (negative: KiB, SQLite's unit) */

int store_fail(struct store *st, const char *fmt, ...)
{
    int n = snprintf(st->err, sizeof st->err, "%s: ", st->path);
    if (n < 0 || (size_t)n >= sizeof st->err)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->err + n, sizeof st->err - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

int store_fail_db(struct store *st, const char *what)
{
    return store_fail(st, "%s: %s", what, sqlite3_errmsg(st->db));
}

const char *store_errmsg(const struct store *st)
{
    return st ? st->err : "no store";
}

static int pragma_int(sqlite3 *db, const char *sql, int *out)
{
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        *out = sqlite3_column_int(s, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(s);
    return rc;
}

/* A file SQLite cannot read at all says "file is not a database"; say it in our words. */
static void identify_error(sqlite3 *db, const char *path, int rc, char *err, size_t errlen)
{
    if (rc == SQLITE_NOTADB)
        snprintf(err, errlen, "%s: not a sessmax database (not an SQLite file at all)", path);
    else if (rc == SQLITE_CORRUPT)
        snprintf(err, errlen, "%s: corrupt database: %s", path, sqlite3_errmsg(db));
    else
        snprintf(err, errlen, "%s: cannot read: %s", path, sqlite3_errmsg(db));
}

int store_identify(sqlite3 *db, const char *path, int *kind, int *version, char *err, size_t errlen)
{
    int app = 0, tables = 0, rc;
    if ((rc = pragma_int(db, "PRAGMA application_id", &app)) != SQLITE_OK ||
        (rc = pragma_int(db, "PRAGMA user_version", version)) != SQLITE_OK ||
        (rc = pragma_int(db, "SELECT count(*) FROM sqlite_schema", &tables)) != SQLITE_OK) {
        identify_error(db, path, rc, err, errlen);
        return -1;
    }
    if (tables == 0 && app == 0 && *version == 0) {
        *kind = 0;
        return 0;
    }
    *kind = (app == STORE_APPLICATION_ID) ? 1 : -1;
    if (*kind < 0) {
        /* Files written before application_id was set are still known by their meta row. */
        sqlite3_stmt *s = NULL;
        if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'application'", -1, &s, NULL) == SQLITE_OK &&
            sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0) &&
            strcmp((const char *)sqlite3_column_text(s, 0), "sessmax") == 0)
            *kind = 1;
        sqlite3_finalize(s);
    }
    if (*kind < 0)
        snprintf(err, errlen, "%s: not a sessmax database (an SQLite file of another application)", path);
    else if (*version <= 0)
        snprintf(err, errlen, "%s: corrupt sessmax database: no schema version", path);
    else if (*version > STORE_SCHEMA_VERSION)
        snprintf(err, errlen, "%s: schema version %d is newer than this sessmax supports (%d); use a newer sessmax",
                 path, *version, STORE_SCHEMA_VERSION);
    else
        return 0;
    return -1;
}

int store_connect(const char *path, int flags, sqlite3 **out, char *err, size_t errlen)
{
    struct stat sb;
    *out = NULL;
    if (!(flags & SQLITE_OPEN_CREATE) && stat(path, &sb) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: cannot open: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return -1;
    }
    sqlite3_busy_timeout(db, STORE_BUSY_TIMEOUT_MS);
    sqlite3_extended_result_codes(db, 0);
    /* a reader goes through a run's rows in time order by an index, one table seek per row:
     * with the file mapped and a page cache that holds the indexes' working set, a seek is a
     * memory access, not a pread. The writer keeps SQLite's defaults (its RSS stays its own, and
     * a big open batch spills to the WAL as before). */
    if (!(flags & SQLITE_OPEN_READWRITE))
        sqlite3_exec(db, "PRAGMA mmap_size = " STORE_MMAP_BYTES "; PRAGMA cache_size = " STORE_CACHE_KIB,
                     NULL, NULL, NULL);
    *out = db;
    return 0;
}

/* WAL lets readers (score, report, dashboard) run while the controller writes; NORMAL syncs at
 * checkpoints only, so a process crash loses nothing committed (a power cut may lose the tail). */
static int tune_writer(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    sqlite3_stmt *s = NULL;
    int ok = sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &s, NULL) == SQLITE_OK &&
             sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0) &&
             strcmp((const char *)sqlite3_column_text(s, 0), "wal") == 0;
    sqlite3_finalize(s);
    if (!ok || sqlite3_exec(db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: cannot switch to WAL mode: %s", path, sqlite3_errmsg(db));
        return -1;
    }
    return 0;
}

/* Readers of an older file: migrate it once through a short-lived writable connection. */
static int migrate_for_reader(const char *path, char *err, size_t errlen)
{
    sqlite3 *db = NULL;
    int rc = store_connect(path, SQLITE_OPEN_READWRITE, &db, err, errlen);
    if (rc == 0)
        rc = tune_writer(db, path, err, errlen);
    if (rc == 0)
        rc = store_migrate(db, path, err, errlen);
    sqlite3_close(db);
    return rc;
}

static int open_connection(struct store *st)
{
    /* a store is used by one thread at a time: no per-call mutex (a third of a reader's time
     * stepping through a million sample rows went to locking and unlocking it) */
    int flags = (st->mode == STORE_WRITE ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY) |
                SQLITE_OPEN_NOMUTEX;
    int kind = 0, version = 0;
    if (store_connect(st->path, flags, &st->db, st->err, sizeof st->err) != 0)
        return -1;
    if (store_identify(st->db, st->path, &kind, &version, st->err, sizeof st->err) != 0)
        return -1;
    if (st->mode == STORE_WRITE) {
        if (tune_writer(st->db, st->path, st->err, sizeof st->err) != 0 ||
            store_migrate(st->db, st->path, st->err, sizeof st->err) != 0)
            return -1;
        st->ckpt = store_ckpt_start(st->path, st->db);
        return 0;
    }
    if (kind == 0)
        return store_fail(st, "not a sessmax database (an empty file)");
    if (version < STORE_SCHEMA_VERSION) {
        sqlite3_close(st->db);
        st->db = NULL;
        if (migrate_for_reader(st->path, st->err, sizeof st->err) != 0)
            return -1;
        return store_connect(st->path, flags, &st->db, st->err, sizeof st->err);
    }
    return 0;
}

struct store *store_open(const char *path, enum store_mode mode, char *err, size_t errlen)
{
    struct store *st = calloc(1, sizeof *st);
    if (!st || !(st->path = strdup(path))) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(st);
        return NULL;
    }
    st->mode = mode;
    st->max_rows = 5000;
    st->max_age_us = 200000;
    if (open_connection(st) != 0) {
        snprintf(err, errlen, "%s", st->err);
        sqlite3_close(st->db);
        free(st->path);
        free(st);
        return NULL;
    }
    return st;
}

void store_close(struct store *st)
{
    if (!st)
        return;
    if (st->in_tx && store_flush(st) != 0)
        log_error("%s", st->err);
    store_finalize_all(st);
    store_names_clear(st);
    free(st->names);
    free(st->chunk);
    store_ckpt_stop(st->ckpt);   /* first: the writer closes last and folds the WAL back */
    sqlite3_close(st->db);
    free(st->path);
    free(st);
}

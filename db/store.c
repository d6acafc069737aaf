/* store.c -- opening and closing a results database: the writer's WAL pragmas, migrating an
 * older file (for a writer in place, for a reader once through a short-lived writable
 * connection) and refusing anything else. Connecting and recognising a sessmax file live in
 * store_conn.c, the handle and its errors in store_handle.c, schema creation and migrations in
 * store_migrate.c, the writer in store_write.c, the reader in store_read.c, `db check` in
 * store_check.c. */
#include "db/store.h"
#include "db/store_int.h"
#include "db/store_ckpt.h"

#include "common/log.h"
#include "db/store_migrate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *store_errmsg(const struct store *st)
{
    return st ? st->err : "no store";
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

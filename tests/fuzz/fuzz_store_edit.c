/* fuzz_store_edit.c -- see fuzz_store_edit.h. */
#include "fuzz_store_edit.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/store_int.h"
#include "fixture_store.h"

#define MAX_EDITS 8
#define MAX_COLS 256

static char *cols[MAX_COLS][4];          /* table, column, the key that picks a row, its order */
static size_t ncols;
static unsigned char *tmpl_bytes;        /* the template database, serialized */
static sqlite3_int64 tmpl_len;
static struct store shell;               /* the reader's handle over `shell.db` */

/* "rowid", or for a WITHOUT ROWID table its primary key as a row value "(a, b)". */
static char *row_key(sqlite3 *db, const char *table)
{
    char sql[256], key[256] = "";
    sqlite3_stmt *q;
    snprintf(sql, sizeof sql, "SELECT rowid FROM \"%s\"", table);
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK) {
        sqlite3_finalize(q);
        return strdup("rowid");
    }
    snprintf(sql, sizeof sql, "SELECT name FROM pragma_table_info('%s') WHERE pk > 0 ORDER BY pk", table);
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        abort();
    while (sqlite3_step(q) == SQLITE_ROW)
        snprintf(key + strlen(key), sizeof key - strlen(key), "%s\"%s\"", key[0] ? ", " : "(",
                 (const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    snprintf(key + strlen(key), sizeof key - strlen(key), ")");
    return strdup(key);
}

/* Writes the template with the real writer into a scratch file, keeps its bytes, removes it. */
static void make_template(void)
{
    char path[64], err[256];
    /* No memory statistics (a mutex per malloc). A larger lookaside would keep SQLite's small
     * objects off the sanitizer's malloc, but Debian's SQLite is built with OMIT_LOOKASIDE. */
    if (sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) != SQLITE_OK ||
        sqlite3_config(SQLITE_CONFIG_PAGECACHE, NULL, 0, 0) != SQLITE_OK)
        abort();
    snprintf(path, sizeof path, "/dev/shm/fuzz_store-%d.db", (int)getpid());
    unlink(path);
    struct store *st = store_open(path, STORE_WRITE, err, sizeof err);
    struct fixture_run f[2] = {
        { "a", "tcp", "ws", "lan", 12, 6, 1, 0, 3000, { "smax >= 5", "p95(app_start) < 9000", NULL }, 0, 0, FAIL_NONE },
        { "b", "tcp", "ws", "wan", 5, 100, 0, 1, 3000, { "smax >= 20", NULL }, 1, 0, FAIL_NONE },
    };
    if (!st || fixture_write_run(st, &f[0], NULL) < 0 || fixture_write_run(st, &f[1], NULL) < 0)
        abort();
    store_close(st);
    sqlite3 *db;
    sqlite3_stmt *q;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p "
                               "WHERE m.type = 'table' ORDER BY 1, 2", -1, &q, NULL) != SQLITE_OK)
        abort();
    while (sqlite3_step(q) == SQLITE_ROW && ncols < MAX_COLS) {
        cols[ncols][0] = strdup((const char *)sqlite3_column_text(q, 0));
        cols[ncols][1] = strdup((const char *)sqlite3_column_text(q, 1));
        cols[ncols][2] = row_key(db, cols[ncols][0]);
        cols[ncols][3] = strdup(cols[ncols][2]);
        if (cols[ncols][3][0] == '(') {                     /* "(a, b)" orders as "a, b" */
            memmove(cols[ncols][3], cols[ncols][3] + 1, strlen(cols[ncols][3]));
            cols[ncols][3][strlen(cols[ncols][3]) - 1] = '\0';
        }
        ncols++;
    }
    sqlite3_finalize(q);
    if (!(tmpl_bytes = sqlite3_serialize(db, "main", &tmpl_len, 0)))
        abort();
    sqlite3_close(db);
    unlink(path);
    if (sqlite3_open(":memory:", &shell.db) != SQLITE_OK || !(shell.path = strdup("fuzz.db")))
        abort();
    shell.mode = STORE_READ;
}

/* The template goes into the shell's connection once; each input's edits are made inside a
 * savepoint that fuzz_store_done rolls back, so the schema SQLite parsed stays valid. */
static void load_template(void)
{
    unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)tmpl_len);
    if (!copy)
        abort();
    memcpy(copy, tmpl_bytes, (size_t)tmpl_len);
    if (sqlite3_deserialize(shell.db, "main", copy, tmpl_len, tmpl_len,
                            SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) != SQLITE_OK)
        abort();
}

/* The UPDATE of column c, prepared on first use and kept: statements stay valid across the
 * savepoints (the schema never changes). NULL when SQLite refuses it (kept as refused). */
static sqlite3_stmt *update_stmt(size_t c)
{
    static sqlite3_stmt *stmt[MAX_COLS];
    static unsigned char refused[MAX_COLS];
    if (!stmt[c] && !refused[c]) {
        char sql[768];
        const char *const *k = (const char *const *)cols[c];
        snprintf(sql, sizeof sql, "UPDATE \"%s\" SET \"%s\" = ?1 WHERE %s = (SELECT %s FROM \"%s\" "
                 "ORDER BY %s LIMIT 1 OFFSET ?2)", k[0], k[1], k[2], k[3], k[0], k[3]);
        if (sqlite3_prepare_v3(shell.db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt[c], NULL) != SQLITE_OK) {
            sqlite3_finalize(stmt[c]);
            stmt[c] = NULL;
            refused[c] = 1;
        }
    }
    return stmt[c];
}

static void apply_edits(const uint8_t *data, size_t size)
{
    for (int e = 0; e < MAX_EDITS && size >= 6; e++) {
        unsigned row = (unsigned)data[2] << 8 | data[3], kind = data[4] % 4;
        size_t len = data[5] < size - 6 ? data[5] : size - 6;
        const uint8_t *v = data + 6;
        sqlite3_stmt *q = update_stmt(data[0] % ncols);
        if (q) {
            int64_t x = 0;
            memcpy(&x, v, len < sizeof x ? len : sizeof x);
            double d;
            memcpy(&d, &x, sizeof d);
            if (kind == 0) sqlite3_bind_blob(q, 1, v, (int)len, SQLITE_TRANSIENT);
            else if (kind == 1) sqlite3_bind_text(q, 1, (const char *)v, (int)len, SQLITE_TRANSIENT);
            else if (kind == 2) sqlite3_bind_int64(q, 1, x);
            else sqlite3_bind_double(q, 1, d);
            sqlite3_bind_int(q, 2, (int)(row % 4096));
            sqlite3_step(q);
            sqlite3_reset(q);
            sqlite3_clear_bindings(q);
        }
        data += 6 + len;
        size -= 6 + len;
    }
}

/* Rolls back the edits of the input before: its journal and its dirty pages are freed in the input
 * that made them, so every input frees what it allocated (libFuzzer runs an input whose mallocs
 * outnumber its frees a second time, to look for a leak). */
void fuzz_store_done(void)
{
    static sqlite3_stmt *rollback, *release;
    if (!rollback && (sqlite3_prepare_v3(shell.db, "ROLLBACK TO edits", -1, SQLITE_PREPARE_PERSISTENT, &rollback, NULL) != SQLITE_OK ||
                      sqlite3_prepare_v3(shell.db, "RELEASE edits", -1, SQLITE_PREPARE_PERSISTENT, &release, NULL) != SQLITE_OK))
        abort();
    if (sqlite3_step(rollback) != SQLITE_DONE || sqlite3_reset(rollback) != SQLITE_OK ||
        sqlite3_step(release) != SQLITE_DONE || sqlite3_reset(release) != SQLITE_OK) {
        fprintf(stderr, "fuzz_store_edit: rollback: %s\n", sqlite3_errmsg(shell.db));
        abort();
    }
}

struct store *fuzz_store_edited(const uint8_t *data, size_t size)
{
    static sqlite3_stmt *savepoint;
    if (!ncols) {
        make_template();
        load_template();
        if (sqlite3_prepare_v3(shell.db, "SAVEPOINT edits", -1, SQLITE_PREPARE_PERSISTENT, &savepoint, NULL) != SQLITE_OK)
            abort();
    }
    if (sqlite3_step(savepoint) != SQLITE_DONE || sqlite3_reset(savepoint) != SQLITE_OK) {
        fprintf(stderr, "fuzz_store_edit: savepoint: %s\n", sqlite3_errmsg(shell.db));
        abort();
    }
    apply_edits(data, size);
    int kind = 0, version = 0;
    char err[512];
    if (store_identify(shell.db, shell.path, &kind, &version, err, sizeof err) != 0 || kind != 1 ||
        version != STORE_SCHEMA_VERSION) {
        fuzz_store_done();
        return NULL;
    }
    return &shell;
}

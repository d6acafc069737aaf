/* store_handle.h -- the store handle the files of db/ share: the connection, the writer's cached
 * statements and batch, the reader's statement cache, and the one-line error helpers. Not for
 * callers outside db/ (tests excepted); they see struct store as opaque (store.h). */
#ifndef SESSMAX_STORE_HANDLE_H
#define SESSMAX_STORE_HANDLE_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "db/store_types.h"

/* Writer statements, prepared once on first use and reused (store_write.c owns the SQL). */
enum store_stmt_id {
    STMT_BEGIN, STMT_COMMIT, STMT_ROLLBACK,
    STMT_NAME_FIND, STMT_NAME_ADD,
    STMT_CHUNK, STMT_TRAFFIC, STMT_HEALTH, STMT_EVENT, STMT_COPY_TIMER, STMT_TARGET_LOAD,
    STMT_RUN_BEGIN, STMT_RUN_END, STMT_RUN_SCORE, STMT_RUN_STALE, STMT_MATRIX_BEGIN,
    STMT_AGENT_ADD, STMT_AGENT_STATUS, STMT_AGENT_CLOCK,
    STMT_SESSION_LAUNCH, STMT_SESSION_TOUCH, STMT_SESSION_ACTIVE, STMT_SESSION_LOGON, STMT_SESSION_FAILED,
    STMT_SESSION_ENDED, STMT_SESSION_LOST,
    STMT__COUNT
};

#define STORE_READERS 32

struct store_name {
    char *name;
    int64_t id;
};

struct store {
    sqlite3 *db;
    struct store_ckpt *ckpt;     /* the writer's checkpoint thread; NULL: SQLite's automatic one */
    char *path;
    enum store_mode mode;
    char err[512];
    sqlite3_stmt *stmt[STMT__COUNT];
    /* batching (writer) */
    unsigned max_rows;
    uint64_t max_age_us;
    unsigned pending;            /* rows written in the open transaction */
    int in_tx;
    uint64_t batch_started_us;   /* monotonic */
    /* samples not yet written: packed into one sample_chunks row when it is full, when a sample
     * of another run comes, and before every commit (store_chunk.h); malloc'd on first use */
    struct store_chunk *chunk;
    /* interned timer names known to be committed or in the open transaction */
    struct store_name *names;
    size_t name_count, name_cap;
    /* reader statements (store_reader), prepared on first use and kept, keyed by their SQL */
    struct { char *sql; sqlite3_stmt *s; } reader[STORE_READERS];
    size_t reader_count;
};

/* Formats "path: message" into st->err and returns -1. */
int store_fail(struct store *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Same, appending SQLite's message for the handle: "path: what: sqlite says". */
int store_fail_db(struct store *st, const char *what);

/* A reader statement for `sql`: prepared on the handle's first use of that SQL and kept (a
 * report or score reads several runs with the same dozen queries; preparing them on every call
 * was most of the reading time of a small run). NULL on failure (st->err filled). Give it back
 * with store_reader_done, which resets it (ending its read) or finalizes one not kept. */
sqlite3_stmt *store_reader(struct store *st, const char *sql);
void store_reader_done(struct store *st, sqlite3_stmt *s);

#endif

/* store_int.h -- what the store's own files share: the handle, its cached statements and the
 * error helper. Not for callers outside db/ (tests excepted). */
#ifndef SESSMAX_STORE_INT_H
#define SESSMAX_STORE_INT_H

#include "db/store.h"

#include <sqlite3.h>

/* 'SSMX': PRAGMA application_id of every sessmax database. */
#define STORE_APPLICATION_ID 0x53534D58

/* Writer statements, prepared once on first use and reused (store_write.c owns the SQL). */
enum store_stmt_id {
    STMT_BEGIN, STMT_COMMIT, STMT_ROLLBACK,
    STMT_NAME_FIND, STMT_NAME_ADD,
    STMT_CHUNK, STMT_TRAFFIC, STMT_HEALTH, STMT_EVENT, STMT_COPY_TIMER, STMT_TARGET_LOAD,
    STMT_RUN_BEGIN, STMT_RUN_END, STMT_RUN_SCORE, STMT_RUN_STALE, STMT_MATRIX_BEGIN,
    STMT_AGENT_ADD, STMT_AGENT_STATUS, STMT_AGENT_CLOCK,
    STMT_SESSION_LAUNCH, STMT_SESSION_TOUCH, STMT_SESSION_ACTIVE, STMT_SESSION_FAILED,
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
    /* reader statements (store_read.c), prepared on first use and kept, keyed by their SQL */
    struct { char *sql; sqlite3_stmt *s; } reader[STORE_READERS];
    size_t reader_count;
};

/* Formats "path: message" into st->err and returns -1. */
int store_fail(struct store *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Same, appending SQLite's message for the handle: "path: what: sqlite says". */
int store_fail_db(struct store *st, const char *what);

/* Opens a connection with the store's pragmas (WAL, synchronous=NORMAL, busy_timeout). */
int store_connect(const char *path, int flags, sqlite3 **out, char *err, size_t errlen);

/* Reads user_version and whether the file is marked as sessmax. *kind: 0 = empty (no tables),
 * 1 = sessmax, -1 = some other SQLite database. Returns 0 or -1 (err filled). */
int store_identify(sqlite3 *db, const char *path, int *kind, int *version, char *err, size_t errlen);

void store_names_clear(struct store *st);
void store_finalize_all(struct store *st);
/* A reader statement for `sql`: prepared on the handle's first use of that SQL and kept (a
 * report or score reads several runs with the same dozen queries; preparing them on every call
 * was most of the reading time of a small run). NULL on failure (st->err filled). Give it back
 * with store_reader_done, which resets it (ending its read) or finalizes one not kept. */
sqlite3_stmt *store_reader(struct store *st, const char *sql);
void store_reader_done(struct store *st, sqlite3_stmt *s);
/* Writes the waiting samples as a chunk into the open batch (a no-op when there are none). */
int store_chunk_flush(struct store *st);

#endif

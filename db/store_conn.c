/* store_conn.c -- opening a connection to a results file with the store's pragmas, and telling a
 * sessmax file (and its schema version) from an empty file or another application's (see
 * store_conn.h). */
#include "db/store_conn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define STORE_BUSY_TIMEOUT_MS 5000
#define STORE_MMAP_BYTES "1073741824"   /* map up to 1 GiB of the file */
#define STORE_CACHE_KIB "-65536"        /* page cache: 64 MiB (negative: KiB, SQLite's unit) */

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
    if (flags & SQLITE_OPEN_CREATE) {   /* a new database is owner-only (it names users and hosts); SQLite
                                         * gives its -wal and -shm files the same mode */
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0)
            close(fd);
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

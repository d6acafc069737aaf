/* store_handle.c -- the shared handle's helpers (see store_handle.h): the one-line errors every
 * store function returns and the reader's cache of prepared statements. */
#include "db/store_handle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

sqlite3_stmt *store_reader(struct store *st, const char *sql)
{
    sqlite3_stmt *s = NULL;
    for (size_t i = 0; i < st->reader_count; i++)
        if (strcmp(st->reader[i].sql, sql) == 0)
            return st->reader[i].s;
    if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL) != SQLITE_OK) {
        sqlite3_finalize(s);
        store_fail_db(st, "cannot prepare a query");
        return NULL;
    }
    char *copy;
    if (st->reader_count < STORE_READERS && (copy = strdup(sql))) {
        st->reader[st->reader_count].sql = copy;
        st->reader[st->reader_count++].s = s;
    }
    return s;
}

void store_reader_done(struct store *st, sqlite3_stmt *s)
{
    for (size_t i = 0; i < st->reader_count; i++)
        if (st->reader[i].s == s) {
            sqlite3_reset(s);
            sqlite3_clear_bindings(s);
            return;
        }
    sqlite3_finalize(s);
}

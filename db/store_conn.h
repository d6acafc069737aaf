/* store_conn.h -- connections to a results file: opening one with the store's pragmas and
 * recognising a sessmax file (and its schema version) before anything reads or writes it. Used
 * by the store's open, its checkpointer, migrations and `db check`. Private to db/ (tests
 * excepted). */
#ifndef SESSMAX_STORE_CONN_H
#define SESSMAX_STORE_CONN_H

#include <stddef.h>

#include <sqlite3.h>

#include "db/store_types.h"

/* 'SSMX': PRAGMA application_id of every sessmax database. */
#define STORE_APPLICATION_ID 0x53534D58

/* Opens a connection with the store's pragmas (busy_timeout; a reader also maps the file and
 * gets a larger page cache). WAL and synchronous are the writer's (store.c). */
int store_connect(const char *path, int flags, sqlite3 **out, char *err, size_t errlen);

/* Reads user_version and whether the file is marked as sessmax. *kind: 0 = empty (no tables),
 * 1 = sessmax, -1 = some other SQLite database. Returns 0 or -1 (err filled). */
int store_identify(sqlite3 *db, const char *path, int *kind, int *version, char *err, size_t errlen);

#endif

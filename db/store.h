/* store.h -- the results store: one SQLite file per campaign, many runs in it.
 *
 * Invariants (see schema.sql):
 *   - one writer per file: the controller (or a test). Readers (score, report) may run at once.
 *   - WAL mode; the writer batches inserts into transactions flushed by count and by time, so
 *     a crash loses at most the open batch, never a committed one.
 *   - samples (sample_chunks), traffic and events are append-only; only runs and sessions rows are updated.
 *   - the schema carries a version (PRAGMA user_version); opening an older file migrates it,
 *     opening a newer one is refused with a clear error.
 *   - no secret is ever stored: plan text is stored as given after the caller redacts it.
 *   - a sessmax file is marked (PRAGMA application_id 'SSMX' and meta.application = 'sessmax');
 *     any other SQLite file is refused, never written to.
 *   - store_check() and STORE_READ never write to a current-version file; a reader opening an
 *     older file migrates it once through a short-lived writable connection.
 *   - run and agent rows (begin, end, score, status) are committed at once; sessions, samples,
 *     traffic, health and events ride in the batch.
 * All SQL of the project lives in db/. Functions return 0 (or an id > 0) on success and -1 with
 * a one-line message naming the file in err on failure. A store is used by one thread. */
#ifndef SESSMAX_STORE_H
#define SESSMAX_STORE_H

#include <stddef.h>
#include <stdint.h>

/* STORE_SCHEMA_VERSION, enum store_mode and struct store. */
#include "db/store_types.h"

/* Opens (and with STORE_WRITE creates or migrates) a results database. STORE_READ never creates
 * a file; on an older schema it migrates the file once through a short-lived writable
 * connection. Refuses a file that is not a sessmax database or has a newer schema. */
struct store *store_open(const char *path, enum store_mode mode, char *err, size_t errlen);
/* Flushes the open batch (writer) and closes. Accepts NULL. */
void store_close(struct store *st);
/* The last error message of this store (also returned through err). */
const char *store_errmsg(const struct store *st);

/* The writer (store_write.h), the reader (store_read.h) and `db check` (store_check.h) come with
 * this header. */
#include "db/store_check.h"
#include "db/store_read.h"
#include "db/store_write.h"

#endif

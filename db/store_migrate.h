/* store_migrate.h -- schema versions: creates the current schema on an empty file and walks an
 * older one up one version at a time (each step in the transaction of its user_version bump).
 * Private to db/. */
#ifndef SESSMAX_STORE_MIGRATE_H
#define SESSMAX_STORE_MIGRATE_H

#include <stddef.h>

#include <sqlite3.h>

/* Creates the current schema on an empty file, or migrates an older one; refuses a newer one.
 * Returns 0, or -1 with "path: message" in err. */
int store_migrate(sqlite3 *db, const char *path, char *err, size_t errlen);

#endif

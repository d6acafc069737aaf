/* store_check.h -- `sessmax db check`: is this a sessmax database, which schema version, does
 * SQLite's integrity_check pass, and what it holds. Never migrates or writes the file. */
#ifndef SESSMAX_STORE_CHECK_H
#define SESSMAX_STORE_CHECK_H

#include <stddef.h>

/* `sessmax db check`: integrity_check, sessmax schema, version. Fills report with one line per
 * finding; returns 0 when the file is a healthy sessmax database, -1 otherwise. */
int store_check(const char *path, char *report, size_t reportlen);

#endif

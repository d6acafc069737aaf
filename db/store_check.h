/* store_check.h -- `sessmax db check`: is this a sessmax database, which schema version, does
 * SQLite's integrity_check pass, and what it holds. Never migrates or writes the file. */
#ifndef SESSMAX_STORE_CHECK_H
#define SESSMAX_STORE_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* `sessmax db check`: integrity_check, sessmax schema, version. Fills report with one line per
 * finding; returns 0 when the file is a healthy sessmax database, -1 otherwise. */
int store_check(const char *path, char *report, size_t reportlen);

/* Calls fn with every run's id and stored score parameters (runs.score_params; NULL when none),
 * read-only like store_check, so that `db check` can read them as the scoring verbs do.
 * Returns 0, or -1 with err. */
typedef void (*store_check_params_fn)(void *ctx, int64_t run, const char *score_params);
int store_check_params(const char *path, store_check_params_fn fn, void *ctx, char *err, size_t errlen);

#endif

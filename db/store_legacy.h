/* store_legacy.h -- test-only: builds a results file in the first shipped schema (version 1) so
 * the migration to the current one is tested. Lives in its own library (sessmax_db_legacy) that
 * only tests link; no binary carries it. */
#ifndef SESSMAX_STORE_LEGACY_H
#define SESSMAX_STORE_LEGACY_H

#include <stddef.h>

/* Creates version 1 on an empty file with one run, one agent, one session and `samples`
 * samples. Returns 0, or -1 with a one-line message in err. */
int store_legacy_create_v1(const char *path, unsigned samples, char *err, size_t errlen);

/* SQL that turns a current file's samples back into the samples table of versions 1-7 (empty),
 * for tests that step a new file back to version 7 or below and migrate it up again. */
extern const char STORE_LEGACY_SAMPLES_V7[];
/* SQL that turns a current file's health table back into that of versions 2-8 (empty: no
 * external clients' costs), for tests that step a new file back to version 8 or below. */
extern const char STORE_LEGACY_HEALTH_V8[];
/* SQL that takes a current file back to version 10 (no logon phases, no minimum RTT, no target_metrics), for tests
 * that step a new file back to version 10 or below; run it before the others. */
extern const char STORE_LEGACY_V10[];

#endif

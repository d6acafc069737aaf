/* runsel.h -- what the analysis verbs share: open a results file for reading, pick a run
 * (--run ID or the newest), load its summary and verdict, and map failures to exit codes. */
#ifndef SESSMAX_RUNSEL_H
#define SESSMAX_RUNSEL_H

#include <stddef.h>
#include <stdint.h>

#include "controller/score/summary.h"
#include "controller/score/verdict.h"

struct store;
struct cmd;

/* Opens `path` read-only; returns NULL after printing "sessmax VERB: ..." (sets *code: 66 when
 * the file is missing, 65 when it is not a sessmax database). */
struct store *runsel_open(const char *verb, const char *path, int *code);

/* Resolves `text` (NULL: the newest run) to a run id; prints and returns -1 with *code set. */
int64_t runsel_pick(const char *verb, struct store *st, const char *path, const char *text, int *code);

/* Loads the summary (stored score parameters, or `override`; `flags` as summary_input's) and
 * evaluates the verdict. Prints and returns -1 with *code (65 data error) on failure. */
int runsel_load(const char *verb, struct store *st, int64_t run, const struct score_config *override,
                unsigned flags, struct summary *s, struct verdict *v, int *code);

/* Parses the `score:` and `thresholds:` sections of a plan file (for re-scoring). Prints and
 * returns -1 with *code (78 config, 66 missing) on failure, *out then holding no thresholds. */
int runsel_plan_config(const char *verb, const char *plan, struct score_config *out, int *code);

#endif

/* summary_load.h -- a summary of one run read from the results store (db/store.h), scored with
 * the parameters stored with the run or with an override. */
#ifndef SESSMAX_SUMMARY_LOAD_H
#define SESSMAX_SUMMARY_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "controller/score/summary.h"

struct store;

/* Loads run `run` from the store with the score config stored with it (runs.score_params) or,
 * when `override` is not NULL, that one. Returns 0, or -1 with err. */
int summary_load(struct store *st, int64_t run, const struct score_config *override,
                 struct summary *out, char *err, size_t errlen);
/* The same with summary_input flags (SUMMARY_NO_CURVE). */
int summary_load_flags(struct store *st, int64_t run, const struct score_config *override, unsigned flags,
                       struct summary *out, char *err, size_t errlen);

#endif

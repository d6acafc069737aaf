/* summary.h -- everything `score`, `compare`, `report` and `export` say about one run: the smax
 * result plus per-timer percentiles, logon times, bandwidth per session and agent health.
 *
 * summary_compute() is pure (arrays in, figures out); summary_load() reads a run through
 * db/store.h and calls it. A summary owns its arrays; free it with summary_free(). */
#ifndef SESSMAX_SUMMARY_H
#define SESSMAX_SUMMARY_H

#include "controller/score/summary_percentile.h"
#include "controller/score/summary_types.h"

/* Pure: computes every figure. `cfg` is copied. Returns 0 or -1 with err (allocation, bad
 * parameters). A run with too few samples still succeeds (score.status says so). */
int summary_compute(const struct summary_input *in, const struct score_config *cfg,
                    struct summary *out, char *err, size_t errlen);

void summary_free(struct summary *s);

#endif

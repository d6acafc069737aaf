/* summary_metric.h -- a summary figure by the name thresholds use ("smax", "p95" of a timer, ...). */
#ifndef SESSMAX_SUMMARY_METRIC_H
#define SESSMAX_SUMMARY_METRIC_H

#include <stddef.h>

#include "controller/score/summary.h"

/* Looks a metric up by name ("smax", "p95" + timer, ...): returns 0 and the value (NaN when the
 * run has no such figure: no ok sample of the timer, no health records, ...); 1 when the run has
 * no such timer at all (the value as for a timer without samples: count 0, the others NaN; err
 * says which timers exist); -1 when the metric is unknown. */
int summary_metric(const struct summary *s, const char *metric, const char *timer, double *out,
                   char *err, size_t errlen);

#endif

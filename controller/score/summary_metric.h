/* summary_metric.h -- a summary figure by the name thresholds use ("smax", "p95" of a timer, ...). */
#ifndef SESSMAX_SUMMARY_METRIC_H
#define SESSMAX_SUMMARY_METRIC_H

#include <stddef.h>

#include "controller/score/summary.h"

/* Looks a metric up by name ("smax", "p95" + timer, ...): returns 0 and the value, or -1 when
 * the metric or timer is unknown (err says which timers exist). */
int summary_metric(const struct summary *s, const char *metric, const char *timer, double *out,
                   char *err, size_t errlen);

#endif

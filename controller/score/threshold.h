/* threshold.h -- one threshold expression of a plan's `thresholds:` section ("p95(app_start) < 3000"):
 * its parsed form, the metric names it may use and the comparison operators. The verdict
 * (verdict.h) evaluates them against a summary. */
#ifndef SESSMAX_THRESHOLD_H
#define SESSMAX_THRESHOLD_H

#include <stddef.h>

#include "common/results.h"

enum threshold_op { THR_LT, THR_LE, THR_GT, THR_GE, THR_EQ, THR_NE };

#define THRESHOLD_TEXT_LEN 128

struct threshold {
    char text[THRESHOLD_TEXT_LEN];   /* as written, for messages and JSON */
    char metric[32];                 /* "smax", "p95", "stuck_pct", ... */
    char timer[RESULTS_NAME_LEN];    /* timer name for per-timer metrics; "" otherwise */
    enum threshold_op op;
    double value;
};

/* Parses one threshold expression ("p95(app_start) < 3000"). Returns 0, or -1 with a one-line
 * message (without position: callers add it). */
int threshold_parse(const char *text, struct threshold *out, char *err, size_t errlen);
/* 1 when `metric` needs a timer argument, 0 when it must not have one, -1 when unknown. */
int threshold_metric_kind(const char *metric);
const char *threshold_op_name(enum threshold_op op);

#endif

/* threshold.c -- one threshold expression: "metric op number" or "fn(timer) op number". */
#include "controller/score/threshold.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const plain_metrics[] = {
    "smax", "baseline_ms", "threshold_ms", "max_index_ms", "stuck_pct", "stuck", "launched",
    "active", "failed_sessions", "failed_samples_pct", "kbps_per_session", "lag_p99_ms",
    "cpu_max_pct", "logon_p50", "logon_p95", "logon_p99", "logon_avg", NULL,
};
static const char *const timer_metrics[] = {
    "p50", "p90", "p95", "p99", "avg", "min", "max", "fail_pct", "count", NULL,
};

int threshold_metric_kind(const char *metric)
{
    for (int i = 0; plain_metrics[i]; i++)
        if (!strcmp(plain_metrics[i], metric))
            return 0;
    for (int i = 0; timer_metrics[i]; i++)
        if (!strcmp(timer_metrics[i], metric))
            return 1;
    return -1;
}

const char *threshold_op_name(enum threshold_op op)
{
    static const char *const names[] = { "<", "<=", ">", ">=", "==", "!=" };
    return names[op];
}

static const char *skip_ws(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

/* Reads [A-Za-z0-9_.-]+ into buf; returns the end or NULL when empty/too long. */
static const char *read_word(const char *p, char *buf, size_t len)
{
    size_t n = 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '.' || p[n] == '-')
        n++;
    if (n == 0 || n >= len)
        return NULL;
    memcpy(buf, p, n);
    buf[n] = 0;
    return p + n;
}

static const char *read_op(const char *p, enum threshold_op *op)
{
    static const struct { const char *s; enum threshold_op op; } ops[] = {
        { "<=", THR_LE }, { ">=", THR_GE }, { "==", THR_EQ }, { "!=", THR_NE },
        { "<", THR_LT }, { ">", THR_GT }, { "=", THR_EQ },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strncmp(p, ops[i].s, strlen(ops[i].s))) {
            *op = ops[i].op;
            return p + strlen(ops[i].s);
        }
    return NULL;
}

static int fail(char *err, size_t errlen, const char *text, const char *why)
{
    snprintf(err, errlen, "threshold \"%s\": %s", text, why);
    return -1;
}

int threshold_parse(const char *text, struct threshold *out, char *err, size_t errlen)
{
    char why[400];
    memset(out, 0, sizeof *out);
    if (strlen(text) >= sizeof out->text)
        return fail(err, errlen, text, "too long");
    snprintf(out->text, sizeof out->text, "%s", text);
    const char *p = read_word(skip_ws(text), out->metric, sizeof out->metric);
    if (!p)
        return fail(err, errlen, text, "expected a metric name, e.g. \"smax >= 40\" or \"p95(app_start) < 3000\"");
    int kind = threshold_metric_kind(out->metric);
    if (kind < 0) {
        snprintf(why, sizeof why, "unknown metric '%s' (metrics: smax, baseline_ms, stuck_pct, "
                 "kbps_per_session, lag_p99_ms, logon_p95, ..., or p50/p90/p95/p99/avg/min/max/"
                 "fail_pct/count(timer); see docs/scoring.md)", out->metric);
        return fail(err, errlen, text, why);
    }
    p = skip_ws(p);
    if (*p == '(') {
        if (!kind)
            return fail(err, errlen, text, "this metric takes no timer argument");
        p = read_word(skip_ws(p + 1), out->timer, sizeof out->timer);
        if (!p || *(p = skip_ws(p)) != ')')
            return fail(err, errlen, text, "expected a timer name and ')'");
        p = skip_ws(p + 1);
    } else if (kind) {
        snprintf(why, sizeof why, "'%s' needs a timer, e.g. %s(app_start)", out->metric, out->metric);
        return fail(err, errlen, text, why);
    }
    p = read_op(p, &out->op);
    if (!p)
        return fail(err, errlen, text, "expected a comparison: < <= > >= == !=");
    p = skip_ws(p);
    char *end;
    errno = 0;
    out->value = strtod(p, &end);
    if (end == p || errno || !isfinite(out->value))
        return fail(err, errlen, text, "expected a number after the comparison");
    if (*skip_ws(end))
        return fail(err, errlen, text, "unexpected text after the number (values are plain "
                                       "numbers: ms for times, %% for *_pct)");
    return 0;
}

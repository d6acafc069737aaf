/* score_rule_plan.c -- a plan's score: section into struct score_params (score_rule_plan.h). */
#include "common/score_rule_plan.h"

#include <stdio.h>
#include <string.h>

#define U32(k, lo, hi) { #k, 0, offsetof(struct score_params, k), lo, hi }
#define DBL(k, lo, hi) { #k, 1, offsetof(struct score_params, k), lo, hi }
const struct score_rule_plan_field score_rule_plan_fields[] = {
    U32(baseline_count, 1, 1000000), U32(baseline_drop, 0, 1000000),
    DBL(threshold_offset_ms, 0, 1e7), U32(window_base, 0, 1000000), DBL(window_frac, 0, 100),
    DBL(trim_frac, 0, 0.4999), U32(trim_min, 0, 1000000), U32(consecutive, 1, 1000000),
    U32(min_samples, 0, 1000000000), DBL(stuck_max_pct, 0, 100), DBL(lag_p99_max_ms, 0.001, 1e7),
    DBL(agent_share_max_pct, 0.001, 100), DBL(agent_delay_max_ms, 0.001, 1e7), DBL(agent_delayed_max_pct, 0, 100),
};
const size_t score_rule_plan_nfields = sizeof score_rule_plan_fields / sizeof score_rule_plan_fields[0];

void score_rule_plan_set(struct score_params *p, const struct score_rule_plan_field *f, double v)
{
    char *base = (char *)p + f->off;
    if (!f->is_double)
        *(uint32_t *)(void *)base = (uint32_t)v;
    else
        *(double *)(void *)base = v;
}

double score_rule_plan_get(const struct score_params *p, const struct score_rule_plan_field *f)
{
    const char *base = (const char *)p + f->off;
    return !f->is_double ? *(const uint32_t *)(const void *)base : *(const double *)(const void *)base;
}

static int read_measure(const struct ydoc *doc, const struct ydoc_node *v, struct score_params *p, char *err,
                        size_t errlen)
{
    const char *s;
    if (ydoc_str(doc, v, &s, err, errlen) < 0)
        return -1;
    if (!*s || strlen(s) >= sizeof p->measure)
        return ydoc_error(doc, v, err, errlen, "score.measure: a measure group name of 1 to %zu characters",
                          sizeof p->measure - 1);
    snprintf(p->measure, sizeof p->measure, "%s", s);
    return 0;
}

static int read_field(const struct ydoc *doc, const struct ydoc_node *v, const struct score_rule_plan_field *f,
                      struct score_params *p, char *err, size_t errlen)
{
    double d;
    long long ll;
    if (!f->is_double) {
        if (ydoc_int(doc, v, (long long)f->min, (long long)f->max, &ll, err, errlen) < 0)
            return -1;
        d = (double)ll;
    } else if (ydoc_double(doc, v, f->min, f->max, &d, err, errlen) < 0) {
        return -1;
    }
    score_rule_plan_set(p, f, d);
    return 0;
}

int score_rule_plan_read(const struct ydoc *doc, const struct ydoc_node *map, struct score_params *p,
                         char *err, size_t errlen)
{
    static const char *const allowed[] = {
        "measure", "baseline_count", "baseline_drop", "threshold_offset_ms", "window_base",
        "window_frac", "trim_frac", "trim_min", "consecutive", "min_samples", "stuck_max_pct",
        "lag_p99_max_ms", "agent_share_max_pct", "agent_delay_max_ms", "agent_delayed_max_pct", NULL,
    };
    if (ydoc_check_keys(doc, map, allowed, "score", err, errlen) < 0)
        return -1;
    for (size_t i = 0; i < map->n; i++) {
        const char *key = map->keys[i]->value;
        const struct ydoc_node *v = map->items[i];
        if (!strcmp(key, "measure") && read_measure(doc, v, p, err, errlen) < 0)
            return -1;
        for (size_t f = 0; f < score_rule_plan_nfields; f++)
            if (!strcmp(score_rule_plan_fields[f].key, key) &&
                read_field(doc, v, &score_rule_plan_fields[f], p, err, errlen) < 0)
                return -1;
    }
    char why[256];
    if (score_params_check(p, why, sizeof why) < 0)
        return ydoc_error(doc, map, err, errlen, "%s", why);
    return 0;
}

/* score_rule_plan.h -- a plan's `score:` section into struct score_params (common/score_rule.h):
 * the one reader both the controller (controller/score/score_config.c) and simhost's ramp
 * prediction (simhost/model/ramp_plan.c) use, and the table of its numeric keys with their
 * ranges, which the controller's JSON form of the parameters (runs.score_params) shares.
 *
 *   score: {measure: vsi, baseline_count: 15, baseline_drop: 2, threshold_offset_ms: 1000,
 *           window_base: 5, window_frac: 0.4, trim_frac: 0.05, trim_min: 1, consecutive: 1,
 *           min_samples: 0, stuck_max_pct: 1, lag_p99_max_ms: 50,
 *           agent_share_max_pct: 5, agent_delay_max_ms: 100, agent_delayed_max_pct: 5}
 *
 * No I/O: it reads a document already loaded (common/ydoc.h). */
#ifndef SESSMAX_SCORE_RULE_PLAN_H
#define SESSMAX_SCORE_RULE_PLAN_H

#include <stddef.h>

#include "common/score_rule.h"
#include "common/ydoc.h"

/* One numeric key of score: and the field of struct score_params it sets. */
struct score_rule_plan_field {
    const char *key;
    int is_double;        /* 0: a uint32_t field, read as an integer */
    size_t off;           /* offsetof(struct score_params, ...) */
    double min, max;      /* the accepted range, both ends included */
};

/* Every numeric key, in the order the JSON form writes them (measure is not among them). */
extern const struct score_rule_plan_field score_rule_plan_fields[];
extern const size_t score_rule_plan_nfields;

/* The field's value in p, as a double; and v stored into it (converted to uint32_t when it is
 * an integer field; v must be within the field's range). */
double score_rule_plan_get(const struct score_params *p, const struct score_rule_plan_field *f);
void score_rule_plan_set(struct score_params *p, const struct score_rule_plan_field *f, double v);

/* Reads the `score:` map `map` of `doc` over *p (keys absent keep p's values, so start from
 * score_params_default), then checks the whole (score_params_check). An unknown key, a value of
 * the wrong type or out of range, or incoherent parameters are errors "file:line:col: ..." in
 * err; returns 0 or -1 (p may then be partly set). */
int score_rule_plan_read(const struct ydoc *doc, const struct ydoc_node *map, struct score_params *p,
                         char *err, size_t errlen);

#endif

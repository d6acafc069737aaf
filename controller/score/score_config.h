/* score_config.h -- a plan's `score:` and `thresholds:` sections: parsing, checking and the JSON
 * stored in runs.score_params so `sessmax score` re-scores a run exactly as the plan said.
 *
 *   score: {baseline_count: 15, baseline_drop: 2, threshold_offset_ms: 1000, window_base: 5,
 *           window_frac: 0.4, trim_frac: 0.05, trim_min: 1, consecutive: 1, measure: vsi,
 *           min_samples: 15, stuck_max_pct: 1, lag_p99_max_ms: 50,
 *           agent_share_max_pct: 5, agent_delay_max_ms: 100, agent_delayed_max_pct: 5}
 *   thresholds: ["smax >= 40", "p95(app_start) < 3000", "stuck_pct < 1", "kbps_per_session < 200"]
 *
 * Unknown keys, unknown metric names and malformed expressions are errors naming file:line:col.
 * Metrics (values in ms unless named otherwise): smax, baseline_ms, threshold_ms, max_index_ms,
 * stuck_pct, stuck, launched, active, failed_sessions, failed_samples_pct, kbps_per_session,
 * lag_p99_ms, cpu_max_pct, logon_p50, logon_p95, logon_p99, logon_avg and, per timer,
 * p50(T) p90(T) p95(T) p99(T) avg(T) min(T) max(T) fail_pct(T) count(T). */
#ifndef SESSMAX_SCORE_CONFIG_H
#define SESSMAX_SCORE_CONFIG_H

#include <jansson.h>
#include <stddef.h>

#include "common/results.h"
#include "common/ydoc.h"
#include "controller/score/score.h"
#include "controller/score/threshold.h"

struct score_config {
    struct score_params params;
    struct threshold *thresholds;    /* malloc'd; score_config_free */
    size_t threshold_count;
    char focus[RESULTS_NAME_LEN];    /* the plan's `focus:` timer (single-user diagnosis); "" none */
};

/* Defaults and no thresholds. */
void score_config_init(struct score_config *c);
void score_config_free(struct score_config *c);

/* Parses a plan's sections; either node may be NULL (absent). `timers`, when not NULL, is the
 * list of timer and measure names the workload defines (NULL-terminated): a threshold naming
 * another timer is then an error. Errors are "file:line:col: ..." in err; returns 0 or -1.
 * On failure *out is left initialised (free it). */
int score_config_parse(const struct ydoc *doc, const struct ydoc_node *score,
                       const struct ydoc_node *thresholds, const char *const *timers,
                       struct score_config *out, char *err, size_t errlen);

/* JSON for runs.score_params: {"version":"smax-3","measure":"vsi",...,"thresholds":[...]}.
 * Returns a malloc'd string or NULL. */
char *score_config_to_json(const struct score_config *c);
/* The same as a libjansson object (new reference), NULL when out of memory. */
json_t *score_config_json(const struct score_config *c);
/* Inverse of score_config_to_json; unknown keys are refused. NULL or "" gives the defaults.
 * Returns 0 or -1 with err. */
int score_config_from_json(const char *json, struct score_config *out, char *err, size_t errlen);

#endif

/* controller/score/ -- from a stored run to a verdict. The rule that computes smax is
 * common/score_rule.h (pure, shared with simhost's ramp prediction); score_config.c and
 * threshold.c read a plan's score: and thresholds: sections and store them
 * with the run, summary*.c compute every figure of a run (timers, logon times, bandwidth, agent
 * health), verdict.c decides pass / fail / inconclusive, score_text.c prints the console summary,
 * runsel.c picks and loads a run for the analysis verbs, abstat.c gives the A/B statistics,
 * jsonv.c the numbers and text written to JSON, and score_run.c scores one run end to end for
 * both `sessmax score` and the end of `sessmax run`. Nothing here writes HTML or talks
 * to agents.
 *
 * score.h -- the score rule (common/score_rule.h) as the controller's modules include it, and
 * how the console and reports write smax. */
#ifndef SESSMAX_SCORE_H
#define SESSMAX_SCORE_H

#include <stddef.h>

#include "common/score_rule.h"

/* "42" or "not reached at 57 active (smax >= 56)" or "n/a (too few samples: 3 of 15 needed)". */
void score_format_smax(const struct score_result *r, char *buf, size_t len);

#endif

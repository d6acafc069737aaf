/* verdict.h -- pass / fail / inconclusive for one run, with the reasons.
 *
 * Validity first: too few samples for a baseline (or, for a single-user diagnosis with a focus:
 * timer and no measure group, of the focus timer), stuck sessions above score.stuck_max_pct, a
 * lost agent, or an agent share of the judged samples that could change the score (its mean above
 * score.agent_share_max_pct of the threshold, or more than score.agent_delayed_max_pct of them
 * over score.agent_delay_max_ms; the reason says whether other processes held the agent's CPU or
 * its own work did; results without a share fall back to loop lag p99 above
 * score.lag_p99_max_ms, labelled so) make the run inconclusive (the figures cannot be trusted),
 * whatever the thresholds say. Otherwise every plan threshold is
 * checked; any failure makes the verdict "fail". A threshold on smax when smax was not reached
 * knows only that smax > N: it passes when it holds for every such value, fails when it holds
 * for none, and is inconclusive otherwise. A threshold on a timer or measure without an ok
 * sample in the run (it never ran, or every sample failed) fails with that reason; one on a
 * figure the run has no data for (no health records, ...) is inconclusive. Exit codes: EXIT_*,
 * and EX_NOPERM (77) for a run in which a session failed authentication (verdict_code): the
 * target refused the plan's credentials, so the figures are not those of the plan's users. */
#ifndef SESSMAX_VERDICT_H
#define SESSMAX_VERDICT_H

/* Exit codes of the verdict; everything else is a <sysexits.h> code. */
#define EXIT_PASS 0
#define EXIT_THRESHOLD_FAILED 1
#define EXIT_INCONCLUSIVE 2

#include <jansson.h>
#include <stddef.h>

#include "controller/score/summary.h"

enum verdict_kind { VERDICT_PASS = 0, VERDICT_FAIL = 1, VERDICT_INCONCLUSIVE = 2 };

#define VERDICT_MAX_ITEMS 64

/* Why an agent's share grew (docs/scoring.md): its loop thread needing at least this % of a CPU
 * (on one plus waiting for one) is its own work; less, with at least VERDICT_RUN_DELAY_PCT of
 * waiting, is other processes holding its CPU. */
#define VERDICT_OWN_WORK_PCT 80.0
#define VERDICT_RUN_DELAY_PCT 3.0
/* Delayed samples (score.agent_delay_max_ms) judge a run from this many on: the index trims the
 * extremes of each window, so one or two outliers among a few dozen samples cannot move it. */
#define VERDICT_DELAYED_MIN 3

struct verdict_item {
    char text[THRESHOLD_TEXT_LEN];   /* the threshold, or the validity rule */
    double actual;                   /* NaN when unknown */
    enum verdict_kind result;
    char reason[448];                /* one line, e.g. "stuck_pct = 3.0 > 1 (3 of 100 sessions)" */
    const char *key;                 /* a validity rule's short name: "baseline", "stuck", "auth",
                                        "agent_lost", "agent_share", "logoff", "completed"; NULL: a
                                        plan threshold */
};

struct verdict {
    enum verdict_kind kind;
    struct verdict_item items[VERDICT_MAX_ITEMS];
    size_t item_count;
    size_t validity_count;           /* items[0..validity_count) are validity rules */
    int focus;                       /* judged on the focus timer (verdict_judges_focus): items[0]
                                        says so, whatever its result */
    uint32_t auth_failed;            /* sessions that failed with reason auth */
    char auth_user[RESULTS_NAME_LEN];/* the first of them; "" none */
};

const char *verdict_name(enum verdict_kind k);   /* "pass" | "fail" | "inconclusive" */
int verdict_exit_code(enum verdict_kind k);      /* 0 | 1 | 2 */
/* The run's exit code: EX_NOPERM (77) when a session failed authentication (auth_failed), else
 * verdict_exit_code(kind). `sessmax score`, `sessmax run` and verdict.json's exit_code use it. */
int verdict_code(const struct verdict *v);
/* "authentication failed for USER (wrong password, locked or expired account)": the words every
 * message about a refused logon uses (verdict, run, pre-flight). */
void verdict_auth_words(const char *user, char *buf, size_t len);

/* 1 when the run is judged on its focus timer instead of the measure group: the plan names a
 * `focus:` timer (a single-user diagnosis) and the run recorded no measure sample at all. Its
 * first validity rule is then "enough samples of the focus timer": as many ok samples of it as
 * a baseline needs (max(min_samples, baseline_count)); there is no baseline and no smax. */
int verdict_judges_focus(const struct summary *s);
/* smax as the console and the report show it: score_format_smax, or for a run judged on its
 * focus timer "n/a (single-user diagnosis: no measure group; judged on the focus timer)". */
void verdict_format_smax(const struct summary *s, char *buf, size_t len);

/* Evaluates validity and the thresholds of s->config. Returns 0, or -1 with err when a
 * threshold names a metric this build does not know (a data error: exit 65). */
int verdict_evaluate(const struct summary *s, struct verdict *out, char *err, size_t errlen);

/* The validity rules only (items[0..validity_count), each with its key; kind INCONCLUSIVE when
 * one of them is, else PASS): what verdict_evaluate judges first, for the live view to judge a
 * run while it goes on from the same rules and words. */
void verdict_validity(const struct summary *s, struct verdict *out);

/* Reasons that made the verdict (failed/inconclusive items, and the focus judgement of a run
 * judged on its focus timer), one per line, into buf. */
void verdict_reasons(const struct verdict *v, char *buf, size_t len);

/* verdict.json as a libjansson object (new reference); NULL when out of memory. */
json_t *verdict_json(const struct summary *s, const struct verdict *v);
/* verdict.json text (malloc'd; NULL on allocation failure). */
char *verdict_to_json(const struct summary *s, const struct verdict *v);

/* verdict.json: {"run":..,"verdict":"..","score_version":..,"smax":..,"items":[...]}.
 * Returns 0 or -1 with err naming the file. */
int verdict_write_json(const struct summary *s, const struct verdict *v, const char *path,
                       char *err, size_t errlen);

#endif

/* score_rule.h -- smax, the VSImax-v4.1-like capacity score: pure functions over arrays, the one
 * rule both `sessmax score` (controller/score/) and simhost's ramp prediction (simhost/model/ramp.c)
 * apply. The names keep the score_ prefix the controller's callers have always used.
 *
 * No I/O, no globals, deterministic: the same samples and parameters give the same result on
 * every machine (all sums are exact 64-bit integers of microseconds; the crossing test is an
 * exact rational comparison). Every constant is a parameter (see docs/scoring.md):
 *   baseline  = mean of the `baseline_count` lowest ok samples after dropping the
 *               `baseline_drop` lowest                        (defaults 15 and 2: 13 values)
 *   threshold = baseline + threshold_offset_ms                (default 1000 ms)
 *   index(i)  = trimmed mean of the latest min(i+1, window_base + ceil(window_frac * active_i))
 *               ok samples, trimming t = max(trim_min, round(trim_frac * |W|)) from each end
 *               (t is capped so at least one sample remains)
 *   smax      = active sessions at the first sample of the first run of `consecutive` samples
 *               whose index is strictly above the threshold, minus 1; or "not reached (> N)"
 *               with N the highest active count seen (the data then show smax >= N - 1 only).
 *               The index may cross only from the window_base-th ok sample on.
 * Failed samples (ok = 0) are excluded from the baseline and the index but counted.
 * The version string changes whenever a change could move a published figure. */
#ifndef SESSMAX_SCORE_RULE_H
#define SESSMAX_SCORE_RULE_H

#include <stddef.h>
#include <stdint.h>

#include "common/results.h"

#define SCORE_VERSION "smax-3"   /* smax-3: a single-user diagnosis is judged on its focus timer */

struct score_params {
    char measure[RESULTS_NAME_LEN]; /* measure group feeding the index (default "vsi") */
    uint32_t baseline_count;        /* 15: lowest samples considered for the baseline */
    uint32_t baseline_drop;         /* 2: of those, the lowest dropped (outliers) */
    double threshold_offset_ms;     /* 1000 */
    uint32_t window_base;           /* 5 */
    double window_frac;             /* 0.40 of the active sessions */
    double trim_frac;               /* 0.05 each end */
    uint32_t trim_min;              /* 1 each end */
    uint32_t consecutive;           /* 1: samples above the threshold needed to count as crossed */
    uint32_t min_samples;           /* ok samples needed to score; 0 = baseline_count */
    /* validity (used by verdict.c, kept here so one JSON blob records everything) */
    double stuck_max_pct;           /* 1.0: more stuck sessions make the run inconclusive */
    double lag_p99_max_ms;          /* 50: loop lag p99 above it makes a run inconclusive that has no
                                       agent share measured (results of older agents) */
    /* The launcher-health gate (docs/scoring.md): the agent's own share of the scored samples */
    double agent_share_max_pct;     /* 5: their mean share above this % of the threshold */
    double agent_delay_max_ms;      /* 100: a sample whose share is above it is delayed ... */
    double agent_delayed_max_pct;   /* 5: ... and more than this % of them delayed, inconclusive */
};

/* Fills the documented defaults. */
void score_params_default(struct score_params *p);
/* 0 when coherent; -1 with a one-line reason (e.g. baseline_drop >= baseline_count). */
int score_params_check(const struct score_params *p, char *err, size_t errlen);

/* One response-time sample of the measure group, in time order. */
struct score_sample {
    uint64_t t_us;       /* wall clock when it arrived */
    int64_t value_us;    /* weighted response time */
    uint32_t active;     /* active sessions when it arrived */
    uint8_t ok;          /* 0: failed; excluded from baseline and index, but counted */
};

enum score_status {
    SCORE_OK = 0,
    SCORE_TOO_FEW,       /* fewer ok samples than needed for a baseline: no figures */
};

struct score_result {
    enum score_status status;
    size_t samples, samples_ok, samples_failed;
    size_t samples_needed;          /* the effective minimum of ok samples */
    double baseline_ms, threshold_ms;   /* NaN when status != SCORE_OK */
    int reached;                    /* 1: the index crossed the threshold */
    int smax;                       /* reached: active at the crossing - 1; else -1 */
    uint32_t max_active;            /* highest active count over all samples */
    size_t cross_sample;            /* reached: index into the input array (first of the run) */
    uint64_t cross_t_us;
    uint32_t cross_active;
    double cross_index_ms;
    double max_index_ms;            /* highest index over the run (NaN when none) */
};

/* The longest response time a sample may hold: 2^36 µs, 19 hours (a timer gives up long before).
 * The index sums values in 64 bits; a larger value can only come from a corrupt or tampered
 * database or a broken agent, and is refused. */
#define SCORE_VALUE_MAX_US (INT64_C(1) << 36)

/* Computes the score over `n` samples in time order. `index_ms`, when not NULL, receives the
 * index at each input position (NaN at failed samples) so reports can draw the curve; it must
 * hold n doubles. Returns 0 (check out->status) or -1 on bad parameters, an ok sample outside
 * 0..SCORE_VALUE_MAX_US or allocation failure, with err filled. Cost: O(n) time plus sorting
 * blocks of at least the largest window, 4n bytes + O(w) memory. */
int score_compute(const struct score_params *p, const struct score_sample *s, size_t n,
                  struct score_result *out, double *index_ms, char *err, size_t errlen);

/* Where score_compute_curve writes the index of the k-th ok sample (k from 0): the double at
 * at + k * stride bytes, e.g. a field of an array of structs. Nothing is written for failed
 * samples, nor anything at all unless out->status is SCORE_OK. */
struct score_curve {
    char *at;
    size_t stride;
};
/* score_compute, the index going to `curve` instead of an array per input position. */
int score_compute_curve(const struct score_params *p, const struct score_sample *s, size_t n,
                        struct score_result *out, const struct score_curve *curve, char *err, size_t errlen);

#endif

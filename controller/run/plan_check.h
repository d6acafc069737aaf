/* plan_check.h -- a plan with everything it refers to, loaded and cross-checked: the workload
 * (text kept for the agents, name and hash for the labels) and the score configuration (its
 * thresholds may only name timers the workload defines). Shared by `validate` and `run`. */
#ifndef SESSMAX_PLAN_CHECK_H
#define SESSMAX_PLAN_CHECK_H

#include <stddef.h>
#include <stdio.h>

#include "common/proto.h"
#include "controller/score/score_config.h"

struct plan;
struct workload;

struct plan_checked {
    struct plan *plan;
    struct workload *wl;
    char *wl_text;               /* the workload file as read (sent to agents) */
    size_t wl_len;
    struct score_config score;
    char *score_json;            /* runs.score_params */
    char *net_json;              /* the network profile (runs.network_profile, CONFIG) */
    char *client_json;           /* CONFIG `client` ("" for builtin) */
    char *drives_text;           /* the plan's own drives: (CONFIG; "" when none) */
    int shot_timers;             /* CONFIG: PNGs at the end of every first-loop timer (--shots all) */
};

/* The CONFIG message every agent gets for this plan (pointers into pc). */
void plan_check_config_msg(const struct plan_checked *pc, struct proto_msg *m);
/* Bytes the CONFIG frame takes on the agent link (payload and tag), or 0 when it exceeds the
 * link's frame limit (PROTO_MAX_FRAME) or memory ran out. */
size_t plan_check_config_size(const struct plan_checked *pc);

/* Loads and checks; returns 0, or an exit code (65 data, 66 missing input, 78 config) with a
 * one-line err. On failure *out holds nothing to free. */
int plan_check_load(const char *path, struct plan_checked *out, char *err, size_t errlen);
void plan_check_free(struct plan_checked *pc);
/* The external client's programs (the client, Xvfb, ...) on this host: checked always when
 * `always` (and then those of every entry of `clients:` too), else only when the plan's agents
 * are local (remote agents run on other hosts).
 * Returns 0, or EX_DATAERR with err "FILE:LINE:COL: ... (install PACKAGE or DOWNLOAD)". */
int plan_check_programs(const struct plan_checked *pc, int always, char *err, size_t errlen);
/* plan_check_load, then plan_check_programs(always): what `run`, `validate` and each cell of
 * `matrix` do before anything else. With text non-NULL the plan is that text (len bytes: a matrix
 * cell's plan) and `path` only names it in messages and anchors its relative paths. The same
 * returns; on failure *out holds nothing to free. */
int plan_check_load_runnable(const char *path, const char *text, size_t len, int always, struct plan_checked *out,
                             char *err, size_t errlen);
/* What a run of this plan would do, a few lines for humans. */
void plan_check_describe(const struct plan_checked *pc, FILE *out);

#endif

/* workload_step.h -- private to common/workload*.c: parsing workload steps (key, type, click,
 * move, think, wait, timer, repeat) and screen conditions, with positioned errors. */
#ifndef SESSMAX_WORKLOAD_STEP_H
#define SESSMAX_WORKLOAD_STEP_H

#include "common/workload_parse.h"

/* Parses a list of steps into *out / *n (owned by the workload). */
int workload_parse_steps(struct workload_parse *p, const struct ydoc_node *seq, const char *what,
                         struct workload_step **out, size_t *n);
/* What a condition map may hold besides conditions and `timeout`. */
enum {
    WORKLOAD_WAIT_ON_TIMEOUT = 1,        /* on_timeout (wait, until) */
    WORKLOAD_WAIT_MIN = 2,               /* min (until) */
    WORKLOAD_WAIT_REPAINT = 4,           /* repaint_after (logon) */
    WORKLOAD_WAIT_FAIL = 8,              /* fail: {...} (until; parsed by the caller) */
};
/* Parses a condition map (change/stable/match/pixel + timeout and what `flags` allow).
 * default_timeout_us applies when `timeout` is absent. */
int workload_parse_wait(struct workload_parse *p, const struct ydoc_node *map, const char *what,
                        int flags, uint64_t default_timeout_us, struct workload_wait *out);
/* Parses `min: echo | 0 | DURATION`. */
int workload_parse_min(struct workload_parse *p, const struct ydoc_node *n, enum workload_min *min,
                       uint64_t *min_us);
/* Frees what a step list owns (not the array itself when it is NULL). */
void workload_free_steps(struct workload_step *steps, size_t n);

#endif

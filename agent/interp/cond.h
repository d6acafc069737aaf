/* cond.h -- screen conditions (change, stable, match, pixel) evaluated over a framebuffer.
 *
 * A cond_state watches one workload_wait: its conditions must hold one after the other, each
 * watched from the moment the previous one held. It never reads pixels unless a painted
 * rectangle touches the watched region (or a condition starts), and it never blocks or keeps
 * timers itself: the caller feeds paints (cond_on_paint) and, for `stable`, ticks at
 * cond_next_tick_us(). Pure functions of their inputs, so tests drive them on synthetic
 * framebuffers without an event loop. Times are monotonic µs.
 *
 * `change` keeps one 64-bit hash per row of its region (a few KiB, only while it is watched):
 * a paint re-hashes only the rows it touched, so typing into a large window costs a few rows,
 * not the window. A cond_state must start zeroed; cond_end() releases it. */
#ifndef SESSMAX_COND_H
#define SESSMAX_COND_H

#include <stddef.h>
#include <stdint.h>

#include "agent/driver/driver.h"
#include "common/workload.h"

struct cond_state {
    const struct workload_wait *wait;
    size_t idx;                  /* condition being watched; == wait->n once all held */
    uint64_t cond_start_us;      /* when the current condition started being watched */
    uint64_t *row_hash;          /* change: hash of each row of `area` when it started */
    uint64_t base_hash;          /* change: whole-area hash when row_hash could not be allocated */
    struct workload_rect area;   /* change: the region clipped to the screen */
    int have_base;               /* change: the baseline was read (a screen existed) */
    uint64_t last_paint_us;      /* stable: last paint touching the region (or its start) */
    uint64_t met_us;             /* when the last condition held (valid once met) */
    int met;
};

/* Starts watching `w` at now_us over view `v` (NULL: no screen yet; a `change` then compares
 * against the first screen it can read, and match/pixel wait for a paint). Returns 1 when every
 * condition already holds (st->met_us set), else 0. `st` must be zeroed or used before. */
int cond_begin(struct cond_state *st, const struct workload_wait *w, const struct screen_view *v,
               uint64_t now_us);

/* Releases what a state holds (safe on a zeroed or ended state; cond_begin may follow). */
void cond_end(struct cond_state *st);

/* Whether any rectangle touches the region of the condition being watched (no pixels read). */
int cond_wants_paint(const struct cond_state *st, const struct rect *rects, size_t n);

/* Feeds one paint (rectangles changed at now_us). Returns 1 once every condition holds. */
int cond_on_paint(struct cond_state *st, const struct screen_view *v, const struct rect *rects,
                  size_t n, uint64_t now_us);

/* For `stable`: when the caller should call cond_on_tick next (monotonic µs); 0 = no tick
 * needed (waiting for paints only, or met). */
uint64_t cond_next_tick_us(const struct cond_state *st);

/* Re-evaluates time-based conditions at now_us. Returns 1 once every condition holds. A
 * `stable` condition holds at the time of the last paint that touched its region. */
int cond_on_tick(struct cond_state *st, const struct screen_view *v, uint64_t now_us);

/* One line describing the condition still unmet ("change appwin"), for failure details. */
const char *cond_describe(const struct cond_state *st, char *buf, size_t len);

#endif

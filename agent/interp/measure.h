/* measure.h -- weighted measure groups (the VSI response-time idea): once per loop, as soon as
 * every member timer of a group has a sample in that loop, one sample with is_measure = 1,
 * value Σ weight × timer value, ok only if every member sample was ok (suspect when one was
 * suspect and none failed), its agent share Σ weight × member share when every member has one. A member timed more than once in a loop counts with its latest
 * sample before the group completes. */
#ifndef SESSMAX_MEASURE_H
#define SESSMAX_MEASURE_H

#include "common/results.h"
#include "common/workload.h"

struct measure_track;

/* NULL on out of memory. The workload is borrowed. */
struct measure_track *measure_track_new(const struct workload *wl);
void measure_track_free(struct measure_track *mt);
/* Forgets the samples of the current loop (call when a loop starts). */
void measure_track_reset(struct measure_track *mt);
/* Feeds one timer sample; calls emit(ctx, group sample) for each group it completes. The group
 * sample copies session, loop and t_us from the timer sample. */
void measure_track_feed(struct measure_track *mt, const struct rec_sample *timer_sample,
                        void (*emit)(void *ctx, const struct rec_sample *s), void *ctx);

#endif

/* looplag.h -- the loop measuring itself: a one-shot timer re-armed every period records how
 * late it fired (actual - scheduled, µs). A saturated agent shows up here before it can
 * silently inflate response times. Loop thread only. */
#ifndef SESSMAX_LOOPLAG_H
#define SESSMAX_LOOPLAG_H

#include <stdint.h>

struct event_base;
struct looplag;

/* How long one callback may run work that can be split (logoffs to start, finished connects to
 * hand over) before it leaves the rest to the next pass of the loop, so that the timers and
 * sockets already due get their turn: well under the 20 ms a stall is reported at. */
#define LOOP_PASS_BUDGET_US 4000

/* Starts the probe on base every period_ms. base NULL: no timer (samples via looplag_record,
 * for tests). NULL on allocation failure. */
struct looplag *looplag_new(struct event_base *base, uint32_t period_ms);

/* Records one lateness sample (the timer does this itself). */
void looplag_record(struct looplag *l, uint32_t late_us);

/* Percentiles (nearest rank) and max of the samples since the last take, then forgets them.
 * All zero when there were none. Returns the number of samples. */
uint32_t looplag_take(struct looplag *l, uint32_t *p50_us, uint32_t *p99_us, uint32_t *max_us);

/* Percentiles over the whole life of the probe (for the final summary); not reset. From a
 * histogram of eight buckets an octave: never below the true percentile, at most 1/8 above. */
void looplag_total(const struct looplag *l, uint32_t *p50_us, uint32_t *p99_us, uint32_t *max_us);

void looplag_free(struct looplag *l);

#endif

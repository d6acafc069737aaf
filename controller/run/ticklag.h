/* ticklag.h -- how late the controller's loop runs its periodic tick: each tick's delay past
 * its schedule, kept in a millisecond histogram, so a run (and the scale bench) can say whether
 * anything on the loop thread held it up (a long commit, a re-score, a flood of records). */
#ifndef SESSMAX_TICKLAG_H
#define SESSMAX_TICKLAG_H

#include <stdint.h>

#define TICKLAG_BUCKETS 2001   /* 0..1999 ms, the last one: 2 s or more */

struct ticklag {
    uint64_t last_us;            /* when the previous tick ran (clock_now_us); 0 before the first */
    uint64_t max_us;             /* the longest delay */
    uint64_t ticks;              /* delays recorded */
    uint32_t hist[TICKLAG_BUCKETS];
};

void ticklag_init(struct ticklag *l);
/* Records the tick that ran at now_us, due period_us after the previous one. */
void ticklag_tick(struct ticklag *l, uint64_t now_us, uint64_t period_us);
/* The p-th percentile (0..100) of the delays, in µs, to the millisecond; 0 when none. */
uint64_t ticklag_percentile_us(const struct ticklag *l, double p);

#endif

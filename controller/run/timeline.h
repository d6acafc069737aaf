/* timeline.h -- how many sessions were active at any moment of a run, as a step function of
 * the controller's clock: +1 when a session became active, -1 when it stopped being active.
 * Events arrive roughly in time order (agents batch every 50 ms; a resumed agent's batches are
 * older), so insertion keeps the array sorted by moving only the newer tail. A sample's active
 * count is read at the moment it was taken, not when it reached the controller. */
#ifndef SESSMAX_TIMELINE_H
#define SESSMAX_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

struct timeline_event {
    uint64_t t_us;
    int32_t delta;       /* +1 or -1 */
    int32_t active;      /* active sessions just after this event */
};

struct timeline {
    struct timeline_event *ev;
    size_t n, cap;
};

void timeline_init(struct timeline *tl);
void timeline_free(struct timeline *tl);
/* Records a change of `delta` at t_us (after earlier events at the same instant). 0 or -1 when
 * out of memory. */
int timeline_add(struct timeline *tl, uint64_t t_us, int delta);
/* Active sessions at t_us: every event at or before t_us counted. */
uint32_t timeline_active_at(const struct timeline *tl, uint64_t t_us);

#endif

/* ramp.h -- the ramp's arithmetic, kept pure so it can be tested without a loop: when session i
 * starts, and which agent takes it.
 *
 * Sessions start evenly across the launch window: session i at i * window / sessions (the first
 * at 0, the last one interval before the window ends, as Login VSI spaces its launches). Each
 * session goes to the live agent with the lowest load relative to its capacity (ties: the lowest
 * slot), and never to an agent already at capacity. */
#ifndef SESSMAX_RAMP_H
#define SESSMAX_RAMP_H

#include <stddef.h>
#include <stdint.h>

/* Offset from the ramp start at which session `index` of `sessions` launches. */
uint64_t ramp_launch_offset_us(uint32_t index, uint32_t sessions, uint64_t window_us);

struct ramp_slot {
    uint32_t capacity;     /* sessions it may host */
    uint32_t assigned;     /* sessions given to it so far (ended ones included) */
    int alive;             /* 0: lost or not ready: never chosen */
};

/* Index of the agent for the next session, or -1 when every live agent is full. */
int ramp_pick_agent(const struct ramp_slot *slots, size_t n);

/* Sum of the capacities of live agents. */
uint64_t ramp_capacity(const struct ramp_slot *slots, size_t n);

#endif

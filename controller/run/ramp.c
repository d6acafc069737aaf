/* ramp.c -- launch times and agent choice (see ramp.h). */
#include "controller/run/ramp.h"

uint64_t ramp_launch_offset_us(uint32_t index, uint32_t sessions, uint64_t window_us)
{
    if (sessions == 0)
        return 0;
    /* 128-bit-safe enough: index < 2^17 and window < 2^40 µs (12 days) */
    return (uint64_t)((unsigned __int128)window_us * index / sessions);
}

int ramp_pick_agent(const struct ramp_slot *slots, size_t n)
{
    int best = -1;
    for (size_t i = 0; i < n; i++) {
        const struct ramp_slot *s = &slots[i];
        if (!s->alive || s->assigned >= s->capacity)
            continue;
        /* lower assigned/capacity wins: compare a/c < b/d as a*d < b*c */
        if (best < 0 || (uint64_t)s->assigned * slots[best].capacity <
                            (uint64_t)slots[best].assigned * s->capacity)
            best = (int)i;
    }
    return best;
}

uint64_t ramp_capacity(const struct ramp_slot *slots, size_t n)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        if (slots[i].alive)
            sum += slots[i].capacity;
    return sum;
}

/* think.c -- splitmix64 think-time generator; see think.h. */
#include "agent/interp/think.h"

void think_seed(struct think_rng *r, uint64_t seed)
{
    r->state = seed;
}

uint64_t think_next(struct think_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t think_draw_us(struct think_rng *r, uint64_t min_us, uint64_t max_us)
{
    if (max_us <= min_us)
        return min_us;
    uint64_t span = max_us - min_us + 1;   /* never 0: durations are far below 2^64 */
    uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    uint64_t x;
    do
        x = think_next(r);
    while (x >= limit);
    return min_us + x % span;
}

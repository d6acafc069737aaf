/* ticklag.c -- the controller tick's delays (see ticklag.h). */
#include "controller/run/ticklag.h"

#include <math.h>
#include <string.h>

void ticklag_init(struct ticklag *l) { memset(l, 0, sizeof *l); }

void ticklag_tick(struct ticklag *l, uint64_t now_us, uint64_t period_us)
{
    if (l->last_us) {
        uint64_t due = l->last_us + period_us, lag = now_us > due ? now_us - due : 0;
        uint64_t ms = lag / 1000;
        l->hist[ms < TICKLAG_BUCKETS - 1 ? ms : TICKLAG_BUCKETS - 1]++;
        l->max_us = lag > l->max_us ? lag : l->max_us;
        l->ticks++;
    }
    l->last_us = now_us;
}

uint64_t ticklag_percentile_us(const struct ticklag *l, double p)
{
    if (!l->ticks)
        return 0;
    uint64_t want = (uint64_t)ceil(p / 100.0 * (double)l->ticks - 1e-9), seen = 0;
    if (want < 1)
        want = 1;
    for (uint32_t k = 0; k < TICKLAG_BUCKETS; k++)
        if ((seen += l->hist[k]) >= want)
            return (uint64_t)k * 1000;
    return (uint64_t)(TICKLAG_BUCKETS - 1) * 1000;
}

/* line.c -- the arithmetic of one direction of the emulated link (see line.h). */
#include "agent/netem/line.h"

#include <math.h>

/* xorshift64*: fast, good enough for loss and jitter draws, and reproducible per seed. */
static uint64_t next_rand(struct netem_line *l)
{
    uint64_t x = l->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    l->rng = x;
    return x * 0x2545F4914F6CDD1Dull;
}

void netem_line_init(struct netem_line *l, uint64_t delay_ns, uint64_t jitter_ns, double loss, uint64_t rate_bps,
                     uint32_t queue_pkts, uint64_t rng_seed)
{
    *l = (struct netem_line){ 0 };
    l->delay_ns = delay_ns;
    l->jitter_ns = jitter_ns > delay_ns ? delay_ns : jitter_ns;
    l->loss_ppb = (uint32_t)llround(loss * 1e9);
    l->rate_bps = rate_bps;
    l->queue_bytes = (uint64_t)(queue_pkts ? queue_pkts : 1) * NETEM_LINE_MTU;
    l->rng = rng_seed ? rng_seed : 0x9E3779B97F4A7C15ull;
}

uint64_t netem_line_admit(struct netem_line *l, uint64_t now_ns, uint32_t len)
{
    if (l->loss_ppb && next_rand(l) % 1000000000u < l->loss_ppb) {
        l->lost++;
        return NETEM_LINE_DROP;
    }
    uint64_t t = now_ns;
    if (l->rate_bps) {
        uint64_t start = l->link_free_ns > now_ns ? l->link_free_ns : now_ns;
        /* bytes still waiting for the bottleneck when this packet arrives */
        uint64_t backlog = (uint64_t)((double)(start - now_ns) * (double)l->rate_bps / 8e9);
        if (backlog + len > l->queue_bytes) {
            l->queue_drops++;
            return NETEM_LINE_DROP;
        }
        l->link_free_ns = start + (uint64_t)((double)len * 8e9 / (double)l->rate_bps);
        t = l->link_free_ns;
    }
    uint64_t d = l->delay_ns;
    if (l->jitter_ns) {
        uint64_t span = 2 * l->jitter_ns + 1;
        d = d - l->jitter_ns + next_rand(l) % span;
    }
    t += d;
    if (t < l->last_out_ns)
        t = l->last_out_ns;
    l->last_out_ns = t;
    l->admitted++;
    l->bytes += len;
    return t;
}

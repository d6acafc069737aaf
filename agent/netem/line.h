/* line.h -- one direction of the emulated link, as pure arithmetic: for each packet offered
 * at time t it decides drop (random loss, or the bottleneck queue is full) or the time it leaves
 * the link (serialised at the configured rate behind the packets before it, then delayed by
 * one-way delay +- jitter, never before the packet ahead of it: no reordering). No I/O and no
 * clock of its own, so the unit test drives it with made-up times; agent/netem/shaper.c moves the
 * real packets. */
#ifndef SESSMAX_NETEM_LINE_H
#define SESSMAX_NETEM_LINE_H

#include <stdint.h>

#define NETEM_LINE_DROP UINT64_MAX
#define NETEM_LINE_MTU 1500

struct netem_line {
    /* configuration */
    uint64_t delay_ns;       /* one way */
    uint64_t jitter_ns;      /* delay is uniform in [delay - jitter, delay + jitter], clamped at 0 */
    uint32_t loss_ppb;       /* drop probability, parts per 1e9 */
    uint64_t rate_bps;       /* 0: no bottleneck */
    uint64_t queue_bytes;    /* backlog allowed behind the bottleneck before tail drop */
    /* state */
    uint64_t link_free_ns;   /* when the bottleneck has sent every admitted packet */
    uint64_t last_out_ns;    /* departure time of the last admitted packet */
    uint64_t rng;
    /* counters */
    uint64_t admitted, bytes, lost, queue_drops;
};

/* Configures a line (state zeroed). rng_seed must not be 0. */
void netem_line_init(struct netem_line *l, uint64_t delay_ns, uint64_t jitter_ns, double loss, uint64_t rate_bps,
                     uint32_t queue_pkts, uint64_t rng_seed);

/* A packet of len bytes arrives at now_ns (non-decreasing between calls). Returns the time it
 * leaves the link (>= now_ns, >= the previous packet's), or NETEM_LINE_DROP. */
uint64_t netem_line_admit(struct netem_line *l, uint64_t now_ns, uint32_t len);

#endif

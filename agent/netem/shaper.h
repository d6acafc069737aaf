/* shaper.h -- the packet path of the built-in link emulator: one thread forwarding whole IP
 * packets between two TUN devices (the agent's network namespace side and the host side), each
 * direction through a netem_line (loss, rate with a bounded queue, delay +- jitter, no
 * reordering). TCP in the agent meets a real lossy, slow, distant link: it retransmits, and its
 * RTT is what the profile says. Used by agent/netem/netem.c; the bench drives it too. */
#ifndef SESSMAX_NETEM_SHAPER_H
#define SESSMAX_NETEM_SHAPER_H

#include <stdint.h>

#include "common/netprofile.h"

struct netem_shaper;

/* Counters since start. "up" is client -> server (read from the namespace side). */
struct netem_stats {
    uint64_t pkts_up, pkts_down, bytes_up, bytes_down;   /* delivered */
    uint64_t lost_up, lost_down;                         /* random loss */
    uint64_t qdrop_up, qdrop_down;                       /* bottleneck queue full */
    uint64_t overflow;                                   /* emulator's own buffer full (should stay 0) */
    uint64_t late_p50_us, late_p99_us, late_max_us;      /* delivery later than scheduled */
    uint64_t cpu_ns;                                     /* the shaper thread's CPU time */
};

/* Starts the thread on two non-blocking TUN fds (IFF_TUN | IFF_NO_PI); the shaper owns and closes
 * them. NULL on failure (logged; the fds are closed). */
struct netem_shaper *netem_shaper_start(int fd_ns, int fd_host, const struct netprofile *p, uint64_t seed);

void netem_shaper_stats(struct netem_shaper *s, struct netem_stats *out);

/* Stops the thread, closes the fds, frees. Accepts NULL. */
void netem_shaper_stop(struct netem_shaper *s);

#endif

/* netstats.h -- per-session traffic counters: RDP payload bytes from freerdp_get_stats and
 * wire bytes + kernel RTT from TCP_INFO (<linux/tcp.h>, whose struct has bytes_acked etc.). */
#ifndef SESSMAX_NETSTATS_H
#define SESSMAX_NETSTATS_H

#include <freerdp/freerdp.h>

#include "common/results.h"

/* Fills wire_in, wire_out, rtt_us and the segment counters from the TCP socket fd. 0, or -1 (fields left as they were)
 * if fd is not a TCP socket. */
int netstats_tcp(int fd, struct rec_traffic *t);

/* Fills bytes_in/out (freerdp_get_stats) and, if sock_fd >= 0, the TCP fields. */
void netstats_sample(rdpContext *ctx, int sock_fd, struct rec_traffic *t);

#endif

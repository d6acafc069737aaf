/* netstats.h -- a session's wire bytes, segments and kernel RTTs (smoothed and minimum) from TCP_INFO (<linux/tcp.h>,
 * whose struct has bytes_acked etc.), for any driver that holds or can see a TCP socket. */
#ifndef SESSMAX_NETSTATS_H
#define SESSMAX_NETSTATS_H

#include "common/results.h"

/* Fills wire_in, wire_out, rtt_us, min_rtt_us and the segment counters from the TCP socket fd. 0, or -1 (fields left as they were)
 * if fd is not a TCP socket. */
int netstats_tcp(int fd, struct rec_traffic *t);

#endif

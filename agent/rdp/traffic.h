/* traffic.h -- the RDP session's traffic counters: payload bytes from freerdp_get_stats, wire
 * bytes and RTT from the TCP socket, one rec_traffic per interval to the sink. Private to
 * agent/rdp/. */
#ifndef SESSMAX_RDP_TRAFFIC_H
#define SESSMAX_RDP_TRAFFIC_H

#include <freerdp/freerdp.h>

#include "common/results.h"

struct rdp_session;

/* Fills bytes_in/out (freerdp_get_stats) and, if sock_fd >= 0, the TCP fields. */
void rdp_traffic_sample(rdpContext *ctx, int sock_fd, struct rec_traffic *t);

/* Sends the session's record now (nothing when it is not connected or the sink takes none). */
void rdp_traffic_report(struct rdp_session *s);

#endif

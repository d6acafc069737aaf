/* summary_net.h -- what the network did to a run, measured by the agents: TCP RTT percentiles over
 * every traffic record (the kernel's minimum RTT, the path's round trip, and its smoothed RTT, which
 * a server's delayed ACKs inflate when the client has little to send), the client sockets' retransmission rate, and the configured profile as
 * stored with the run, in one line for `score` and the report. Pure over the summary's inputs. */
#ifndef SESSMAX_SUMMARY_NET_H
#define SESSMAX_SUMMARY_NET_H

#include <stddef.h>

#include "controller/score/summary_types.h"

/* Fills out->rtt_p50_ms, rtt_p95_ms, min_rtt_p50_ms, min_rtt_p95_ms (NaN without RTT samples) and retrans_pct (NaN without data
 * segments), from in->traffic. */
void summary_net(const struct summary_input *in, struct summary *out);

/* "configured <profile>; measured min RTT p50 .. ms, p95 .. ms; kernel smoothed TCP RTT (includes
 * delayed ACKs) p50 .. ms, p95 .. ms, .. % of N data segments retransmitted (client side)"; the min
 * RTT part only when the run has it (schema version 11 on). */
void summary_net_line(const struct summary *s, char *buf, size_t len);

#endif

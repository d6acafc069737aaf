/* summary_net.h -- what the network did to a run, measured by the agents: TCP RTT percentiles over
 * every traffic record, the client sockets' retransmission rate, and the configured profile as
 * stored with the run, in one line for `score` and the report. Pure over the summary's inputs. */
#ifndef SESSMAX_SUMMARY_NET_H
#define SESSMAX_SUMMARY_NET_H

#include <stddef.h>

#include "controller/score/summary_types.h"

/* Fills out->rtt_p50_ms, rtt_p95_ms (NaN without RTT samples) and retrans_pct (NaN without data
 * segments), from in->traffic. */
void summary_net(const struct summary_input *in, struct summary *out);

/* "configured <profile>; measured RTT p50 .. ms, p95 .. ms, retransmitted .. % of data segments" */
void summary_net_line(const struct summary *s, char *buf, size_t len);

#endif

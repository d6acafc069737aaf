/* summary_cost.h -- what one session cost on the agent host, from the agents' health records:
 * the agent process itself per session (RSS and CPU divided by the sessions it held) and, with
 * external clients (client: x11), their client and X server processes per session (RSS, PSS,
 * CPU). `score` and the report print them side by side. Pure over the summary's inputs. */
#ifndef SESSMAX_SUMMARY_COST_H
#define SESSMAX_SUMMARY_COST_H

#include "controller/score/summary_types.h"

/* Fills out->ext_* (NaN, ext_sessions_max 0 when no record measured an external session) and
 * out->agent_rss_mib, agent_cpu_pct, agent_sessions_max (NaN, 0 when no record had a session),
 * from in->health. */
void summary_cost(const struct summary_input *in, struct summary *out);

#endif

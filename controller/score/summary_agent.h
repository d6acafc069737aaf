/* summary_agent.h -- the agent's own share of the scored samples and why it grew: the share of
 * each ok sample of the scored measure group (or of the focus timer of a single-user diagnosis)
 * that the agent took, from the screen update reaching its socket to the timer's end (rec_sample
 * agent_us), and the agents' loop thread CPU and run delay from their health records. The
 * launcher-health gate of verdict.c reads these (docs/scoring.md). Pure over its inputs. */
#ifndef SESSMAX_SUMMARY_AGENT_H
#define SESSMAX_SUMMARY_AGENT_H

#include <stddef.h>
#include <stdint.h>

#include "controller/score/summary_types.h"

/* From the shares (µs) of the n ok samples of the scored group that have one and the number
 * `unmeasured` of its ok samples without one: out->agent_samples, agent_unmeasured,
 * agent_mean_ms, agent_p95_ms (nearest rank), agent_max_ms (NaN when n is 0) and agent_delayed
 * (shares above out->config.params.agent_delay_max_ms). Sorts `share`. */
void summary_agent_samples(uint32_t *share, size_t n, size_t unmeasured, struct summary *out);

/* From in->health: out->sched_seen (records with scheduler figures), sched_records (those with a
 * session active) and their means loop_cpu_pct, loop_delay_pct, agent_delay_pct,
 * agent_proc_cpu_pct, throttled_pct (100 = one CPU; NaN when there is none). */
void summary_agent_health(const struct summary_input *in, struct summary *out);

#endif

/* summary_logon.h -- a run's logons in phases (the agents' logon records, common/results.h enum
 * logon_phase): p50/p95 of each phase over the sessions that measured it, launch to active beside
 * them, and a label per phase for `score` and the report. Pure over the summary's inputs. */
#ifndef SESSMAX_SUMMARY_LOGON_H
#define SESSMAX_SUMMARY_LOGON_H

#include "common/results.h"
#include "controller/score/summary_types.h"

/* Fills out->logon_phases[] (count 0 and NaN percentiles for a phase no session measured),
 * out->logon_phased (active sessions with any phase) and the launch-to-active percentiles, from
 * in->sessions. 0, or -1 out of memory. */
int summary_logon_phases(const struct summary_input *in, struct summary *out);

/* What phase p covers, in words ("TCP connect", ...); "?" out of range. */
const char *summary_logon_phase_label(enum logon_phase p);

#endif

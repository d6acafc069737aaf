/* summary_target.h -- whether a target on the controller's machine had its CPUs to itself: the
 * target's CPU use and that of every other process on its CPUs (the plan's target.local, sampled
 * by the run: controller/run/targetload.h), flagged as shared when the others took a real share.
 * Pure over the summary's inputs. */
#ifndef SESSMAX_SUMMARY_TARGET_H
#define SESSMAX_SUMMARY_TARGET_H

#include <stddef.h>

#include "controller/score/summary_types.h"

/* Other processes using this much of the target's CPUs on average make the target "shared". */
#define SUMMARY_TARGET_SHARED_PCT 10.0

/* Fills out->target_* and others_* (NaN without samples) and out->target_shared. */
void summary_target(const struct summary_input *in, struct summary *out);

/* "CPU 43 % of 1 CPU (max 98 %); other processes on its CPUs 61 % (max 95 %): SHARED ..." or
 * "- (not sampled: ...)". */
void summary_target_line(const struct summary *s, char *buf, size_t len);

#endif

/* report_resources.h -- the run report's section on the target's resources (plan
 * target.metrics): which one ran out at the knee, and charts of each against active sessions and
 * over time. Nothing when the run measured none. */
#ifndef SESSMAX_REPORT_RESOURCES_H
#define SESSMAX_REPORT_RESOURCES_H

#include <stdio.h>

#include "controller/score/summary.h"

void report_resources(FILE *o, const struct summary *s);

#endif

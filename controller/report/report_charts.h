/* report_charts.h -- the SVG charts of the run report, each drawn from a summary. */
#ifndef SESSMAX_REPORT_CHARTS_H
#define SESSMAX_REPORT_CHARTS_H

#include <stdio.h>

#include "controller/score/summary.h"

/* Most points one polyline draws; larger runs are decimated evenly (data-n says how many). */
#define REPORT_MAX_POINTS 4000

void report_chart_response(FILE *o, const struct summary *s);
void report_chart_timers(FILE *o, const struct summary *s);
void report_chart_logon(FILE *o, const struct summary *s);
void report_chart_bandwidth(FILE *o, const struct summary *s);
void report_chart_health(FILE *o, const struct summary *s);
/* Active sessions over time, with the planned count. */
void report_chart_sessions(FILE *o, const struct summary *s);
/* The target's CPU over time (target.local); nothing when it was not sampled. */
void report_chart_target(FILE *o, const struct summary *s);

#endif

/* report_costs.h -- the report's "Session costs" table: what one session cost on the agent host,
 * the agent process itself and, with external clients (client: x11), the client and its X server
 * (RSS, PSS, CPU), under the run's client and transport labels. */
#ifndef SESSMAX_REPORT_COSTS_H
#define SESSMAX_REPORT_COSTS_H

#include <stdio.h>

struct summary;

/* Writes the section (heading, table id="costs", one line of explanation); labels are escaped. */
void report_costs(FILE *o, const struct summary *s);

#endif

/* report_logon.h -- the run report's logon phases: one table, p50 and p95 of each phase
 * (controller/score/summary_logon.h), with launch to active beside the whole logon. */
#ifndef SESSMAX_REPORT_LOGON_H
#define SESSMAX_REPORT_LOGON_H

#include <stdio.h>

struct summary;

/* Writes <table id="logon-phases">; a one-line note instead when no session measured its
 * phases (a run stored before schema version 11, or external clients). */
void report_logon_phases(FILE *o, const struct summary *s);

#endif

/* prom_label.h -- one label of the Prometheus / OpenMetrics text formats, escaped as both say:
 * backslash, double quote and line feed get a backslash; other control characters (a CR would
 * end the line for some readers) become '?'. Shared by the OpenMetrics export and the live
 * /metrics endpoint, so a run name cannot forge a metric line in either. */
#ifndef SESSMAX_PROM_LABEL_H
#define SESSMAX_PROM_LABEL_H

#include <stdio.h>

/* Writes `key="value"` (escaped), preceded by a comma when `comma` is set. */
void prom_label(FILE *o, int comma, const char *key, const char *value);

#endif

/* export.h -- one run's summary and verdict as CSV, JSON, JUnit XML or OpenMetrics text, for
 * spreadsheets, scripts, CI test reports and Prometheus-style collectors. */
#ifndef SESSMAX_EXPORT_H
#define SESSMAX_EXPORT_H

#include <stdio.h>

#include "controller/score/summary.h"
#include "controller/score/verdict.h"

enum export_format { EXPORT_CSV, EXPORT_JSON, EXPORT_JUNIT, EXPORT_OPENMETRICS };

/* "csv" | "json" | "junit" | "openmetrics"; -1 when unknown. */
int export_parse_format(const char *name);

/* Writes the run; returns 0 or -1 on a write error (errno set). */
int export_write(const struct summary *s, const struct verdict *v, enum export_format fmt, FILE *out);

/* One CSV field on one line: control characters and newlines escaped as text (\n, \x01;
 * controller/score/textesc.h), quoted (RFC 4180) when it holds a comma or a quote, and a
 * leading apostrophe before a formula-like text. */
void export_csv_field(FILE *o, const char *s);

/* Raw measure curve as CSV: t_us,active,value_ms,index_ms (one line per ok sample). */
int export_points_csv(const struct summary *s, FILE *out);

#endif

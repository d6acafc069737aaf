/* controller/report/ -- what a scored run looks like outside the console. report.c writes the
 * one-page HTML report (report_html.c the page frame, report_charts.c the charts, report_costs.c
 * the per-session costs, svg.c the SVG primitives), dashboard.c the nightly index over all runs, export.c JSON / CSV / JUnit /
 * OpenMetrics, compare.c the side-by-side table of several runs, ab.c the A/B table of two. It reads summaries and
 * verdicts from score/ and never computes a figure itself.
 *
 * report.h -- the one-page HTML report of a run (self-contained: inline CSS and SVG, no script,
 * no external resource) (the nightly dashboard over all runs is dashboard.h). */
#ifndef SESSMAX_REPORT_H
#define SESSMAX_REPORT_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct summary;
struct verdict;

/* Loads run `run`, scores it with its stored parameters and writes the report to `path`.
 * Returns 0, or -1 with a one-line err (store, data or I/O error). */
int report_write(struct store *st, int64_t run, const char *path, char *err, size_t errlen);

/* The same from an already computed summary and verdict. */
int report_write_summary(const struct summary *s, const struct verdict *v, const char *path,
                         char *err, size_t errlen);

#endif

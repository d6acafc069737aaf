/* report.h -- the one-page HTML report of a run (self-contained: inline CSS and SVG, no script,
 * no external resource) and the nightly dashboard over all runs of a store. */
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

/* Writes DIR/index.html (trend of smax and baseline per transport x platform x network) and
 * DIR/run-<id>.html for every run. Creates DIR. Returns 0 or -1 with err. */
int dashboard_write(struct store *st, const char *dir, char *err, size_t errlen);

#endif

/* dashboard.h -- the nightly view over every run of a results store: smax and baseline over
 * dates with one line per cell (transport x platform x network x client), runs that moved beyond
 * the tolerance against their cell's trailing median marked (score/trend.h), a table per cell,
 * and one report page per run. */
#ifndef SESSMAX_DASHBOARD_H
#define SESSMAX_DASHBOARD_H

#include <stddef.h>

struct store;

#define DASHBOARD_TOLERANCE 0.10   /* default: 10 % */
#define DASHBOARD_LAST 7           /* default: trailing median of the previous 7 runs */

struct dashboard_options {
    double tolerance;              /* fraction */
    size_t last;                   /* runs behind the trailing median */
};

/* Writes DIR/index.html and DIR/run-<id>.html for every run; creates DIR. Returns 0; 1 when a
 * run's data could not be read: it was skipped (its row says why, it has no page), the others
 * were written, and err names the first one; -1 with err when a page cannot be written.
 * dashboard_write uses the default tolerance and window. */
int dashboard_write_opts(struct store *st, const char *dir, const struct dashboard_options *opt, char *err,
                         size_t errlen);
int dashboard_write(struct store *st, const char *dir, char *err, size_t errlen);

#endif

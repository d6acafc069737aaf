/* dashboard.h -- the nightly view over every run of a results store: an index with the trend of
 * smax and baseline per transport x platform x network, and one report page per run. */
#ifndef SESSMAX_DASHBOARD_H
#define SESSMAX_DASHBOARD_H

#include <stddef.h>

struct store;

/* Writes DIR/index.html (trend of smax and baseline per transport x platform x network) and
 * DIR/run-<id>.html for every run. Creates DIR. Returns 0 or -1 with err. */
int dashboard_write(struct store *st, const char *dir, char *err, size_t errlen);

#endif

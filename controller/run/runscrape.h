/* runscrape.h -- the run's side of target.metrics (plan_metrics.h): starts the scrapes
 * (scrape.h) on the run's loop, stores every row with the sessions active at that moment, feeds
 * the live view, and stops them at the end of the run. */
#ifndef SESSMAX_RUNSCRAPE_H
#define SESSMAX_RUNSCRAPE_H

#include <stddef.h>

struct runner;

/* Starts scraping when the plan names endpoints (nothing to do otherwise). Call after the loop
 * exists and before the store opens: a bearer token file that cannot be read stops the run
 * before it begins. 0, or -1 with a one-line err. */
int runscrape_start(struct runner *r, char *err, size_t errlen);
/* Stops the scrapes (nothing when none were started). */
void runscrape_stop(struct runner *r);

#endif

/* live_resources.h -- the target's resources in the live state (live.h's res[]): the newest
 * scrape of each of its exporters (plan target.metrics), as the run stores them. */
#ifndef SESSMAX_WEB_LIVE_RESOURCES_H
#define SESSMAX_WEB_LIVE_RESOURCES_H

#include "controller/web/live.h"

/* The newest figures of r->source (a new source takes the next slot; beyond
 * WEB_LIVE_MAX_SOURCES it is dropped). */
void web_live_resources(struct web_live *w, const struct web_live_resources *r);

#endif

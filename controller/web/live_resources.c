/* live_resources.c -- the target's resources in the live state (live_resources.h). */
#include "controller/web/live_resources.h"

#include <string.h>

void web_live_resources(struct web_live *w, const struct web_live_resources *r)
{
    size_t i = 0;
    while (i < w->nres && strcmp(w->res[i].source, r->source) != 0)
        i++;
    if (i == WEB_LIVE_MAX_SOURCES)
        return;
    w->res[i] = *r;
    if (i == w->nres)
        w->nres++;
}

/* workload_model.c -- the plain lookups on a parsed workload (see workload_model.h): accessors,
 * a region by name, a timer's index. */
#include "common/workload_model.h"

#include <string.h>

const char *workload_name(const struct workload *wl) { return wl->name; }
const char *workload_hash(const struct workload *wl) { return wl->hash; }
uint32_t workload_width(const struct workload *wl) { return wl->width; }
uint32_t workload_height(const struct workload *wl) { return wl->height; }
uint32_t workload_bpp(const struct workload *wl) { return wl->bpp; }

const struct workload_region *workload_region(const struct workload *wl, const char *name)
{
    for (size_t i = 0; i < wl->nregions; i++)
        if (!strcmp(wl->regions[i].name, name))
            return &wl->regions[i];
    return NULL;
}

int workload_timer_index(const struct workload *wl, const char *name)
{
    for (size_t i = 0; i < wl->ntimers; i++)
        if (!strcmp(wl->timers[i], name))
            return (int)i;
    return -1;
}

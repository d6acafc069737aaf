/* timeline.c -- the active-session step function of a run (see timeline.h). */
#include "controller/run/timeline.h"

#include <stdlib.h>
#include <string.h>

#define TIMELINE_FIRST_CAP 1024

void timeline_init(struct timeline *tl) { memset(tl, 0, sizeof *tl); }

void timeline_free(struct timeline *tl)
{
    free(tl->ev);
    memset(tl, 0, sizeof *tl);
}

/* Index of the first event later than t_us (n when none). */
static size_t first_after(const struct timeline *tl, uint64_t t_us)
{
    size_t lo = 0, hi = tl->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tl->ev[mid].t_us <= t_us)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int timeline_add(struct timeline *tl, uint64_t t_us, int delta)
{
    if (tl->n == tl->cap) {
        size_t cap = tl->cap ? tl->cap * 2 : TIMELINE_FIRST_CAP;
        struct timeline_event *ev = realloc(tl->ev, cap * sizeof *ev);
        if (!ev)
            return -1;
        tl->ev = ev;
        tl->cap = cap;
    }
    /* usually the newest: no search, nothing moves */
    size_t at = tl->n && tl->ev[tl->n - 1].t_us > t_us ? first_after(tl, t_us) : tl->n;
    memmove(&tl->ev[at + 1], &tl->ev[at], (tl->n - at) * sizeof *tl->ev);
    tl->n++;
    int32_t active = at ? tl->ev[at - 1].active : 0;
    tl->ev[at] = (struct timeline_event){ t_us, delta, active + delta };
    for (size_t i = at + 1; i < tl->n; i++)
        tl->ev[i].active += delta;
    return 0;
}

uint32_t timeline_active_at(const struct timeline *tl, uint64_t t_us)
{
    size_t k = first_after(tl, t_us);
    return k && tl->ev[k - 1].active > 0 ? (uint32_t)tl->ev[k - 1].active : 0;
}

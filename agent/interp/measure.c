/* measure.c -- weighted measure groups over one loop's timer samples; see measure.h. */
#include "agent/interp/measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct measure_member { int64_t value_us; uint8_t have, ok, has_agent; uint32_t agent_us; };

struct measure_track {
    const struct workload *wl;
    struct measure_member *members;      /* all groups' members, group after group */
    uint8_t *emitted;                    /* per group, this loop */
};

struct measure_track *measure_track_new(const struct workload *wl)
{
    size_t total = 0;
    for (size_t g = 0; g < wl->nmeasures; g++)
        total += wl->measures[g].n;
    struct measure_track *mt = calloc(1, sizeof *mt);
    if (!mt)
        return NULL;
    mt->wl = wl;
    mt->members = calloc(total ? total : 1, sizeof *mt->members);
    mt->emitted = calloc(wl->nmeasures ? wl->nmeasures : 1, 1);
    if (!mt->members || !mt->emitted) {
        measure_track_free(mt);
        return NULL;
    }
    return mt;
}

void measure_track_free(struct measure_track *mt)
{
    if (!mt)
        return;
    free(mt->members);
    free(mt->emitted);
    free(mt);
}

void measure_track_reset(struct measure_track *mt)
{
    size_t total = 0;
    for (size_t g = 0; g < mt->wl->nmeasures; g++)
        total += mt->wl->measures[g].n;
    memset(mt->members, 0, total * sizeof *mt->members);
    memset(mt->emitted, 0, mt->wl->nmeasures);
}

void measure_track_feed(struct measure_track *mt, const struct rec_sample *ts,
                        void (*emit)(void *ctx, const struct rec_sample *s), void *ctx)
{
    struct measure_member *m = mt->members;
    for (size_t g = 0; g < mt->wl->nmeasures; g++) {
        const struct workload_measure *grp = &mt->wl->measures[g];
        int complete = 1, failed = 0, suspect = 0, touched = 0, agent = 1;
        double sum = 0, share = 0;
        for (size_t j = 0; j < grp->n; j++) {
            if (!mt->emitted[g] && !strcmp(grp->items[j].timer, ts->name)) {
                m[j] = (struct measure_member){ ts->value_us, 1, ts->ok, ts->has_agent, ts->agent_us };
                touched = 1;
            }
            complete &= m[j].have;
            failed |= m[j].have && m[j].ok == SAMPLE_FAILED;
            suspect |= m[j].ok == SAMPLE_SUSPECT;
            sum += grp->items[j].weight * (double)m[j].value_us;
            share += grp->items[j].weight * (double)m[j].agent_us;
            agent &= m[j].has_agent;
        }
        if (touched && complete) {
            mt->emitted[g] = 1;
            struct rec_sample s = { .session = ts->session, .loop = ts->loop, .t_us = ts->t_us,
                                    .value_us = llround(sum), .is_measure = 1,
                                    .ok = failed ? SAMPLE_FAILED : suspect ? SAMPLE_SUSPECT : SAMPLE_OK };
            memcpy(s.name, grp->name, sizeof s.name);
            if (agent && s.ok != SAMPLE_FAILED) {
                s.has_agent = 1;
                s.agent_us = share <= 0 ? 0 : share >= UINT32_MAX ? UINT32_MAX : (uint32_t)llround(share);
            }
            emit(ctx, &s);
        }
        m += grp->n;
    }
}

/* live_smax.c -- the live smax tile and gauges (live_smax.h). */
#include "controller/web/live_smax.h"

#include <stdio.h>

#include "common/score_rule.h"

void web_live_smax(struct web_live_smax *s, const struct score_result *r)
{
    if (!r) {
        *s = (struct web_live_smax){ 0 };
        return;
    }
    s->scored = r->status == SCORE_OK;
    s->reached = s->scored && r->reached;
    s->cross_active = s->reached ? r->cross_active : 0;
    s->max_active = r->max_active;
    s->smax = s->reached ? r->smax : (r->max_active > 0 ? (int)r->max_active - 1 : 0);
    s->samples_ok = r->samples_ok;
    s->samples_needed = r->samples_needed;
}

int web_live_smax_value(const struct web_live_smax *s)
{
    return s->scored ? s->smax : -1;
}

void web_live_smax_text(const struct web_live_smax *s, char *buf, size_t len)
{
    if (!len)
        return;
    if (!s->scored)
        snprintf(buf, len, "not scored yet (%zu of %zu samples)", s->samples_ok, s->samples_needed);
    else if (s->reached)
        snprintf(buf, len, "smax %d (crossed at %u active)", s->smax, s->cross_active);
    else
        snprintf(buf, len, "not reached yet (>= %d)", s->smax);
}

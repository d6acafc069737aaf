/* score.c -- smax as the console and the reports write it (score.h). */
#include "controller/score/score.h"

#include <stdio.h>

void score_format_smax(const struct score_result *r, char *buf, size_t len)
{
    if (r->status != SCORE_OK)
        snprintf(buf, len, "n/a (too few samples: %zu of %zu needed)", r->samples_ok, r->samples_needed);
    else if (r->reached)
        snprintf(buf, len, "%d", r->smax);
    else
        snprintf(buf, len, "not reached at %u active (smax >= %u)", r->max_active,
                 r->max_active > 0 ? r->max_active - 1 : 0);
}

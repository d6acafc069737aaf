/* live_alarms.c -- the live banner's alarms and the failures by reason (live_alarms.h). */
#include "controller/web/live_alarms.h"

#include <string.h>


void web_live_alarms_set(struct web_live_alarms *x, const struct web_live_alarm *a, size_t n)
{
    x->judged = 1;
    x->n = n < WEB_LIVE_MAX_ALARMS ? n : WEB_LIVE_MAX_ALARMS;
    if (x->n)
        memcpy(x->a, a, x->n * sizeof *a);
}

void web_live_failures(struct web_live_alarms *x, const uint32_t *failed)
{
    memcpy(x->failed, failed, sizeof x->failed);
}

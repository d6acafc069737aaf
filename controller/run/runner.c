/* runner.c -- the services every part of a run uses: notes, store failures, live agents. */
#include "controller/run/runner.h"

#include "common/clock.h"
#include "common/log.h"
#include "controller/run/agentpool.h"
#include "controller/score/textesc.h"
#include "db/store.h"

#include <stdarg.h>
#include <stdio.h>

void runner_note(struct runner *r, const char *fmt, ...)
{
    char raw[512], line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    textesc(line, sizeof line, raw, TEXTESC_LINE);   /* notes quote what agents sent (reasons, names) */
    progress_note(&r->progress, "%s", line);
    if (r->st && r->run > 0)
        store_add_event(r->st, r->run, clock_wall_us(), "info", line);
}

void runner_stored(struct runner *r, int rc, const char *what)
{
    if (rc >= 0)
        return;
    r->store_errors++;
    log_ratelimited(LOG_ERROR, "store", "results store: %s failed: %s", what, store_errmsg(r->st));
    /* results are being lost (a full disk, an I/O error): no verdict can rest on this run, so
     * it stops now with that reason instead of running on blind */
    if (r->store_errors == 1 && !r->aborted && !r->failed_run) {
        snprintf(r->message, sizeof r->message, "results store: %s failed (%.300s); the run stopped, results "
                 "from then on are missing", what, store_errmsg(r->st));
        r->failed_run = 1;
        if (r->phase < RUNNER_LOGOFF && r->begin_logoff)
            r->begin_logoff(r, r->message);
    }
}

int runner_agents_alive(struct runner *r)
{
    int n = 0;
    for (size_t i = 0; i < agentpool_count(r->pool); i++)
        n += agentpool_agent(r->pool, i)->state == AGENTPOOL_AGENT_READY ||
             agentpool_agent(r->pool, i)->state == AGENTPOOL_AGENT_AWAY;
    return n;
}

/* runscrape.c -- scrapes of the target's exporters tied to a run (runscrape.h). */
#include "controller/run/runscrape.h"

#include "controller/run/plan.h"
#include "controller/run/runner.h"
#include "controller/run/scrape.h"
#include "controller/run/webfeed.h"
#include "db/store.h"
#include "db/store_metrics.h"

static void row_cb(void *ctx, struct store_target_metrics *m)
{
    struct runner *r = ctx;
    m->active = r->ledger.active;
    if (r->st && r->run > 0)
        runner_stored(r, store_add_target_metrics(r->st, r->run, m), "target metrics");
    webfeed_metrics(r, m);
}

static void note_cb(void *ctx, const char *line)
{
    runner_note(ctx, "%s", line);
}

int runscrape_start(struct runner *r, char *err, size_t errlen)
{
    if (!r->plan->target.metrics.n)
        return 0;
    struct scrape_sink sink = { row_cb, note_cb, r };
    r->scrape = scrape_start(r->base, &r->plan->target.metrics, &sink, err, errlen);
    return r->scrape ? 0 : -1;
}

void runscrape_stop(struct runner *r)
{
    scrape_free(r->scrape);
    r->scrape = NULL;
}

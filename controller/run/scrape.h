/* scrape.h -- the controller scrapes the target's exporters (plan target.metrics) during a run:
 * every endpoint on its own timer on the run's libevent loop, one non-blocking HTTP(S) GET at a
 * time (libevent's evhttp, names resolved by evdns), with a timeout. An exporter's /metrics is
 * read as is; a Prometheus server is asked for the host's series through /federate (match
 * {instance="..."}), which carry the server's own sample times. Each reply becomes a reading
 * (hostmetrics.h); from the second on, the rates since the previous one go to the caller as a
 * row. An endpoint that does not answer (or answers without exporter metrics) is one warning
 * through the note callback, and one more the first time it answers again; the run never stops
 * for it.
 * https endpoints are pinned by certificate fingerprint before any request byte (and any bearer
 * token) is sent. Loop thread only. */
#ifndef SESSMAX_SCRAPE_H
#define SESSMAX_SCRAPE_H

#include <stddef.h>

#include "controller/run/plan_metrics.h"
#include "db/store_metrics.h"

struct event_base;
struct scrape;

struct scrape_sink {
    /* A row of figures (t_us and source set, active 0: the caller knows the sessions). */
    void (*row)(void *ctx, struct store_target_metrics *m);
    /* One line for the console and the run's events. */
    void (*note)(void *ctx, const char *line);
    void *ctx;
};

/* Sets the scrapes of every endpoint of `m` up on `base` and starts them (the first at once).
 * Reads the bearer token files now. NULL with a one-line err when a token file cannot be read
 * or memory ran out; an endpoint that cannot be reached is not an error here. */
struct scrape *scrape_start(struct event_base *base, const struct plan_metrics *m, const struct scrape_sink *sink,
                            char *err, size_t errlen);
/* Stops every timer and request in flight, frees everything (NULL accepted). */
void scrape_free(struct scrape *s);

#endif

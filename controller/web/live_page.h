/* live_page.h -- the pages of `sessmax run --web`: "/" (the live page: counts, the response
 * time against active sessions with baseline, threshold and crossing, timers, agents, target and
 * network; it polls "/api/live" every 2 s and needs nothing from the internet), "/api/live" (the
 * live state as JSON) and "/metrics" (Prometheus text format, metrics.h). */
#ifndef SESSMAX_WEB_LIVE_PAGE_H
#define SESSMAX_WEB_LIVE_PAGE_H

#include <stddef.h>

#include "controller/web/live.h"

struct evkeyvalq;

/* A web_page_fn (server.h) whose arg is the struct web_live. */
int web_live_page(void *arg, const char *path, const struct evkeyvalq *query, char **body, size_t *len,
                  const char **content_type);
/* The live state as a JSON text (malloc'd), or NULL on allocation failure. */
char *web_live_json(const struct web_live *w);

#endif

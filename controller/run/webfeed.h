/* webfeed.h -- `sessmax run --web`: starts the live web view (controller/web) on the run's own
 * loop and feeds it what the run sees: the tick's counts, every sample, traffic and health
 * record, session events, lost agents and the target's CPU; it judges the verdict's validity
 * rules on them as it goes (livevalid.h). Every function does nothing when the run has no web
 * view (r->web NULL), so the run's parts call them unconditionally. */
#ifndef SESSMAX_WEBFEED_H
#define SESSMAX_WEBFEED_H

#include "common/results.h"
#include "controller/run/progress.h"

struct runner;
struct store_target_load;
struct store_target_metrics;

/* Starts the server on r->base at `addr` (NULL: no web view) with the token in `token_file`
 * (NULL: a random one) and prints its URL. 0, or an exit code with one line on stderr. */
int webfeed_start(struct runner *r, const char *addr, const char *token_file);
void webfeed_stop(struct runner *r);
/* The tick's counts and the live score as re-scored so far (the smax tile). */
void webfeed_counts(struct runner *r, const struct progress_state *s, uint64_t now_us);
/* A session event (failures by reason, the first refused user: the live verdict's rules). */
void webfeed_session(struct runner *r, const struct rec_session *e);
void webfeed_sample(struct runner *r, const struct rec_sample *s);
void webfeed_traffic(struct runner *r, const struct rec_traffic *t);
void webfeed_health(struct runner *r, const char *agent, const struct rec_health *h);
/* Agent `agent` is lost with `sessions` of its sessions (marked failed, reason lost). */
void webfeed_lost(struct runner *r, const char *agent, uint32_t sessions);
void webfeed_target(struct runner *r, const struct store_target_load *tl);
/* A row scraped from the target's exporters (target.metrics). */
void webfeed_metrics(struct runner *r, const struct store_target_metrics *m);

#endif

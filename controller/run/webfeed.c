/* webfeed.c -- the run's live web view, fed from the loop thread (webfeed.h). */
#include "controller/run/webfeed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "common/clock.h"
#include "controller/run/livevalid.h"
#include "controller/run/plan.h"
#include "controller/run/runner.h"
#include "controller/score/summary_evidence.h"
#include "controller/web/live.h"
#include "controller/web/live_alarms.h"
#include "controller/web/live_failures.h"
#include "controller/web/live_resources.h"
#include "controller/web/live_smax.h"
#include "controller/web/live_page.h"
#include "common/web_server.h"
#include "db/store_metrics.h"
#include "db/store_write.h"

struct webfeed {
    struct web_live live;
    struct web_server *srv;
    struct livevalid valid;   /* the verdict's rules judged live: the banner */
};

/* POST /api/stop (the page's stop button): the run ends as an early stop does -- the sessions
 * log off, the results are kept and scored. */
static int on_post(void *arg, const char *path, char *msg, size_t len)
{
    struct runner *r = arg;
    if (strcmp(path, "/api/stop") != 0) {
        snprintf(msg, len, "no such action");
        return 404;
    }
    if (r->phase >= RUNNER_LOGOFF || !r->begin_logoff) {
        snprintf(msg, len, "the run is already ending");
        return 409;
    }
    r->begin_logoff(r, "early stop: stopped from the live view");
    snprintf(msg, len, "stopping: the sessions log off; the results are kept and scored");
    return 200;
}

int webfeed_start(struct runner *r, const char *addr, const char *token_file)
{
    if (!addr)
        return 0;
    char err[512], token[128] = "";
    if (token_file && web_token_read_file(token_file, token, sizeof token, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax run: --web-token-file %s\n", err);
        return EX_CONFIG;
    }
    struct webfeed *w = calloc(1, sizeof *w);
    if (!w || web_live_init(&w->live, r->plan->sessions, clock_now_us()) < 0) {
        free(w);
        fprintf(stderr, "sessmax run: out of memory\n");
        return EX_SOFTWARE;
    }
    const struct plan *p = r->plan;
    livevalid_init(&w->valid, r->live.params);
    web_live_labels(&w->live, r->run, p->name, p->platform, plan_transport_name(p->transport), p->network);
    plan_client_label(&p->client, w->live.client, sizeof w->live.client);
    w->srv = web_server_start(r->base, addr, token, web_live_page, &w->live, err, sizeof err);
    if (!w->srv) {
        livevalid_free(&w->valid);
        web_live_free(&w->live);
        free(w);
        fprintf(stderr, "sessmax run: %s\n", err);
        return EX_UNAVAILABLE;
    }
    web_server_on_post(w->srv, on_post, r);
    r->web = w;
    fprintf(r->out, "live view: %s  (metrics: /metrics with the same token)\n", web_server_url(w->srv));
    fflush(r->out);
    return 0;
}

void webfeed_stop(struct runner *r)
{
    struct webfeed *w = r->web;
    if (!w)
        return;
    web_server_free(w->srv);
    livevalid_free(&w->valid);
    web_live_free(&w->live);
    free(w);
    r->web = NULL;
}

static void judge(struct webfeed *w, struct runner *r, const struct progress_state *s, uint64_t now_us);

void webfeed_counts(struct runner *r, const struct progress_state *s, uint64_t now_us)
{
    if (!r->web)
        return;
    r->web->live.run_id = r->run;   /* known once the store is open, after the view started */
    struct web_live_counts c = { s->phase, s->sessions, s->launched, s->active, s->failed, s->ended, 0,
                                 s->agents, s->agents_expected, s->index_ms, s->baseline_ms, s->threshold_ms,
                                 s->crossed, s->left_s, s->samples };
    web_live_counts(&r->web->live, &c, now_us);
    web_live_smax(&r->web->live.smax, r->live.runs ? &r->live.result : NULL);   /* nothing before a re-scoring */
    judge(r->web, r, s, now_us);
}

/* The verdict's validity rules on what the run has seen: the broken ones the run cannot recover
 * from become the banner's alarms (livevalid.h). */
static void judge(struct webfeed *w, struct runner *r, const struct progress_state *s, uint64_t now_us)
{
    web_live_failures(&w->live.alarms, w->valid.failed);
    if (!livevalid_judge(&w->valid, r->live.runs ? &r->live.result : NULL, s->launched, s->agents_expected, now_us,
                         0))
        return;
    struct web_live_alarm a[WEB_LIVE_MAX_ALARMS];
    size_t n = 0;
    for (size_t i = 0; i < w->valid.v.item_count && n < WEB_LIVE_MAX_ALARMS; i++) {
        const struct verdict_item *it = &w->valid.v.items[i];
        if (!livevalid_alarm(it))
            continue;
        snprintf(a[n].key, sizeof a[n].key, "%s", it->key);
        snprintf(a[n].rule, sizeof a[n].rule, "%s", it->text);
        snprintf(a[n].reason, sizeof a[n].reason, "%s", it->reason);
        n++;
    }
    web_live_alarms_set(&w->live.alarms, a, n);
}

void webfeed_session(struct runner *r, const struct rec_session *e)
{
    if (!r->web)
        return;
    livevalid_session(&r->web->valid, e);
    if (e->kind != SESSION_FAILED)
        return;
    struct web_live *l = &r->web->live;
    if (!l->failures.shots[0])
        web_live_shots_dir(&l->failures, r->shots);
    struct web_live_failure f = { .session = e->session };
    uint64_t now = clock_now_us();
    f.t_s = (float)((now > l->t0_us ? now - l->t0_us : 0) / 1e6);
    char detail[RESULTS_DETAIL_LEN];
    snprintf(detail, sizeof detail, "%s", e->detail);
    summary_split_screen(detail, f.screen, sizeof f.screen);
    snprintf(f.user, sizeof f.user, "%s", e->user);
    snprintf(f.reason, sizeof f.reason, "%s", failure_reason_name(e->reason));
    snprintf(f.detail, sizeof f.detail, "%s", detail);
    web_live_failure_add(&l->failures, &f);
    web_live_failures(&l->alarms, r->web->valid.failed);   /* the table at once, with the list */
}

void webfeed_sample(struct runner *r, const struct rec_sample *s)
{
    if (!r->web)
        return;
    web_live_sample(&r->web->live, s->name, s->is_measure, s->ok != SAMPLE_FAILED, s->value_us);
    livevalid_sample(&r->web->valid, s);
}

void webfeed_traffic(struct runner *r, const struct rec_traffic *t)
{
    if (r->web)
        web_live_traffic(&r->web->live, t->session, t->t_us, t->bytes_in + t->bytes_out, t->rtt_us);
}

void webfeed_health(struct runner *r, const char *agent, const struct rec_health *h)
{
    if (!r->web)
        return;
    web_live_health(&r->web->live, agent, h->lag_p99_us / 1000.0, h->cpu_permille / 10.0, h->rss_kb / 1024.0,
                    h->sessions_active);
    livevalid_health(&r->web->valid, agent, h);
}

void webfeed_lost(struct runner *r, const char *agent, uint32_t sessions)
{
    if (!r->web)
        return;
    web_live_agent_lost(&r->web->live, agent);
    livevalid_lost(&r->web->valid, sessions);
}

void webfeed_target(struct runner *r, const struct store_target_load *tl)
{
    if (r->web && tl->cpus)
        web_live_target(&r->web->live, tl->target_permille / 10.0, tl->others_permille / 10.0);
}

static double sum2(double a, double b)
{
    return isfinite(a) || isfinite(b) ? (isfinite(a) ? a : 0) + (isfinite(b) ? b : 0) : NAN;
}

void webfeed_metrics(struct runner *r, const struct store_target_metrics *m)
{
    if (!r->web)
        return;
    double total = m->mem_used_bytes + m->mem_avail_bytes;
    struct web_live_resources x = { .active = m->active, .cpu_pct = m->cpu_pct,
                                    .mem_pct = total > 0 ? m->mem_used_bytes / total * 100 : NAN,
                                    .disk_busy_pct = m->disk_busy_pct, .net_pct = m->net_pct,
                                    .disk_bytes_s = sum2(m->disk_read_bps, m->disk_write_bps),
                                    .net_bytes_s = sum2(m->net_rx_bps, m->net_tx_bps), .sessions = m->sessions };
    snprintf(x.source, sizeof x.source, "%s", m->source);
    web_live_resources(&r->web->live, &x);
}

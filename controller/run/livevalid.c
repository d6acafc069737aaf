/* livevalid.c -- the verdict's validity rules while the run goes on (livevalid.h). */
#include "controller/run/livevalid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/score/summary_agent.h"

void livevalid_init(struct livevalid *lv, const struct score_params *params)
{
    memset(lv, 0, sizeof *lv);
    lv->params = params;
}

void livevalid_free(struct livevalid *lv)
{
    free(lv->share);
    lv->share = NULL;
    lv->nshare = lv->cap = 0;
}

void livevalid_session(struct livevalid *lv, const struct rec_session *e)
{
    if (e->kind != SESSION_FAILED)
        return;
    enum failure_reason r = (unsigned)e->reason < FAIL__COUNT ? e->reason : FAIL_INTERNAL;
    lv->failed[r]++;
    if (r == FAIL_AUTH && !lv->auth_user[0])
        snprintf(lv->auth_user, sizeof lv->auth_user, "%s", e->user);
}

void livevalid_sample(struct livevalid *lv, const struct rec_sample *s)
{
    if (!s->is_measure || s->ok != SAMPLE_OK || strcmp(s->name, lv->params->measure) != 0)
        return;
    if (!s->has_agent) {
        lv->unmeasured++;
        return;
    }
    if (lv->nshare == lv->cap) {
        size_t cap = lv->cap ? 2 * lv->cap : 1024;
        uint32_t *p = realloc(lv->share, cap * sizeof *p);
        if (!p)
            return;   /* out of memory: the share is judged on the samples kept so far */
        lv->share = p;
        lv->cap = cap;
    }
    lv->share[lv->nshare++] = s->agent_us;
}

void livevalid_health(struct livevalid *lv, const char *agent, const struct rec_health *h)
{
    size_t i = 0;
    while (i < lv->nagents && strcmp(lv->agent[i], agent) != 0)
        i++;
    if (i == lv->nagents) {
        if (lv->nagents == LIVEVALID_MAX_AGENTS)
            return;
        snprintf(lv->agent[lv->nagents++], sizeof lv->agent[0], "%s", agent);
    }
    lv->health[i] = (struct store_health_row){ (int64_t)i, *h };
}

void livevalid_lost(struct livevalid *lv, uint32_t sessions)
{
    lv->lost++;
    lv->failed[FAIL_LOST] += sessions;
}

/* What the run has seen so far, as the summary the verdict judges (the figures it has no live
 * counterpart for stay zero: stuck sessions, logoffs and the run's status are end-of-run rules). */
static void fill(const struct livevalid *lv, const struct score_result *score, uint32_t launched, size_t agents,
                 struct summary *s, struct summary_failure *auth)
{
    s->config.params = *lv->params;
    snprintf(s->measure, sizeof s->measure, "%s", lv->params->measure);
    if (score)
        s->score = *score;
    else
        s->score = (struct score_result){ .status = SCORE_TOO_FEW, .smax = -1, .baseline_ms = NAN,
                                          .threshold_ms = NAN, .max_index_ms = NAN };
    s->launched = launched;
    for (int r = 0; r < FAIL__COUNT; r++)
        if (lv->failed[r]) {
            s->failed_sessions += lv->failed[r];
            struct summary_reason *x = &s->reasons[s->reason_count++];
            snprintf(x->reason, sizeof x->reason, "%s", failure_reason_name((enum failure_reason)r));
            x->count = lv->failed[r];
        }
    if (lv->auth_user[0]) {
        snprintf(auth->user, sizeof auth->user, "%s", lv->auth_user);
        snprintf(auth->reason, sizeof auth->reason, "%s", failure_reason_name(FAIL_AUTH));
        s->failures = auth;
        s->failure_count = 1;
    }
    s->agents = agents > lv->nagents ? agents : lv->nagents;
    s->agents_lost = lv->lost;
    s->agents_lost_sessions = lv->failed[FAIL_LOST];
    s->lag_p99_ms = NAN;
    for (size_t i = 0; i < lv->nagents; i++) {
        double lag = lv->health[i].h.lag_p99_us / 1000.0;
        if (isnan(s->lag_p99_ms) || lag > s->lag_p99_ms)
            s->lag_p99_ms = lag;
        if (lv->health[i].h.sessions_active > s->agent_sessions_max)
            s->agent_sessions_max = lv->health[i].h.sessions_active;
    }
    struct summary_input in = { .health = lv->health, .health_count = lv->nagents };
    summary_agent_health(&in, s);
    snprintf(s->run.status, sizeof s->run.status, "running");
}

int livevalid_judge(struct livevalid *lv, const struct score_result *score, uint32_t launched, size_t agents,
                    uint64_t now_us, int force)
{
    if (!force && now_us < lv->next_us)
        return 0;
    lv->next_us = now_us + LIVEVALID_EVERY_US;
    struct summary *s = calloc(1, sizeof *s);
    if (!s)
        return 0;
    struct summary_failure auth = { 0 };
    fill(lv, score, launched, agents, s, &auth);
    summary_agent_samples(lv->share, lv->nshare, lv->unmeasured, s);   /* sorts the shares: fine */
    verdict_validity(s, &lv->v);
    free(s);   /* nothing in it is owned: config.thresholds and the arrays stay NULL */
    return 1;
}

int livevalid_alarm(const struct verdict_item *it)
{
    static const char *const live[] = { "auth", "agent_lost", "agent_share" };
    if (it->result != VERDICT_INCONCLUSIVE || !it->key)
        return 0;
    for (size_t i = 0; i < sizeof live / sizeof live[0]; i++)
        if (!strcmp(it->key, live[i]))
            return 1;
    return 0;
}

/* livevalid.h -- the verdict's validity rules judged while the run goes on, for the live view's
 * banner: what the run has seen so far (failed sessions by reason and the first refused user,
 * lost agents, the agent's share of each ok sample of the scored measure, each agent's newest
 * health record) goes into a summary that verdict_validity() (controller/score/verdict.c) judges
 * with the verdict's own rules and words. Only the rules a run cannot recover from once broken
 * raise an alarm: auth, agent_lost, agent_share. The baseline, stuck sessions and logoffs are
 * judged when the run ends. Loop thread only. */
#ifndef SESSMAX_LIVEVALID_H
#define SESSMAX_LIVEVALID_H

#include <stddef.h>
#include <stdint.h>

#include "common/results.h"
#include "common/score_rule.h"
#include "controller/score/verdict.h"
#include "db/store_read.h"

#define LIVEVALID_MAX_AGENTS 256
#define LIVEVALID_EVERY_US 5000000ull   /* judge at most this often (it sorts the shares) */

struct livevalid {
    const struct score_params *params;
    uint32_t failed[FAIL__COUNT];
    char auth_user[RESULTS_NAME_LEN];   /* the first session refused its credentials */
    uint32_t *share;                    /* agent share (µs) of each ok judged sample that has one */
    size_t nshare, cap, unmeasured;
    struct store_health_row health[LIVEVALID_MAX_AGENTS];   /* newest per agent */
    char agent[LIVEVALID_MAX_AGENTS][RESULTS_NAME_LEN];
    size_t nagents, lost;
    uint64_t next_us;
    struct verdict v;                   /* the newest judgement */
};

void livevalid_init(struct livevalid *lv, const struct score_params *params);
void livevalid_free(struct livevalid *lv);
/* A session event: failures are counted by reason, the first refused user kept. */
void livevalid_session(struct livevalid *lv, const struct rec_session *e);
/* A sample: its agent share is kept when it is an ok sample of the scored measure. */
void livevalid_sample(struct livevalid *lv, const struct rec_sample *s);
void livevalid_health(struct livevalid *lv, const char *agent, const struct rec_health *h);
/* An agent lost with `sessions` of its sessions (counted as failed, reason lost). */
void livevalid_lost(struct livevalid *lv, uint32_t sessions);
/* Judges again when LIVEVALID_EVERY_US passed (or `force`), with the live score `score` (NULL:
 * not scored yet), `launched` sessions and `agents` expected. 1 when it judged (lv->v is new). */
int livevalid_judge(struct livevalid *lv, const struct score_result *score, uint32_t launched, size_t agents,
                    uint64_t now_us, int force);
/* 1 when item `it` of a judgement is an alarm: a broken rule the run cannot recover from. */
int livevalid_alarm(const struct verdict_item *it);

#endif

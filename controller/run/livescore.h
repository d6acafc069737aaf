/* livescore.h -- the score while the run goes on: the samples of the scored measure as they
 * arrive (with the active count at arrival), re-scored at most once a second and never for more
 * than about a tenth of the loop's time. Feeds the live line and the early stop. */
#ifndef SESSMAX_LIVESCORE_H
#define SESSMAX_LIVESCORE_H

#include <stddef.h>
#include <stdint.h>

#include "common/results.h"
#include "controller/score/score.h"

#define LIVESCORE_INTERVAL_US 1000000ull   /* re-score at most this often */

struct livescore {
    const struct score_params *params;
    struct score_sample *ss;
    double *index;
    size_t nss, capss, scored_nss;
    uint64_t next_us;              /* not before this (clock_now_us) */
    struct score_result result;    /* status SCORE_OK once scored */
    double index_ms;               /* the newest index value; NaN when none */
    uint64_t spent_us, max_us;     /* time spent re-scoring, in total and the longest once */
    uint32_t runs;                 /* re-scorings */
};

void livescore_init(struct livescore *ls, const struct score_params *params);
void livescore_free(struct livescore *ls);
/* Keeps `s` when it is the scored measure; `active` is the number of active sessions now. */
void livescore_add(struct livescore *ls, const struct rec_sample *s, uint32_t active);
/* Re-scores when new samples came and the interval is over. */
void livescore_update(struct livescore *ls, uint64_t now_us);

#endif

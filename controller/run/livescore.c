/* livescore.c -- the score recomputed during the run from the samples received so far. */
#include "controller/run/livescore.h"

#include "common/clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LIVESCORE_FIRST_CAP 4096
#define LIVESCORE_MAX_LOOP_SHARE 10   /* wait 10x the time a score took: ~10 % of the loop */

void livescore_init(struct livescore *ls, const struct score_params *params)
{
    memset(ls, 0, sizeof *ls);
    ls->params = params;
    ls->index_ms = NAN;
}

void livescore_free(struct livescore *ls)
{
    free(ls->ss);
    free(ls->index);
    ls->ss = NULL;
    ls->index = NULL;
}

void livescore_add(struct livescore *ls, const struct rec_sample *s, uint32_t active)
{
    if (!s->is_measure || strcmp(s->name, ls->params->measure) != 0)
        return;
    if (ls->nss == ls->capss) {
        size_t cap = ls->capss ? ls->capss * 2 : LIVESCORE_FIRST_CAP;
        struct score_sample *n = realloc(ls->ss, cap * sizeof *n);
        if (!n)
            return;
        ls->ss = n;
        ls->capss = cap;
    }
    ls->ss[ls->nss++] = (struct score_sample){ s->t_us, s->value_us, active, s->ok == SAMPLE_OK };
}

void livescore_update(struct livescore *ls, uint64_t now_us)
{
    if (ls->nss == ls->scored_nss || now_us < ls->next_us)
        return;
    double *idx = realloc(ls->index, ls->nss * sizeof *idx);
    if (!idx)
        return;
    ls->index = idx;
    char err[200];
    uint64_t t0 = clock_now_us();
    if (score_compute(ls->params, ls->ss, ls->nss, &ls->result, ls->index, err, sizeof err) == 0) {
        ls->index_ms = NAN;
        for (size_t i = ls->nss; i-- > 0;)
            if (!isnan(ls->index[i])) {
                ls->index_ms = ls->index[i];
                break;
            }
    }
    ls->scored_nss = ls->nss;
    uint64_t took = clock_now_us() - t0;
    ls->spent_us += took;
    ls->max_us = took > ls->max_us ? took : ls->max_us;
    ls->runs++;
    ls->next_us = now_us + LIVESCORE_INTERVAL_US + LIVESCORE_MAX_LOOP_SHARE * took;
}

/* livescore.c -- the score recomputed during the run from the samples received so far, on a
 * worker thread (see livescore.h). */
#include "controller/run/livescore.h"

#include "common/clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LIVESCORE_FIRST_CAP 4096
#define LIVESCORE_MAX_CPU_SHARE 10   /* wait 10x the time a score took: ~10 % of one core */

static int buf_reserve(struct livescore_buf *b, size_t more)
{
    if (b->n + more <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : LIVESCORE_FIRST_CAP;
    while (cap < b->n + more)
        cap *= 2;
    struct score_sample *n = realloc(b->s, cap * sizeof *n);
    if (!n)
        return -1;
    b->s = n;
    b->cap = cap;
    return 0;
}

/* Re-scores `all` (the worker's samples) into `o`; returns the time it took. */
static uint64_t rescore(struct livescore *ls, struct livescore_out *o)
{
    uint64_t t0 = clock_now_us();
    double *idx = realloc(ls->index, (ls->all.n ? ls->all.n : 1) * sizeof *idx);
    if (!idx)
        return 0;
    ls->index = idx;
    char err[200];
    if (score_compute(ls->params, ls->all.s, ls->all.n, &o->result, ls->index, err, sizeof err) == 0) {
        o->index_ms = NAN;
        for (size_t i = ls->all.n; i-- > 0;)
            if (!isnan(ls->index[i])) {
                o->index_ms = ls->index[i];
                break;
            }
    }
    uint64_t took = clock_now_us() - t0;
    o->spent_us += took;
    o->max_us = took > o->max_us ? took : o->max_us;
    o->runs++;
    return took;
}

/* Takes the handed samples into `all` (mu held); 0, or -1 when memory ran out (they stay). */
static int take_handed(struct livescore *ls)
{
    if (buf_reserve(&ls->all, ls->handed.n) != 0)
        return -1;
    memcpy(ls->all.s + ls->all.n, ls->handed.s, ls->handed.n * sizeof *ls->all.s);
    ls->all.n += ls->handed.n;
    ls->handed.n = 0;
    return 0;
}

static void *worker(void *arg)
{
    struct livescore *ls = arg;
    pthread_mutex_lock(&ls->mu);
    for (;;) {
        while (!ls->busy && !ls->quit)
            pthread_cond_wait(&ls->cv, &ls->mu);
        if (ls->quit)
            break;
        int ok = take_handed(ls) == 0;
        struct livescore_out o = ls->out;
        pthread_mutex_unlock(&ls->mu);
        uint64_t took = ok ? rescore(ls, &o) : 0;
        pthread_mutex_lock(&ls->mu);
        ls->out = o;
        ls->took_us = took;
        ls->busy = 0;
        pthread_cond_broadcast(&ls->cv);
    }
    pthread_mutex_unlock(&ls->mu);
    return NULL;
}

void livescore_init(struct livescore *ls, const struct score_params *params)
{
    memset(ls, 0, sizeof *ls);
    ls->params = params;
    ls->index_ms = ls->out.index_ms = NAN;
    pthread_mutex_init(&ls->mu, NULL);
    pthread_cond_init(&ls->cv, NULL);
    ls->started = pthread_create(&ls->thread, NULL, worker, ls) == 0;
}

void livescore_free(struct livescore *ls)
{
    if (ls->started) {
        pthread_mutex_lock(&ls->mu);
        ls->quit = 1;
        pthread_cond_broadcast(&ls->cv);
        pthread_mutex_unlock(&ls->mu);
        pthread_join(ls->thread, NULL);
        ls->started = 0;
    }
    pthread_mutex_destroy(&ls->mu);
    pthread_cond_destroy(&ls->cv);
    free(ls->in.s);
    free(ls->handed.s);
    free(ls->all.s);
    free(ls->index);
    memset(&ls->in, 0, sizeof ls->in);
    memset(&ls->handed, 0, sizeof ls->handed);
    memset(&ls->all, 0, sizeof ls->all);
    ls->index = NULL;
}

void livescore_add(struct livescore *ls, const struct rec_sample *s, uint32_t active)
{
    if (!s->is_measure || strcmp(s->name, ls->params->measure) != 0 || buf_reserve(&ls->in, 1) != 0)
        return;
    ls->in.s[ls->in.n++] = (struct score_sample){ s->t_us, s->value_us, active, s->ok == SAMPLE_OK };
    ls->nss++;
}

/* Copies the published result to the loop side (mu held). */
static void publish(struct livescore *ls)
{
    ls->result = ls->out.result;
    ls->index_ms = ls->out.index_ms;
    ls->spent_us = ls->out.spent_us;
    ls->max_us = ls->out.max_us;
    ls->runs = ls->out.runs;
}

/* Without a worker: the same re-scoring, on the loop. */
static void update_inline(struct livescore *ls, uint64_t now_us)
{
    ls->handed = ls->in;
    memset(&ls->in, 0, sizeof ls->in);
    uint64_t took = take_handed(ls) == 0 ? rescore(ls, &ls->out) : 0;
    struct livescore_buf spare = ls->handed;
    ls->in = spare;
    memset(&ls->handed, 0, sizeof ls->handed);
    publish(ls);
    ls->next_us = now_us + LIVESCORE_INTERVAL_US + LIVESCORE_MAX_CPU_SHARE * took;
}

void livescore_update(struct livescore *ls, uint64_t now_us)
{
    if (!ls->started) {
        if (ls->in.n && now_us >= ls->next_us)
            update_inline(ls, now_us);
        return;
    }
    pthread_mutex_lock(&ls->mu);
    if (!ls->busy) {
        publish(ls);
        if (ls->in.n && now_us >= ls->next_us) {
            /* swap, never copy: the worker empties `handed`, which comes back as the next `in` */
            struct livescore_buf spare = ls->handed;
            ls->handed = ls->in;
            ls->in = spare;
            ls->busy = 1;
            ls->next_us = now_us + LIVESCORE_INTERVAL_US + LIVESCORE_MAX_CPU_SHARE * ls->took_us;
            pthread_cond_broadcast(&ls->cv);
        }
    }
    pthread_mutex_unlock(&ls->mu);
}

void livescore_settle(struct livescore *ls)
{
    if (!ls->started)
        return;
    pthread_mutex_lock(&ls->mu);
    while (ls->busy)
        pthread_cond_wait(&ls->cv, &ls->mu);
    publish(ls);
    pthread_mutex_unlock(&ls->mu);
}

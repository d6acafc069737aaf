/* livescore.h -- the score while the run goes on: the samples of the scored measure as they
 * arrive (with the active count when each was taken), re-scored on a worker thread at most once
 * a second and never for more than about a tenth of one core. The loop only appends samples and
 * swaps buffers; it never waits for a re-scoring. Feeds the live line and the early stop.
 *
 * Threads: livescore_add() and livescore_update() and the fields below "loop side" belong to the
 * loop thread; the worker owns every sample it was handed and publishes its result under `mu`,
 * which livescore_update() copies to the loop-side fields. */
#ifndef SESSMAX_LIVESCORE_H
#define SESSMAX_LIVESCORE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "common/results.h"
#include "controller/score/score.h"

#define LIVESCORE_INTERVAL_US 1000000ull   /* re-score at most this often */

/* A growing array of score samples. */
struct livescore_buf {
    struct score_sample *s;
    size_t n, cap;
};

/* What one re-scoring found (the worker's, copied to the loop). */
struct livescore_out {
    struct score_result result;    /* status SCORE_OK once scored */
    double index_ms;               /* the newest index value; NaN when none */
    uint64_t spent_us, max_us;     /* time spent re-scoring, in total and the longest once */
    uint32_t runs;                 /* re-scorings */
};

struct livescore {
    const struct score_params *params;
    /* loop side */
    struct livescore_buf in;       /* samples not yet handed to the worker */
    size_t nss;                    /* samples kept in all */
    uint64_t next_us;              /* no hand-over before this (clock_now_us) */
    struct score_result result;    /* the newest published result */
    double index_ms;
    uint64_t spent_us, max_us;
    uint32_t runs;
    /* shared, under mu */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    int started, busy, quit;
    struct livescore_buf handed;   /* samples given to the worker, emptied by it (then spare) */
    struct livescore_out out;
    uint64_t took_us;              /* the last re-scoring's time */
    /* the worker's own */
    struct livescore_buf all;      /* every sample handed over, in arrival order */
    double *index;
};

/* Starts the worker; without a thread (it could not start) the score is computed on the loop
 * as before. */
void livescore_init(struct livescore *ls, const struct score_params *params);
/* Stops the worker (waits for a re-scoring under way) and frees everything. */
void livescore_free(struct livescore *ls);
/* Keeps `s` when it is the scored measure; `active` is the number of sessions active when it
 * was taken. */
void livescore_add(struct livescore *ls, const struct rec_sample *s, uint32_t active);
/* Takes in the worker's newest result, and hands it the new samples when the interval is over
 * and it is idle. Never waits for a re-scoring. */
void livescore_update(struct livescore *ls, uint64_t now_us);
/* Waits until the worker is idle and takes in its result (tests, the end of a run). */
void livescore_settle(struct livescore *ls);

#endif

/* live_smax.h -- the score as it stands during the run, for the live page's smax tile and the
 * sessmax_live_smax / sessmax_live_smax_reached gauges: the live re-scoring's result
 * (controller/run/livescore.c) copied in on the loop thread, and the tile's words. */
#ifndef SESSMAX_WEB_LIVE_SMAX_H
#define SESSMAX_WEB_LIVE_SMAX_H

#include <stddef.h>
#include <stdint.h>

struct score_result;

struct web_live_smax {
    int scored;                     /* 1: enough samples for a baseline (SCORE_OK) */
    int reached;                    /* 1: the index crossed baseline + offset */
    int smax;                       /* reached: active at the crossing - 1; else the lower bound */
    uint32_t cross_active, max_active;
    size_t samples_ok, samples_needed;
};

/* Takes the newest live result `r` (NULL: not scored yet) into w->smax. */
void web_live_smax(struct web_live_smax *s, const struct score_result *r);
/* The tile's words: "smax 19 (crossed at 20 active)", "not reached yet (>= 5)" or
 * "not scored yet (3 of 15 samples)". Always NUL-terminated. */
void web_live_smax_text(const struct web_live_smax *s, char *buf, size_t len);
/* smax as a number: the score once reached, the lower bound so far otherwise; -1 before the
 * baseline (no figure). */
int web_live_smax_value(const struct web_live_smax *s);

#endif

/* fake_interp.h -- a minimal stand-in for agent/interp.c, for engine tests only: logon when the
 * first paint arrives, then idle; a logoff finishes at once. Include from exactly one test file
 * (it defines the interp_* functions). Counts what the engine told it. */
#ifndef SESSMAX_FAKE_INTERP_H
#define SESSMAX_FAKE_INTERP_H

#include <stdlib.h>

#include "agent/interp.h"
#include "common/clock.h"

struct interp {
    struct interp_host h;
    uint64_t t0_us;
    int started, logged_on, logoff;
    unsigned paints, rects;
};

unsigned fake_interp_paints_total;

struct interp *interp_new(const struct workload *wl, const struct interp_host *host)
{
    (void)wl;
    struct interp *in = calloc(1, sizeof *in);
    if (in)
        in->h = *host;
    return in;
}

void interp_start(struct interp *in, uint64_t t0_us)
{
    in->t0_us = t0_us;
    in->started = 1;
}

void interp_on_paint(struct interp *in, const struct rect *rects, size_t n)
{
    (void)rects;
    in->paints++;
    in->rects += (unsigned)n;
    fake_interp_paints_total++;
    if (in->started && !in->logged_on && n > 0) {
        in->logged_on = 1;
        in->h.on_logon(in->h.sess, 1, (int64_t)(clock_now_us() - in->t0_us));
    }
}

void interp_logoff(struct interp *in)
{
    if (in->logoff)
        return;
    in->logoff = 1;
    in->h.on_finished(in->h.sess, FAIL_NONE, "");
}

uint32_t interp_loops(const struct interp *in)
{
    (void)in;
    return 0;
}

void interp_free(struct interp *in)
{
    free(in);
}

#endif

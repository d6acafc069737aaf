/* live_failures.h -- the latest failed sessions for the live page (user, reason, what the agent
 * said, the PNG of the screen at that moment) and `/shots/FILE`, which serves those PNGs from the
 * run's shots directory: only a file one of the listed failures names, a plain file name (no '/',
 * no leading '.', ".png"), so no path can reach anything else. Bounded: the newest
 * WEB_LIVE_RECENT_FAILURES are kept. */
#ifndef SESSMAX_WEB_LIVE_FAILURES_H
#define SESSMAX_WEB_LIVE_FAILURES_H

#include <stddef.h>
#include <stdint.h>

#define WEB_LIVE_RECENT_FAILURES 6
#define WEB_LIVE_SHOT_MAX_BYTES (16u << 20)   /* a larger file is not served */

struct web_live_failure {
    uint32_t session;
    float t_s;                      /* since the start of the view */
    char user[64], reason[24], detail[256];
    char screen[96];                /* PNG file name in the shots directory; "" none */
};

struct web_live_failures {
    char shots[1024];               /* the run's shots directory; "" none */
    struct web_live_failure f[WEB_LIVE_RECENT_FAILURES];   /* oldest first */
    size_t n;
};


/* Where the PNGs are (the run's <db>.shots/run-<id>). */
void web_live_shots_dir(struct web_live_failures *x, const char *dir);
/* Adds a failed session; the oldest goes when the list is full. */
void web_live_failure_add(struct web_live_failures *x, const struct web_live_failure *f);
/* `/shots/NAME` (NAME after the prefix): 200 with the PNG in *body (malloc'd), 404 when NAME is
 * not a screen of a listed failure or cannot be read, 500 out of memory. */
int web_live_shot(const struct web_live_failures *x, const char *name, char **body, size_t *len);

#endif

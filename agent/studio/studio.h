/* studio.h -- the studio's state: one live session (reached through struct studio_live, so
 * tests give a fake one), the recording (studio_rec.h), the try in progress (studio_try.h) and
 * the latest tries' results, the frame counter the page polls, and the PNG of the latest frame.
 * The HTTP side is studio_api.h. Everything runs on the session's event loop. */
#ifndef SESSMAX_STUDIO_H
#define SESSMAX_STUDIO_H

#include <stddef.h>
#include <stdint.h>

#include "agent/driver/driver.h"
#include "agent/studio/studio_rec.h"
#include "agent/studio/studio_try.h"

struct event_base;

#define STUDIO_TRIES_KEPT 16
#define STUDIO_PATH_LEN 4096
#define STUDIO_TRY_MAX 8          /* steps one try runs at most */

/* The live session as the studio needs it. */
struct studio_live {
    void *arg;
    /* The current screen; 0, or -1 when there is none (yet, or any more). */
    int (*screen)(void *arg, struct screen_view *out);
    /* The session's driver and the pointer its ops take; 0, or -1 when it cannot take input. */
    int (*driver)(void *arg, const struct driver_ops **ops, void **sess);
};

/* One try's outcome, as the page lists it. */
struct studio_tried {
    uint32_t seq;                     /* 1, 2, ... */
    char what[200];                   /* the steps tried, as their YAML line */
    struct studio_try_result r;
    char ended_by[240];               /* which condition ended it, or why it failed */
    char floor[200];                  /* what the plausibility floor says of the sample */
};

struct studio {
    struct event_base *base;
    struct studio_live live;
    struct studio_rec rec;
    char user[RESULTS_NAME_LEN];
    char out_path[STUDIO_PATH_LEN];
    uint64_t frame;                   /* paints seen */
    struct studio_try *cur;           /* the try running, or NULL */
    struct studio_step cur_steps[STUDIO_TRY_MAX];  /* what it runs */
    size_t cur_n;
    struct studio_tried tried[STUDIO_TRIES_KEPT];
    uint32_t ntried;                  /* tries ever ended; the latest is tried[(ntried-1) % KEPT] */
    int dirty;                        /* recorded since the last save */
    uint64_t echo_us;                 /* the session's echo, as the latest try that measured one */
    char *png;                        /* the latest frame's PNG, for frame png_frame */
    size_t png_len;
    uint64_t png_frame;
};

/* A studio over `live` on `base`, recording a WxH@bpp workload called `name` into out_path. The
 * live arg is borrowed. NULL when out of memory. */
struct studio *studio_new(struct event_base *base, const struct studio_live *live, const char *user,
                          const char *name, const char *out_path, uint32_t width, uint32_t height, uint32_t bpp);
void studio_free(struct studio *s);

/* The session painted: the frame counter moves and a running try sees the rectangles. */
void studio_paint(struct studio *s, const struct rect *rects, size_t n);

/* Runs steps[0..n-1] (1 <= n <= STUDIO_TRY_MAX) once on the live session. 0 once started; -1 with err when a try
 * runs already, the session takes no input or the steps do not load. */
int studio_try_steps(struct studio *s, const struct studio_step *steps, size_t n, char *err, size_t errlen);

/* The PNG of the current screen (borrowed, valid until the next call); NULL when there is none.
 * Encoded again only when a paint came since the last call. */
const char *studio_png(struct studio *s, size_t *len);

/* Writes the recording to out_path (a temporary file, then renamed): 0, or -1 with err (the
 * recording does not load yet, or the file cannot be written). */
int studio_save(struct studio *s, char *err, size_t errlen);

/* Fills ended_by and floor of t from the steps tried and the result (pure; tests call it). */
void studio_describe(const struct studio_step *steps, size_t n, struct studio_tried *t);

#endif

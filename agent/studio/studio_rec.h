/* studio_rec.h -- the workload the studio records: its desktop, the regions drawn, the logon
 * condition, and the loop's and logoff's steps (key, type, click, think, wait, timer with an
 * `until` of change / stable / pixel conditions), written out as YAML of the workload language
 * (docs/workload-language.md). Every change is checked by loading the whole text back with
 * workload_load_string(), the loader `sessmax validate` and `sessmax-agent run` use, so a
 * recording that could not run is refused at the step that would break it. Plain data: no
 * loop, no session, no I/O. */
#ifndef SESSMAX_STUDIO_REC_H
#define SESSMAX_STUDIO_REC_H

#include <stddef.h>
#include <stdint.h>

#include "common/results.h"
#include "common/workload_model.h"

#define STUDIO_MAX_REGIONS 32
#define STUDIO_MAX_STEPS 128
#define STUDIO_MAX_CONDS 4
#define STUDIO_TEXT_LEN 256
#define STUDIO_SNAP 4               /* regions drawn are snapped to this many pixels */

enum studio_cond_kind { STUDIO_CHANGE, STUDIO_STABLE, STUDIO_PIXEL };

/* One condition of a wait, an until or the logon. */
struct studio_cond {
    enum studio_cond_kind kind;
    char region[RESULTS_NAME_LEN];   /* change, stable */
    char except[RESULTS_NAME_LEN];   /* change: "" none */
    uint32_t for_ms;                 /* stable: 0 = the language's default (300ms) */
    int32_t x, y;                    /* pixel */
    uint32_t rgb, tolerance;         /* pixel: 0xRRGGBB, per-channel tolerance */
};

enum studio_step_kind { STUDIO_KEY, STUDIO_TYPE, STUDIO_CLICK, STUDIO_THINK, STUDIO_WAIT, STUDIO_TIMER };

/* One step. A timer's steps are one input: `input` (KEY or TYPE) with `text`. */
struct studio_step {
    enum studio_step_kind kind;
    char text[STUDIO_TEXT_LEN];      /* KEY chord, TYPE text (UTF-8), THINK duration ("2s..4s") */
    char name[RESULTS_NAME_LEN];     /* TIMER */
    enum studio_step_kind input;     /* TIMER: STUDIO_KEY or STUDIO_TYPE */
    int32_t x, y;                    /* CLICK */
    struct studio_cond conds[STUDIO_MAX_CONDS];   /* WAIT, TIMER: in the order they must hold */
    size_t nconds;
    uint32_t timeout_ms;             /* WAIT, TIMER: 0 = the workload's default (10s) */
};

enum studio_part { STUDIO_LOOP, STUDIO_LOGOFF };

struct studio_rec {
    char name[RESULTS_NAME_LEN];
    uint32_t width, height, bpp;
    struct { char name[RESULTS_NAME_LEN]; struct workload_rect r; } regions[STUDIO_MAX_REGIONS];
    size_t nregions;
    struct studio_cond logon[STUDIO_MAX_CONDS];
    size_t nlogon;
    struct studio_step steps[2][STUDIO_MAX_STEPS];   /* [enum studio_part] */
    size_t nsteps[2];
};

/* An empty recording for a WxH desktop at bpp 16 or 32, named `name` (a safe name). Its logon is
 * "the screen changed, then was still for 1 s" until studio_rec_set_logon() says otherwise. */
void studio_rec_init(struct studio_rec *r, const char *name, uint32_t width, uint32_t height, uint32_t bpp);

/* Snaps a rectangle drawn in any direction (w, h may be negative) outwards to STUDIO_SNAP pixels
 * and clips it to the desktop. 0, or -1 when nothing of it is on the desktop. */
int studio_rec_snap(const struct studio_rec *r, struct workload_rect *rect);

/* Adds region `name` (or moves it when it exists), snapped. 0, or -1 with a one-line err: a bad
 * name (letters, digits, '_', '-', '.', starting with a letter), `screen`, too many, off-screen. */
int studio_rec_region(struct studio_rec *r, const char *name, struct workload_rect rect, char *err, size_t errlen);

/* Appends a step to a part; the result must load as a workload, else the step is not kept and
 * err says why ("w.yaml:12:10: unknown key 'entr' in chord 'entr'"). 0 or -1. */
int studio_rec_append(struct studio_rec *r, enum studio_part part, const struct studio_step *s, char *err,
                      size_t errlen);

/* Removes the last step of a part; -1 when it has none. */
int studio_rec_undo(struct studio_rec *r, enum studio_part part);

/* Replaces the logon condition (1..STUDIO_MAX_CONDS conditions); checked as studio_rec_append. */
int studio_rec_set_logon(struct studio_rec *r, const struct studio_cond *c, size_t n, char *err, size_t errlen);

/* The whole workload as YAML (malloc'd, NUL-terminated; NULL when out of memory). Before the
 * loop has a step that pauses it does not load (the language wants one): studio_rec_check says. */
char *studio_rec_yaml(const struct studio_rec *r);

/* Whether the recording loads as a workload as it is: 0, or -1 with err. */
int studio_rec_check(const struct studio_rec *r, char *err, size_t errlen);

/* The workload a "try" runs: this recording's desktop and regions, a logon condition that
 * holds at once, `on_timeout: fail` (so a condition that did not hold ends the try and names
 * itself), and a loop of steps[0..n-1] followed by a 10ms think. malloc'd YAML, or NULL. */
char *studio_rec_try_yaml(const struct studio_rec *r, const struct studio_step *steps, size_t n);

/* Parses one condition from its short form, as the studio page sends it:
 * "change,REGION[,EXCEPT]", "stable,REGION[,FOR_MS]", "pixel,X,Y,#RRGGBB[,TOLERANCE]".
 * 0, or -1 with err. Region names are checked when the step is appended. */
int studio_cond_parse(const char *text, struct studio_cond *out, char *err, size_t errlen);

#endif

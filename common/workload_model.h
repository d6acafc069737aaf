/* workload_model.h -- a parsed workload as plain structs (regions, conditions, steps, measures,
 * drives, copy timers) and the plain lookups on them. The lowest layer of common/workload*:
 * workload.h includes it (callers keep including workload.h), and the parsers of the parts
 * (workload_parse.h, workload_step.h, workload_drives.h) build on it, never on workload.h. */
#ifndef SESSMAX_WORKLOAD_MODEL_H
#define SESSMAX_WORKLOAD_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "common/results.h"

#define WORKLOAD_VERSION 1
#define WORKLOAD_CHORD_MAX 6        /* keys in one chord ("ctrl+shift+alt+t") */
#define WORKLOAD_CONDS_MAX 4        /* conditions in one wait/until, held in order */
#define WORKLOAD_EXCEPT_MAX 4       /* areas a `change` ignores (where the input echoes) */

struct workload_rect { int32_t x, y, w, h; };

struct workload_region {
    char name[RESULTS_NAME_LEN];
    struct workload_rect r;
    int line, col;
};

enum workload_cond_kind {
    WORKLOAD_COND_CHANGE,   /* region's hash differs from its hash when the condition started */
    WORKLOAD_COND_STABLE,   /* no paint touched the region for stable_us */
    WORKLOAD_COND_MATCH,    /* workload_region_hash(region, tolerance) == hash */
    WORKLOAD_COND_PIXEL,    /* pixel (x, y) within tolerance of rgb on every channel */
};

struct workload_cond {
    enum workload_cond_kind kind;
    struct workload_rect region;         /* pixel: a 1x1 rect at (x, y) */
    char region_name[RESULTS_NAME_LEN];  /* "" for pixel */
    uint64_t stable_us;                  /* stable */
    uint64_t hash;                       /* match */
    uint32_t rgb;                        /* pixel: 0xRRGGBB */
    uint32_t tolerance;                  /* match: low bits ignored per channel (0..3);
                                            pixel: max difference per 8-bit channel */
    struct workload_rect except[WORKLOAD_EXCEPT_MAX];  /* change: pixels here never count */
    size_t nexcept;
    int line, col;
};

/* Plausibility floor of a timer (its `until`'s `min`): a sample below it is stored as suspect
 * (SAMPLE_SUSPECT), not as a plain success. */
enum workload_min {
    WORKLOAD_MIN_NONE = 0,               /* min: 0 */
    WORKLOAD_MIN_ECHO,                   /* min: echo -- the session's measured input echo */
    WORKLOAD_MIN_FIXED,                  /* min: 50ms */
};

/* A `wait` step or a timer's `until`: conditions that must hold one after the other (each starts
 * being watched when the previous one held), all within timeout_us. */
struct workload_wait {
    struct workload_cond conds[WORKLOAD_CONDS_MAX];
    size_t n;
    uint64_t timeout_us;
    int on_timeout_fail;                 /* 1: end the session with FAIL_WAIT_TIMEOUT */
    enum workload_min min;               /* until only (default: defaults.min) */
    uint64_t min_us;                     /* WORKLOAD_MIN_FIXED */
    uint64_t repaint_after_us;           /* logon only: ask for a repaint after this long
                                            without any paint (0: never); default 5s */
    int line, col;
};

enum workload_step_kind {
    WORKLOAD_STEP_KEY,      /* chord: press in order, release in reverse */
    WORKLOAD_STEP_TYPE,     /* text (UTF-8, may contain {user}) at rate_us per character */
    WORKLOAD_STEP_CLICK,    /* button at (x, y) */
    WORKLOAD_STEP_MOVE,     /* pointer to (x, y) */
    WORKLOAD_STEP_THINK,    /* idle for a uniform random time in [think_min_us, think_max_us] */
    WORKLOAD_STEP_WAIT,     /* wait for `wait` */
    WORKLOAD_STEP_TIMER,    /* run `steps`, then wait for `wait`; one sample named `name` */
    WORKLOAD_STEP_REPEAT,   /* run `steps` `count` times */
};

enum workload_button { WORKLOAD_BUTTON_LEFT, WORKLOAD_BUTTON_RIGHT, WORKLOAD_BUTTON_MIDDLE };

struct workload_step {
    enum workload_step_kind kind;
    int line, col;
    uint32_t chord[WORKLOAD_CHORD_MAX];  /* key: rdp scancodes (common/keymap.h) */
    size_t nchord;
    char *text;                          /* type: as written (expand with workload_expand) */
    uint64_t rate_us;                    /* type: gap between characters */
    uint64_t pause_us;                   /* key, click, move: pause after the input */
    int32_t x, y;                        /* click, move */
    enum workload_button button;         /* click */
    int double_click;                    /* click */
    uint64_t think_min_us, think_max_us; /* think (equal for a fixed time) */
    struct workload_wait wait;           /* wait, timer (its `until`) */
    struct workload_wait fail;           /* timer: `until.fail`, conditions that end the timer as
                                            failed (an error window) -- fail.n == 0: none */
    char name[RESULTS_NAME_LEN];         /* timer */
    uint32_t count;                      /* repeat */
    struct workload_step *steps;         /* timer, repeat */
    size_t nsteps;
};

struct workload_measure_item {
    char timer[RESULTS_NAME_LEN];
    double weight;
};

/* A weighted group: once per loop, when each member timer has a sample, one sample named `name`
 * with value Σ weight × timer value (is_measure = 1; ok only if every member was ok). */
struct workload_measure {
    char name[RESULTS_NAME_LEN];
    struct workload_measure_item *items;
    size_t n;
    int line, col;
};

/* Client drives (`drives:`): files the agent generates once (drive_gen content, shared read-only
 * by its sessions) and redirects under the drive's name; each session's drive is a private
 * directory holding links to them, where the server may also write. */
#define WORKLOAD_DRIVE_NAME_MAX 7            /* announced as an 8-byte DOS name */
struct workload_drive_file {
    char name[RESULTS_NAME_LEN];
    uint64_t size;
    int line, col;
};
struct workload_drive {
    char name[WORKLOAD_DRIVE_NAME_MAX + 1];
    struct workload_drive_file *files;
    size_t nfiles;
    int line, col;
};

/* A copy timer (`copy:` on a timer): how many bytes its action moves and in which direction, so
 * score and report can give throughput beside the time. `size: DRIVE/FILE` takes the size of a
 * drive file (the workload's drives: or the plan's); it is resolved by workload_resolve_copies. */
struct workload_copy {
    char timer[RESULTS_NAME_LEN];
    int to_client;                       /* 0: client -> server (copy in), 1: server -> client */
    uint64_t bytes;                      /* 0 until resolved */
    char drive[WORKLOAD_DRIVE_NAME_MAX + 1], file[RESULTS_NAME_LEN];   /* "" for a plain size */
    int line, col;
};

struct workload {
    int version;
    char *file;                          /* name used in messages */
    char *name, *description;
    char hash[65];                       /* SHA-256 of the text, lowercase hex */
    uint32_t width, height, bpp;         /* desktop; default 1024x768x16 */
    struct workload_region *regions;     /* regions[0] is the built-in "screen" */
    size_t nregions;
    uint64_t type_rate_us;               /* defaults.type_rate (160ms) */
    uint64_t timeout_us;                 /* defaults.timeout (10s) */
    int on_timeout_fail;                 /* defaults.on_timeout (continue) */
    uint64_t pause_us;                   /* defaults.pause: after key/click/move (100ms) */
    enum workload_min min;               /* defaults.min (echo) */
    uint64_t min_us;
    struct workload_wait logon;          /* desktop ready */
    struct workload_step *loop, *logoff;
    size_t nloop, nlogoff;
    struct workload_measure *measures;
    size_t nmeasures;
    char **timers;                       /* distinct timer names in loop and logoff order */
    size_t ntimers;
    struct workload_drive *drives;       /* client drives, in file order */
    size_t ndrives;
    struct workload_copy *copies;        /* copy timers, in file order (one per timer name) */
    size_t ncopies;
};

/* Accessors (the struct is public, these read better in callers). */
const char *workload_name(const struct workload *wl);
const char *workload_hash(const struct workload *wl);
uint32_t workload_width(const struct workload *wl);
uint32_t workload_height(const struct workload *wl);
uint32_t workload_bpp(const struct workload *wl);
/* Region by name ("screen" included); NULL when unknown. */
const struct workload_region *workload_region(const struct workload *wl, const char *name);
/* Index of a timer name in wl->timers, or -1. */
int workload_timer_index(const struct workload *wl, const char *name);

#endif

/* studio_try.h -- one "try" of the studio: a few recorded steps run once against the live
 * session by the workload interpreter itself (interp.h), so what the studio shows is what
 * `sessmax-agent run` will measure: the same inputs, pauses, conditions, timer start and
 * plausibility floor. The try's workload (studio_rec_try_yaml) holds a logon that holds at once
 * and `on_timeout: fail`, so a condition that never held ends the try and says which it was.
 *
 * The interpreter drives the session through the driver the caller hands over (the engine's
 * driver of a session started without a workload: nothing else sends it input) and sees its
 * paints through studio_try_paint. Everything runs on the caller's event loop. */
#ifndef SESSMAX_STUDIO_TRY_H
#define SESSMAX_STUDIO_TRY_H

#include <stddef.h>
#include <stdint.h>

#include "agent/driver/driver.h"
#include "common/results.h"

struct event_base;
struct workload;
struct studio_try;

/* What one try found. */
struct studio_try_result {
    int timed;                      /* a timer gave a sample (the fields below it are set) */
    char timer[RESULTS_NAME_LEN];
    int64_t value_us;               /* the sample: first input -> its `until` held (or timed out) */
    uint8_t status;                 /* enum sample_status */
    int failed;                     /* a wait or until did not hold within its timeout */
    char detail[RESULTS_DETAIL_LEN];/* failed: "app_start: change appwin did not hold within 10000ms (...)" */
    int64_t elapsed_us;             /* the try from its start to its last step's end */
    /* The plausibility floor (docs/workload-language.md) of the last timer */
    int floor_echo;                 /* 1: `min: echo`, 0: fixed or none */
    uint64_t floor_us;              /* its value: `min`, or the echo (this try's, else the hint); 0: none */
    int floor_hinted;               /* the echo is the caller's hint: this try measured none */
    int floor_rejects;              /* the floor makes the sample suspect (interp_floor_rejects) */
    uint64_t echo_us;               /* the echo this try measured (3 or more untimed inputs); 0: none */
};

/* Starts a try of `wl` (owned from here on, freed with the try) on ops/sess. echo_hint_us: the
 * session's echo measured by an earlier try (0: none), the floor of a timer tried alone, whose
 * try has no untimed inputs to measure one. done(arg, result)
 * is called once, from the loop, when the steps ended; free the try there or later. NULL when the
 * interpreter could not be made. */
struct studio_try *studio_try_start(struct event_base *base, const struct driver_ops *ops, void *sess,
                                    struct workload *wl, const char *user, uint64_t echo_hint_us,
                                    void (*done)(void *arg, const struct studio_try_result *r), void *arg);

/* The session painted rects[0..n-1]: the try's conditions look at them. */
void studio_try_paint(struct studio_try *t, const struct rect *rects, size_t n);

/* Stops (no done call afterwards) and frees. Accepts NULL. */
void studio_try_free(struct studio_try *t);

#endif

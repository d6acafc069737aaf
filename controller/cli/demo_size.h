/* demo_size.h -- how far `sessmax demo` ramps: past the knee simhost's predictor expects on this
 * machine. The predictor (`sessmax-simhost --predict --plan PLAN --ramp-to CAP`) simulates the
 * plan's ramp rate carried on to CAP sessions and prints the smax that ramp meets (the knee); the
 * demo then keeps the plan's sessions when they already reach DEMO_PAST_MIN x the knee, else ramps
 * to DEMO_PAST x the knee at the plan's rate (a longer launch window), never beyond the cap. The
 * plan's early_stop ends the run soon after the knee, so a longer ramp costs little time. */
#ifndef SESSMAX_DEMO_SIZE_H
#define SESSMAX_DEMO_SIZE_H

#include <stdint.h>

#define DEMO_PAST_MIN 1.3                      /* the plan's sessions are enough from here */
#define DEMO_PAST 1.4                          /* else the ramp goes this far past the knee */
#define DEMO_LAUNCH_MAX_US (600ull * 1000000)  /* the longest launch window the demo stretches to */

/* The predictor's figures for the plan's ramp rate (parsed from its output). */
struct demo_knee {
    unsigned smax;       /* predicted smax: the knee (not reached: the sessions simulated) */
    int reached;         /* the simulated index crossed the threshold */
    double loop_cpu_s;   /* its cost model: CPU per loop (0: not printed) */
};

struct demo_size {
    unsigned sessions;           /* sessions the demo ramps to */
    uint64_t launch_window_us;   /* over this long (the plan's rate) */
    int kept;                    /* the plan's own sessions were far enough past the knee */
    int capped;                  /* DEMO_PAST x the knee lies beyond the cap: ramping to the cap */
    double past;                 /* sessions / knee (0 when the knee was not reached or is 0) */
};

/* The most sessions the demo may ramp to: the plan's rate over DEMO_LAUNCH_MAX_US, at least the
 * plan's sessions (0 when the plan has no sessions or no launch window). */
unsigned demo_size_cap(unsigned plan_sessions, uint64_t plan_window_us);

/* Sizes the ramp from the knee k the predictor found at the plan's rate with demo_size_cap
 * sessions. Always at least the plan's sessions, at most the cap; the launch window keeps the
 * plan's rate. A knee not reached within the cap ramps to the cap (capped). */
void demo_size_ramp(unsigned plan_sessions, uint64_t plan_window_us, const struct demo_knee *k,
                    struct demo_size *out);

/* Reads the predictor's output (NUL-terminated): "predicted smax for the plan: N" or "...: not
 * reached (> N)", and "cost model: X s of CPU per loop". Returns 0 with *k filled, or -1 when
 * there is no prediction line. */
int demo_size_parse(const char *text, struct demo_knee *k);

#endif

/* host.h -- what the interpreter needs from the session that runs it (struct interp_host): the
 * driver and its session, the loop, the sample sink, the session's identity, and the callbacks
 * through which the interpreter reports logon, loops done and the end. interp.h hands it to
 * interp_new(); the interpreter's own files (state.h) hold a copy. */
#ifndef SESSMAX_INTERP_HOST_H
#define SESSMAX_INTERP_HOST_H

#include <stdint.h>

#include "agent/driver/driver.h"
#include "common/results.h"

struct event_base;

struct interp_host {
    void *sess;
    const struct driver_ops *ops;
    struct event_base *base;
    const struct result_sink *sink;     /* samples go here directly */
    uint32_t session_index;
    uint64_t seed;                      /* per-session seed for think times */
    const char *shot_dir;               /* where PNGs of timed-out waits go; NULL: none */
    int shot_timers;                    /* 1: also a PNG at the end of every timer of loop 0 */
    const char *user;                   /* for file names and {user} in typed text */
    /* Logon condition met (ok=1, logon_us from t0) or timed out (ok=0). */
    void (*on_logon)(void *sess, int ok, int64_t logon_us);
    /* Optional, with max_loops: the session completed max_loops loops and waits, idle, at the
     * end of its last loop; the engine logs it off (interp_logoff) from here or later. */
    uint32_t max_loops;
    void (*on_loops_done)(void *sess);
    /* The workload ended: FAIL_NONE after logoff steps, or the reason it cannot go on. */
    void (*on_finished)(void *sess, enum failure_reason reason, const char *detail);
};

#endif

/* session_life.h -- the life on the loop that every kind of session shares, whatever drives its
 * screen (a FreeRDP instance, agent/rdp/; an external X11 client, agent/x11/): its identity
 * (index, user, the password copy), the state of agent/rdp/session.h's diagram, its records (launched,
 * active, logoff, then exactly one ended/failed), the deferred end, the orderly logoff once the
 * desktop is there, and the workload interpreter.
 *
 * The owner embeds a struct session_life and gives two hooks: teardown (release the live parts,
 * never the owner; runs once, at the end) and, optionally, evidence (append to a failure detail,
 * e.g. a screenshot's file name). Everything here runs on the loop thread. */
#ifndef SESSMAX_SESSION_LIFE_H
#define SESSMAX_SESSION_LIFE_H

#include <stddef.h>
#include <stdint.h>

#include "agent/driver/driver.h"
#include "agent/engine/session_ops.h"
#include "common/results.h"

struct event;
struct interp;
struct workload;

struct session_life_ops {
    void (*teardown)(void *owner);
    void (*evidence)(void *owner, char *detail, size_t len);    /* optional */
};

struct session_life {
    const struct session_host *h;
    const struct session_life_ops *ops;
    void *owner;
    enum session_state state;
    uint32_t index;
    char user[RESULTS_NAME_LEN];
    char *password;                     /* wiped by the owner once it is no longer needed */
    const struct workload *wl;
    uint64_t seed;
    uint64_t launched_us;               /* session_life_launch() (CLOCK_MONOTONIC) */
    uint64_t t0_us;                     /* start of the logon timer */
    struct interp *interp;
    int logoff_requested;               /* logoff asked before the desktop was ready */
    /* deferred end (session_life_finish_later) */
    struct event *finish_ev;
    int finish_pending;
    enum failure_reason finish_reason, final_reason;
    char finish_detail[RESULTS_DETAIL_LEN];
};

/* Copies the spec's user and password; 0, or -1 on allocation failure (then call
 * session_life_release). */
int session_life_init(struct session_life *l, const struct session_host *h,
                      const struct engine_session_spec *spec, const struct session_life_ops *ops,
                      void *owner);
/* Frees the interpreter, the password copy and the finish event (no records). */
void session_life_release(struct session_life *l);

void session_life_emit(struct session_life *l, enum session_event_kind kind, int64_t value_us,
                       enum failure_reason reason, const char *detail);
void session_life_wipe_password(struct session_life *l);
/* 1 in DONE or FAILED. */
int session_life_terminal(const struct session_life *l);
/* NEW -> CONNECTING: notes the launch time, emits SESSION_LAUNCHED. 0, or -1 when not NEW. */
int session_life_launch(struct session_life *l);
/* Tears down and records DONE (FAIL_NONE) or FAILED, then tells the host; once only. Not from
 * inside a callback of what teardown releases: use session_life_finish_later there. */
void session_life_end(struct session_life *l, enum failure_reason reason, const char *detail);
/* The same end on the next loop turn, safe inside any callback. The first reason wins; a failure
 * gets the owner's evidence appended to its detail now. */
void session_life_finish_later(struct session_life *l, enum failure_reason reason, const char *detail);
/* LOGON -> RUNNING: the desktop was ready logon_us after t0_us (the interpreter's logon timer).
 * Emits SESSION_ACTIVE with the whole logon, launch (session_life_launch) -> desktop ready, and
 * detail; then, with marks (NULL: the kind measures none), the logon's phases (the sink's logon
 * record); then the logoff asked meanwhile. */
struct logon_marks;
void session_life_active(struct session_life *l, int64_t logon_us, const char *detail,
                         const struct logon_marks *marks);
/* The orderly logoff in LOGON (remembered until the desktop is ready), RUNNING (-> LOGOFF: the
 * interpreter's logoff steps) and later states (nothing). Returns 1, doing nothing, in NEW and
 * CONNECTING, which the owner handles; else 0. */
int session_life_logoff(struct session_life *l);

/* Hands a paint of the session to the host's paint tap, if one is set (session_host.paint_tap). */
void session_life_tap(const struct session_life *l, const struct rect *rects, size_t n);

/* What the interpreter calls back on, with the owner as its session. */
struct session_life_calls {
    const struct driver_ops *driver;
    void (*on_logon)(void *owner, int ok, int64_t logon_us);
    void (*on_loops_done)(void *owner);
    void (*on_finished)(void *owner, enum failure_reason reason, const char *detail);
};
/* Creates the interpreter and starts it at t0_us (the logon timer); a failure is finished later
 * as FAIL_INTERNAL. 0 or -1. */
int session_life_start_interp(struct session_life *l, const struct session_life_calls *calls);

#endif

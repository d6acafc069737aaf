/* start.h -- an external-client session's start, off the loop: a connector job whose worker
 * starts Xvfb and waits for its display number, opens the agent's X connection (x11_display),
 * runs the password helper to its end and starts the client. Forks, the X server's start-up and
 * XOpenDisplay's round trips take tens to hundreds of milliseconds that would otherwise stall
 * every other session's timers on the loop. The loop gets the running processes and the open
 * display in the job's done() and watches them from then on.
 *
 * Threading: x11_start_work runs on a connector worker; x11_start_abort on any thread; the rest
 * on the loop thread, never while the job is queued or running. The owner keeps the results
 * (stops and frees the processes, closes the display) whatever done() decides. */
#ifndef SESSMAX_X11_START_H
#define SESSMAX_X11_START_H

#include <stdatomic.h>
#include <stdint.h>

#include "agent/engine/connector.h"
#include "agent/x11/launch.h"
#include "common/results.h"

struct x11_display;

struct x11_start {
    struct connector_job job;           /* .work = x11_start_work; .done: the owner's */
    struct x11_launch_ctx ctx;          /* in: .display is filled in by the worker */
    uint32_t wait_ms;                   /* in: bound on each wait (display number, helper) */
    atomic_int abort;                   /* x11_start_abort: the worker stops at its next wait */
    /* out, read in done() */
    struct x11_proc *xserver, *client;
    struct x11_display *dpy;
    char display[16];
    uint8_t cookie[X11_COOKIE_LEN];     /* the X server's (also in DIR/xauth) */
    uint64_t client_started_us;         /* CLOCK_MONOTONIC: the logon timer's start */
    enum failure_reason reason;         /* FAIL_NONE: everything runs */
    char detail[RESULTS_DETAIL_LEN];
};

void x11_start_work(struct connector_job *j);
/* Makes a running start give up at its next wait (reason FAIL_ABORTED unless it failed first). */
void x11_start_abort(struct x11_start *st);
#endif

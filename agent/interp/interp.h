/* interp.h -- the contract between the session engine and the workload interpreter.
 *
 * The engine (session.c and friends) owns the FreeRDP instance, the socket and the framebuffer;
 * the interpreter (interp.c) owns the workload position, timers, wait conditions and samples.
 * They meet here, so each side can be tested without the other: CUnit drives the interpreter
 * with a fake driver over synthetic framebuffers, and the engine can run with any workload.
 *
 * The screen side of the contract (struct rect, screen_view, driver_ops, and what a driver
 * must do) is in driver.h: the interpreter drives any screen that implements it.
 *
 * Threading: everything here runs on the agent's single libevent loop thread.
 *
 * Life of one session, as the engine sees it:
 *   connect starts ........ engine emits SESSION_LAUNCHED, notes t0 (CLOCK_MONOTONIC)
 *   connected ............. interp_new(); interp_start(t0): the interpreter waits for the
 *                           workload's logon condition (desktop ready) and calls on_logon()
 *   running ............... interpreter loops the workload, emitting samples through the sink;
 *                           the engine calls interp_on_paint() after every EndPaint
 *   stop .................. engine calls interp_logoff(): the interpreter runs the workload's
 *                           `logoff` steps and calls on_finished(FAIL_NONE)
 *   failure ............... interpreter calls on_finished(reason) (e.g. a wait that timed out
 *                           with `on_timeout: fail`); the engine disconnects and records it
 */
#ifndef SESSMAX_INTERP_H
#define SESSMAX_INTERP_H

#include <stddef.h>
#include <stdint.h>

#include "agent/driver/driver.h"
#include "agent/interp/host.h"
#include "common/results.h"

struct workload;

struct interp;

/* Creates an interpreter for one session. The workload is borrowed (must outlive it). */
struct interp *interp_new(const struct workload *wl, const struct interp_host *host);
/* Starts waiting for the logon condition; t0_us is when connect started (monotonic). */
void interp_start(struct interp *in, uint64_t t0_us);
/* The engine's paint notification: rectangles changed in this EndPaint (may be n = 0). */
void interp_on_paint(struct interp *in, const struct rect *rects, size_t n);
/* Ask for a clean end: finish or abandon the current step, run `logoff` steps, then
 * on_finished(FAIL_NONE). Safe to call more than once. */
void interp_logoff(struct interp *in);
/* Number of completed loops so far. */
uint32_t interp_loops(const struct interp *in);
/* Repaints requested during logon (driver_ops.refresh calls). */
uint32_t interp_logon_repaints(const struct interp *in);
/* The session's fastest input echo: the least, over the latest 16 inputs outside timers, of the
 * time from the input to the first paint after it, in µs; 0 before three were measured. Timers
 * with `min: echo` (the default) are suspect below it. */
uint64_t interp_echo_us(const struct interp *in);
/* The plausibility floor (docs/workload-language.md): 1 when a timer whose `until` is w, met
 * value_us after its first input, is below its `min` (a fixed time, or with `min: echo` the
 * session's echo time echo_us; 0 = not measured: no floor). What makes a sample SAMPLE_SUSPECT,
 * besides a condition that held before the first input. Pure. */
struct workload_wait;
int interp_floor_rejects(const struct workload_wait *w, uint64_t value_us, uint64_t echo_us);

/* Cancels timers; never calls back afterwards. Accepts NULL. */
void interp_free(struct interp *in);

#endif

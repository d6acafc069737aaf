/* interp_logon.h -- the interpreter's logon phase: waiting for the workload's logon condition
 * (desktop ready) from interp_start() on, its deadline, and the repaint requests a logon makes
 * when no paint comes. Private to the interpreter (interp.c); the contract is interp.h. */
#ifndef SESSMAX_INTERP_LOGON_H
#define SESSMAX_INTERP_LOGON_H

#include <stdint.h>

struct event;
struct interp;

/* The repaint timer (ev_quiet) of a new interpreter; NULL on allocation failure. */
struct event *interp_logon_new_quiet(struct interp *in);
/* IDLE -> LOGON: starts watching the logon condition (t0_us: when connect started), arms its
 * deadline and the repaint timer; 0, and the caller arms the `stable` tick. 1 when the condition
 * holds at once: nothing armed, the caller goes on with interp_logon_met(). */
int interp_logon_begin(struct interp *in, uint64_t t0_us);
/* The logon condition held: stops the logon timers and arms ev_step, whose callback (interp.c)
 * enters the run phase. */
void interp_logon_met(struct interp *in);

#endif

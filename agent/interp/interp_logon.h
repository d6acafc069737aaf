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
 * deadline and the repaint timer. A condition that holds at once goes straight to "met". */
void interp_logon_begin(struct interp *in, uint64_t t0_us);
/* The logon condition held: stops the logon timers; ev_step then calls
 * interp_logon_enter_run(). */
void interp_logon_met(struct interp *in);
/* From ev_step after interp_logon_met(): LOGON -> RUN, then on_logon(ok=1). Touches the
 * interpreter no more after on_logon (the engine may free it there). */
void interp_logon_enter_run(struct interp *in);
/* The logon deadline passed at now: a screenshot, then DEAD and on_logon(ok=0). Touches the
 * interpreter no more after on_logon. */
void interp_logon_timeout(struct interp *in, uint64_t now);

#endif

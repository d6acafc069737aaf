/* phases.h -- the phases of a run (the state machine drawn in run.h) and the loop events that
 * drive them: the 250 ms tick (commit and acknowledge, live score, phase checks, the live
 * line), the launch timer of the ramp and Ctrl-C / SIGTERM. */
#ifndef SESSMAX_PHASES_H
#define SESSMAX_PHASES_H

#include <event2/event.h>

#define PHASES_TICK_MS 250
#define PHASES_TARGET_LOAD_US 2000000u   /* a local target's CPU use is sampled this often */

struct runner;
struct agentpool_agent;

/* Loop callbacks; `arg` is the runner. */
void phases_tick_cb(evutil_socket_t fd, short what, void *arg);
void phases_launch_cb(evutil_socket_t fd, short what, void *arg);
void phases_signal_cb(evutil_socket_t sig, short what, void *arg);

/* Asks every live agent to log its sessions off (the LOGOFF phase); `why` (may be NULL) is
 * noted. A second call with a reason once logoff began does nothing. */
void phases_begin_logoff(struct runner *r, const char *why);
/* Agent `a` is back on a new link after a break: it gets again what it may have missed (the
 * CONFIG, START for each of its sessions not yet reported active or over, STOP); it ignores
 * what it already has. */
void phases_resend(struct runner *r, struct agentpool_agent *a);

#endif

/* loop_sleep.h -- WinPR's Sleep() as the loop thread needs it. FreeRDP 2.11 sleeps in 100 ms steps
 * inside a nested connection loop when the server sends Deactivate All (rdp_recv_deactivate_all
 * waits there for the reactivation or, at logoff, for the server's last PDUs). On the loop thread
 * that stopped every session for 100 ms. The agent's Sleep() (its definition comes first in
 * symbol lookup) waits there for FreeRDP's own event handles instead (socket, reread, abort),
 * returning as soon as one is ready and never longer than asked; on other threads it is WinPR's.
 * A session that is logging off has its nested wait cut short: when the server's next PDU has
 * not come within LOOP_SLEEP_ENDING_MS, the session is taken as ended by the server. */
#ifndef SESSMAX_LOOP_SLEEP_H
#define SESSMAX_LOOP_SLEEP_H

#include <stdint.h>

#include <freerdp/freerdp.h>

#define LOOP_SLEEP_ENDING_MS 5u

/* Loop thread, around freerdp_check_event_handles(ctx): Sleep() in between waits on ctx's
 * handles. ending: the session is logging off. on_slept (may be NULL) is told how long each
 * such wait took, so the caller's loop watch can account for it. */
void loop_sleep_enter(rdpContext *ctx, int ending, void (*on_slept)(uint64_t us));
void loop_sleep_leave(void);

/* Waits until one of fds is readable or timeout_ms passed: 1 readable, 0 not, -1 error. */
int loop_sleep_wait_fds(const int *fds, unsigned n, uint32_t timeout_ms);

#endif

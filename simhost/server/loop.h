/* loop.h -- the event loops that carry logged-on sessions, so that an idle session costs no
 * thread: a few loop threads (one per CPU simhost may run on, at most SIM_LOOPS_MAX), each a
 * libevent base watching its peers' sockets, FreeRDP's reread events, the channel managers' queues
 * and a timer per session when one is due (sim_session_wake_us).
 *
 * A session arrives from its handshake thread once logged on (or refused) and stays on one loop.
 * The loop parses its input (CheckFileDescriptor), runs keys, paints echoes and copy progress,
 * and writes without blocking: output a client has not read yet waits in FreeRDP's buffer, the
 * loop drains it when the socket is writable and paints nothing new meanwhile (the dirty
 * rectangles accumulate). A command that does work is handed, with the session, to a thread of
 * its own for the length of the action (the work, and its paint, which waits while the client
 * keeps the socket full: sim_session_write_out), so that actions in progress share the CPUs as
 * the cost model assumes; the loop leaves the peer alone until the thread hands it back. Logoff and refusals send their goodbye, half-close and
 * drain the socket (at most 2 s) from the loop, then the session is torn down there. */
#ifndef SIM_LOOP_H
#define SIM_LOOP_H

#include "simhost/server/session.h"

#define SIM_LOOPS_MAX 8

struct sim_loops;

/* Starts the loop threads. Returns NULL after logging why. */
struct sim_loops *sim_loops_start(struct sim_server *srv);
/* Takes a session over from its handshake thread (any thread may call it). */
void sim_loops_adopt(struct sim_loops *l, struct sim_session *s);
/* Number of loop threads. */
int sim_loops_count(const struct sim_loops *l);
/* Stops and joins the loop threads; call once no session is left (NULL accepted). */
void sim_loops_stop(struct sim_loops *l);

#endif

/* server.h -- the simhost process: shared read-only state (font, certificate, accounts, cost
 * table), the listener loop, the registry of live connections and the handshake watchdog.
 *
 * Threads: main (listener, accepts, starts one detached handshake thread per admitted
 * connection), the handshake threads (peer.c: blocking TLS/NLA accept and logon; at most the
 * pending-handshake cap, below, plus its slack), the event loops that carry logged-on sessions
 * (loop.h: one per CPU), a worker thread per action in progress, one watchdog (shuts down the
 * socket of any peer still not logged on after --handshake-timeout, so a silent or stalled client
 * cannot keep a handshake thread forever). The registry lock guards every fd the watchdog
 * touches: a peer unregisters before its socket is closed.
 *
 * The state is server_state.h's, the registry and admission gate registry.h's; both are included
 * here, so the names callers know stay declared by this header. */
#ifndef SIM_SERVER_H
#define SIM_SERVER_H

#include "simhost/server/registry.h"
#include "simhost/server/server_state.h"

/* Loads everything the peers share (font, certificate, accounts, event log, calibration) and
 * prints the cost table. Returns 0, or -1 after printing one error line. */
int sim_server_init(struct sim_server *srv, const struct sim_opts *o);
/* Starts the event loops, listens, prints the ready line and serves until srv->stop; then ends
 * every connection, waits for them (at most SIM_EXIT_WAIT_S) and stops the loops. Returns the
 * process exit code. When some connection is still live after that (srv->busy_at_exit), its
 * threads still use the loops and what sim_server_free frees: the caller must then leave with
 * _exit() and free nothing. */
#define SIM_EXIT_WAIT_S 10
int sim_server_run(struct sim_server *srv);
void sim_server_free(struct sim_server *srv);

#endif

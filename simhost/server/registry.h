/* registry.h -- the registry of live connections: the admission gate at accept, each peer's
 * entry while its socket is open (so the watchdog and the shutdown can reach it), the logon count
 * against --max-sessions and the end of a connection. Everything under the server's mu
 * (server_state.h); called by the listener and by the thread that owns each peer. */
#ifndef SIM_REGISTRY_H
#define SIM_REGISTRY_H

#include "simhost/server/server_state.h"

/* Admission gate (called at accept, before the handshake thread exists). A pending handshake
 * costs about SIM_PENDING_COST_MB of memory (FreeRDP's peer context and the thread), so their number
 * is capped at the lower of --max-pending and --max-pending-mb / SIM_PENDING_COST_MB. At the cap
 * the oldest pending handshake still alive is shut down (its peer is logged) and the new client
 * is admitted, so a flood of half-open connections cannot keep fresh clients out; shut-down
 * handshakes whose threads have not ended yet count too, up to twice the cap, past which the new
 * connection is refused (its peer is logged). Returns 0 to admit (the caller starts the thread
 * and the connection's end calls sim_server_conn_done), or -1 to refuse. */
#define SIM_PENDING_COST_MB 3
int sim_server_admit(struct sim_server *srv, const char *peer);
int sim_server_pending_cap(const struct sim_opts *o);

/* Registry (called by the thread that owns the peer). */
void sim_server_register(struct sim_server *srv, struct sim_peer_entry *e, int fd);
void sim_server_unregister(struct sim_server *srv, struct sim_peer_entry *e);
/* Marks e logged on and counts it against --max-sessions; returns 0, or -1 when full. */
int sim_server_logon(struct sim_server *srv, struct sim_peer_entry *e);
/* A connection ends (or its thread could not start): releases what sim_server_admit counted. */
void sim_server_conn_done(struct sim_server *srv, int logged_on);

#endif

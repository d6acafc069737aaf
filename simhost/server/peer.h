/* peer.h -- one RDP peer: FreeRDP 2.11 peer setup (TLS or NLA), the handshake on a thread of
 * its own (FreeRDP's accept blocks), logon checks, then the hand-over to an event loop
 * (loop.h); the goodbye PDUs and the teardown. */
#ifndef SIM_PEER_H
#define SIM_PEER_H

#include <freerdp/listener.h>
#include <freerdp/peer.h>
#include <stdint.h>

struct sim_server;
struct sim_session;

/* The listener's PeerAccepted callback: starts the peer's handshake thread (listener->info =
 * server). Returns FALSE when the thread cannot start or the admission gate refuses (the listener
 * then closes the socket). */
BOOL sim_peer_accepted(freerdp_listener *listener, freerdp_peer *peer);
/* Tells the client why it is going away: bad password (logon error + 0x9), full (0x7), logoff
 * (0xC); then the server side of the disconnect sequence. Output may stay buffered: the caller
 * drains it and half-closes. */
void sim_peer_goodbye(struct sim_session *s, uint32_t errinfo);
/* Tears a handed-over session down (frees s and its peer). */
void sim_peer_end(struct sim_session *s);

#endif

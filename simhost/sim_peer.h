/* sim_peer.h -- one RDP peer on its own thread: FreeRDP 2.11 peer setup (TLS or NLA), logon
 * checks, the session loop (input -> desktop -> work -> dirty rectangles as SurfaceBits between
 * frame markers), SuppressOutput/RefreshRect, logoff and clean teardown. */
#ifndef SIM_PEER_H
#define SIM_PEER_H

#include <freerdp/listener.h>
#include <freerdp/peer.h>

struct sim_server;

/* The listener's PeerAccepted callback: starts the peer's thread (listener->info = server).
 * Returns FALSE when the thread cannot start or --max-conns threads are live (the listener then
 * closes the socket). */
BOOL sim_peer_accepted(freerdp_listener *listener, freerdp_peer *peer);

#endif

/* connect.h -- a FreeRDP instance for one connect attempt: the callbacks FreeRDP makes into a
 * session while connecting (logon info, certificate, authentication, drives, connection states; the screen's
 * are installed at post-connect, screen.h), the logon marks of an attempt and an instance's release. Private to agent/rdp/. */
#ifndef SESSMAX_RDP_CONNECT_H
#define SESSMAX_RDP_CONNECT_H

#include <stdint.h>

#include <freerdp/freerdp.h>

/* Sets a fresh instance's context size (struct session_ctx) and the session's connect-time
 * callbacks; post-connect installs the paint, frame-marker and resize ones. Before
 * freerdp_context_new(). */
void rdp_connect_hook(freerdp *inst);

struct rdp_session;
/* The connect worker, around freerdp_connect(): forgets s's logon marks, then marks on this
 * thread when FreeRDP's TCP connect starts and ends (compat/connect_marks.h); the connection
 * states (security done, active) are marked by the callbacks rdp_connect_hook installs. */
void rdp_connect_marks_arm(struct rdp_session *s);
void rdp_connect_marks_disarm(void);

/* Disconnects (when connected), then frees the instance with its gdi and context. Accepts NULL.
 * Any thread; blocks for as long as the disconnect takes. */
void rdp_connect_free_instance(freerdp *inst, int connected);

/* The connect watchdog's kick (agent/engine/connector.h) for an attempt on `instance`: aborts
 * freerdp_connect() and shutdown()s its socket (event handle 1), so a server that accepted TCP
 * and then says nothing cannot hold the worker. Any thread; does not block. */
void rdp_connect_kick(void *instance);

/* After an attempt that did not reach its peer (failure_wants_peer_errno): a plain TCP connect to
 * host:port within timeout_ms. Returns its errno (ECONNREFUSED, EHOSTUNREACH, ETIMEDOUT, ...;
 * 0 when it connected or the name does not resolve). Blocks: connect workers only. */
int rdp_connect_peer_errno(const char *host, uint16_t port, int timeout_ms);

#endif

/* session.h -- one simulated user: a FreeRDP instance, its events on the loop, its interpreter.
 *
 * States and the function that makes each move (every move happens on the loop thread; the
 * connect itself runs on a connector thread, see connector.h):
 *
 *                 rdp_session_start()
 *   (new) ─────────────────────────► CONNECTING ──(attempt failed, retryable)──► CONNECTING
 *                                        │              [connect_done_cb → retry_cb]
 *                 [connect_done_cb]      │ connected: events armed, interp_start(t0)
 *                                        ▼
 *                                      LOGON ──(logon condition timed out)──► FAILED
 *                 [logon_cb]             │ desktop ready: SESSION_ACTIVE(logon_us)
 *                                        ▼
 *                                     RUNNING ──(disconnect, interp failure)──► FAILED
 *                 [rdp_session_logoff]       │ interp_logoff(): SESSION_LOGOFF      [finish_cb]
 *                                        ▼
 *                                     LOGOFF ──(logoff steps done, or server ended the
 *                 [finish_cb]            │      session after we asked)──► DONE (SESSION_ENDED)
 *                                        └──(failure, deadline: rdp_session_kill)──► FAILED
 *
 *   CONNECTING/LOGON --rdp_session_logoff()/rdp_session_kill()--> FAILED (FAIL_ABORTED)
 *
 * Invariants: DONE and FAILED are terminal and emit exactly one SESSION_ENDED/SESSION_FAILED;
 * the FreeRDP instance exists only in LOGON, RUNNING and LOGOFF (and inside a running connect
 * attempt); teardown never runs inside a FreeRDP or interpreter callback (it is deferred to
 * finish_cb); the password copy is wiped when connect attempts are over. */
#ifndef SESSMAX_RDP_SESSION_H
#define SESSMAX_RDP_SESSION_H

#include <stdint.h>

#include "agent/engine/engine_config.h"
#include "agent/engine/session_ops.h"
#include "common/results.h"

struct event_base;
struct connector;
struct rdp_session;
struct screen_view;

/* Copies the spec (user, password); NULL on allocation failure. */
struct rdp_session *rdp_session_new(const struct session_host *h, const struct engine_session_spec *spec);
/* NEW -> CONNECTING: emits SESSION_LAUNCHED and queues the first connect attempt. */
void rdp_session_start(struct rdp_session *s);
/* Orderly logoff (see the diagram). Safe in any state, more than once. */
void rdp_session_logoff(struct rdp_session *s);
/* Immediate end with a reason (e.g. logoff deadline): tears down, records FAILED. */
void rdp_session_kill(struct rdp_session *s, enum failure_reason reason, const char *detail);
/* Identity, state and final reason (agent/engine/session_life.h). */
const struct session_life *rdp_session_life(const struct rdp_session *s);
/* Releases everything without records. Only after connector_free() (no attempt may be running).
 * Accepts NULL. */
void rdp_session_free(struct rdp_session *s);

#endif

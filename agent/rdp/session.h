/* session.h -- one simulated user: a FreeRDP instance, its events on the loop, its interpreter.
 *
 * States and the function that makes each move (every move happens on the loop thread; the
 * connect itself runs on a connector thread, see connector.h):
 *
 *                 session_start()
 *   (new) ─────────────────────────► CONNECTING ──(attempt failed, retryable)──► CONNECTING
 *                                        │              [connect_done_cb → retry_cb]
 *                 [connect_done_cb]      │ connected: events armed, interp_start(t0)
 *                                        ▼
 *                                      LOGON ──(logon condition timed out)──► FAILED
 *                 [logon_cb]             │ desktop ready: SESSION_ACTIVE(logon_us)
 *                                        ▼
 *                                     RUNNING ──(disconnect, interp failure)──► FAILED
 *                 [session_logoff]       │ interp_logoff(): SESSION_LOGOFF      [finish_cb]
 *                                        ▼
 *                                     LOGOFF ──(logoff steps done, or server ended the
 *                 [finish_cb]            │      session after we asked)──► DONE (SESSION_ENDED)
 *                                        └──(failure, deadline: session_kill)──► FAILED
 *
 *   CONNECTING/LOGON --session_logoff()/session_kill()--> FAILED (FAIL_ABORTED)
 *
 * Invariants: DONE and FAILED are terminal and emit exactly one SESSION_ENDED/SESSION_FAILED;
 * the FreeRDP instance exists only in LOGON, RUNNING and LOGOFF (and inside a running connect
 * attempt); teardown never runs inside a FreeRDP or interpreter callback (it is deferred to
 * finish_cb); the password copy is wiped when connect attempts are over. */
#ifndef SESSMAX_SESSION_H
#define SESSMAX_SESSION_H

#include <stdint.h>

#include "agent/engine/engine_config.h"
#include "common/results.h"

struct event_base;
struct connector;
struct session;
struct screen_view;

enum session_state {
    SESSION_ST_NEW = 0,
    SESSION_ST_CONNECTING,
    SESSION_ST_LOGON,
    SESSION_ST_RUNNING,
    SESSION_ST_LOGOFF,
    SESSION_ST_DONE,
    SESSION_ST_FAILED,
};

/* What every session shares, owned by the engine (borrowed by sessions). */
struct session_host {
    struct event_base *base;
    const struct engine_config *cfg;     /* config_dir resolved */
    const struct result_sink *sink;
    struct connector *conn;
    void (*on_terminal)(void *arg);      /* after a session's DONE/FAILED was recorded */
    /* Optional: 1 + index of a live session of s's user launched after s, or 0 (used to tell
     * a session taken over by a newer logon of its user, reason `replaced`). */
    uint32_t (*relogged_by)(void *arg, const struct session *s);
    void *arg;
};

/* Copies the spec (user, password); NULL on allocation failure. */
struct session *session_new(const struct session_host *h, const struct engine_session_spec *spec);
/* NEW -> CONNECTING: emits SESSION_LAUNCHED and queues the first connect attempt. */
void session_start(struct session *s);
/* Orderly logoff (see the diagram). Safe in any state, more than once. */
void session_logoff(struct session *s);
/* Immediate end with a reason (e.g. logoff deadline): tears down, records FAILED. */
void session_kill(struct session *s, enum failure_reason reason, const char *detail);
enum session_state session_get_state(const struct session *s);
uint32_t session_get_index(const struct session *s);
const char *session_get_user(const struct session *s);
/* CLOCK_MONOTONIC µs of session_start() (0 before). */
uint64_t session_get_launched_us(const struct session *s);
/* Reason of a FAILED session (FAIL_NONE otherwise). */
enum failure_reason session_get_reason(const struct session *s);
/* Workload loops completed so far (0 without a workload). */
uint32_t session_loops(const struct session *s);
/* PNG of the current screen; 0 or -1. */
int session_save_png(struct session *s, const char *path);
/* The session's framebuffer (borrowed until return to the loop); -1 when not connected. */
int session_screen(struct session *s, struct screen_view *out);
/* Releases everything without records. Only after connector_free() (no attempt may be running).
 * Accepts NULL. */
void session_free(struct session *s);

#endif

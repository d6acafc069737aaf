/* session.h -- one simulated user through an external X11 client (client: x11): its own Xvfb,
 * the client process on it, the client's window as the interpreter's screen (display.h), and
 * the same records as an RDP session (agent/rdp/session.h). States are the same:
 *
 *   CONNECTING  on a connector worker (start.h): Xvfb starting (-displayfd), the agent's
 *               X connection, the password helper and the client; then, on the loop, until a
 *               top-level window is mapped (else client_timeout after window_timeout)
 *   LOGON       the interpreter waits for the desktop-ready condition; the logon time runs from
 *               the client's start
 *   RUNNING, LOGOFF, DONE, FAILED as for an engine session.
 *
 * The client exiting is `client_exit` (a clean end while logging off), the X server exiting or
 * its connection breaking is `xserver`. Terminal states stop both processes (SIGTERM, then
 * SIGKILL) without waiting; x11_session_free reaps what is left. */
#ifndef SESSMAX_X11_SESSION_H
#define SESSMAX_X11_SESSION_H

#include <stdint.h>

#include "agent/engine/session_ops.h"
#include "agent/x11/proc.h"

struct x11_session;
struct session_life;
struct screen_view;

/* h->cfg->client must be set; run_dir: where the sessions' directories go (tmpfs preferred:
 * the framebuffer files live there). */
struct x11_session *x11_session_new(const struct session_host *h, const char *run_dir,
                                    const struct engine_session_spec *spec);
void x11_session_start(struct x11_session *s);
void x11_session_logoff(struct x11_session *s);
void x11_session_kill(struct x11_session *s, enum failure_reason reason, const char *detail);
/* Identity, state and final reason (agent/engine/session_life.h). */
const struct session_life *x11_session_life(const struct x11_session *s);
int x11_session_screen(struct x11_session *s, struct screen_view *out);
int x11_session_save_png(struct x11_session *s, const char *path);
/* The process ids of the client and of the X server (0 for a process not running), for reading
 * their costs off the loop (costs.h); 1 when either runs, else 0 (also while the session is
 * starting on a connector worker). */
int x11_session_pids(const struct x11_session *s, pid_t *client, pid_t *xserver);
/* Any thread: a start running on a connector worker gives up at its next wait (before
 * connector_free, so that it joins at once). Accepts NULL. */
void x11_session_abort_start(struct x11_session *s);
/* Kills and reaps what still runs; frees. Only after connector_free(). Accepts NULL. */
void x11_session_free(struct x11_session *s);

#endif

/* session_rdp.h -- the session's FreeRDP side: the callbacks FreeRDP makes into a session
 * (paints, frame markers, resize, codecs, logon info, certificate and authentication), the driver
 * ops the interpreter sends input through, and an instance's release. Private to the session
 * (session.c); see session.h for the session's life. */
#ifndef SESSMAX_SESSION_RDP_H
#define SESSMAX_SESSION_RDP_H

#include <freerdp/freerdp.h>

#include "agent/driver/driver.h"

/* Sets a fresh instance's context size (struct session_ctx) and the session's connect-time
 * callbacks; post-connect installs the paint, frame-marker and resize ones. Before
 * freerdp_context_new(). */
void session_rdp_hook(freerdp *inst);

/* Disconnects (when connected), then frees the instance with its gdi and context. Accepts NULL.
 * Any thread; blocks for as long as the disconnect takes. */
void session_rdp_free_instance(freerdp *inst, int connected);

/* The driver ops of a session (sess: struct session *): input through FreeRDP, the gdi
 * framebuffer as the screen, PNG snapshots and repaint requests. Loop thread only. */
extern const struct driver_ops session_rdp_driver;

#endif

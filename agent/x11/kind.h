/* kind.h -- the external-client session kind for the engine (agent/engine/session_ops.h): each
 * session an X11 client (xfreerdp, a VNC viewer, ...) on its own Xvfb; needs engine_config.client. */
#ifndef SESSMAX_X11_KIND_H
#define SESSMAX_X11_KIND_H

#include "agent/engine/session_ops.h"

extern const struct session_ops x11_session_ops;

#endif

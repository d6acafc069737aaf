/* kind.h -- the RDP session kind for the engine (agent/engine/session_ops.h): each session a
 * FreeRDP 2.11 instance of this process. */
#ifndef SESSMAX_RDP_KIND_H
#define SESSMAX_RDP_KIND_H

#include "agent/engine/session_ops.h"

extern const struct session_ops rdp_session_ops;

#endif

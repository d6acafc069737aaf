/* input.h -- the RDP session's driver ops (sess: struct rdp_session *): input through FreeRDP,
 * the gdi framebuffer as the screen, PNG snapshots and repaint requests. Private to agent/rdp/. */
#ifndef SESSMAX_RDP_INPUT_H
#define SESSMAX_RDP_INPUT_H

#include "agent/driver/driver.h"

extern const struct driver_ops rdp_driver;

#endif

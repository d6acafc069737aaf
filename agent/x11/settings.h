/* settings.h -- the engine's settings (target, certificate pin, security, connection type,
 * desktop size) as the values of an external client's command-line placeholders
 * (common/x11_preset.h): {host}, {port}, {cert}, {security}, {network}, ... */
#ifndef SESSMAX_X11_SETTINGS_H
#define SESSMAX_X11_SETTINGS_H

#include "agent/x11/launch.h"
#include "common/x11_preset.h"

/* The strings the values point into. */
struct x11_settings_buf { char port[8], w[12], h[12], cert[1100], passfile[4200], icafile[4200]; };

/* Every placeholder's value for c's session; buffers in b (v points into it and into c). */
void x11_settings_vars(const struct x11_launch_ctx *c, struct x11_vars *v, struct x11_settings_buf *b);

#endif

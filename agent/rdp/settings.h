/* settings.h -- the only code that writes FreeRDP's rdpSettings: target, credentials,
 * certificate policy and the per-session economies of a load client (notes §4, §5, §8). */
#ifndef SESSMAX_RDP_SETTINGS_H
#define SESSMAX_RDP_SETTINGS_H

#include <freerdp/settings.h>

#include "agent/engine/engine_config.h"

/* Applies cfg (config_dir must be set: a private, writable ConfigPath) plus the session's
 * credentials. The password is copied by FreeRDP into its settings; the caller keeps ownership
 * of its own copy. Returns 0, or -1 if FreeRDP refused a setting (logged, without values). */
int rdp_settings_push(rdpSettings *s, const struct engine_config *cfg, const char *user,
                      const char *password);

/* PIXEL_FORMAT_* for gdi_init: RGB16 at 16 bpp (half the framebuffer), BGRX32 otherwise. */
uint32_t rdp_settings_pixel_format(const struct engine_config *cfg);

#endif

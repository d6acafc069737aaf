/* settings.h -- the engine's settings (target, certificate pin, security, connection type,
 * desktop size) as the values of an external client's command-line placeholders
 * (common/x11_preset.h): {host}, {port}, {cert}, {security}, {network}, ... Also what a client
 * needs for one session (struct x11_launch_ctx), which x11/launch.c starts it with. */
#ifndef SESSMAX_X11_SETTINGS_H
#define SESSMAX_X11_SETTINGS_H

#include "agent/engine/engine_config.h"
#include "common/x11_preset.h"

/* What a client needs for one session. */
struct x11_launch_ctx {
    const struct engine_config *cfg;    /* target, certificate, security; cfg->client */
    const char *dir;                    /* the session's directory */
    const char *display;                /* ":N" */
    const char *user;
    const char *password;
};

/* The strings the values point into. */
struct x11_settings_buf { char port[8], w[12], h[12], cert[1100], passfile[4200], icafile[4200]; };

/* Every placeholder's value for c's session; buffers in b (v points into it and into c). */
void x11_settings_vars(const struct x11_launch_ctx *c, struct x11_vars *v, struct x11_settings_buf *b);

#endif

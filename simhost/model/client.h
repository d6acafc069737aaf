/* client.h -- a headless FreeRDP client for measuring simhost from the outside: one instance
 * logged on to a simhost with a software framebuffer (gdi) that counts the frames it receives
 * and keys sent as scancodes. Used by the real-session check of --predict (selfcheck.h) and
 * by bench_simhost. The caller drives the instance's events (freerdp_check_event_handles). */
#ifndef SIM_CLIENT_H
#define SIM_CLIENT_H

#include <freerdp/freerdp.h>
#include <stdint.h>

/* The instance's context (inst->context points to one). */
struct sim_client {
    rdpContext base;
    pEndPaint orig_end;
    int bpp;                 /* 16 (RGB16 framebuffer) or 32 (BGRX32) */
    volatile int frames;     /* EndPaints received */
    volatile int dead;       /* set by whoever drives its events when they fail */
};

struct sim_client_cfg {
    const char *host;
    int port;
    const char *user, *password;
    const char *config_dir;  /* FreeRDP's own files */
    const char *fingerprint; /* the certificate to accept (NULL: any) */
    int bpp;                 /* the session's colour depth, 16 or 32 */
};

/* A new, not yet connected instance (freerdp_connect it), or NULL. */
freerdp *sim_client_new(const struct sim_client_cfg *cfg);
/* Disconnects and frees. */
void sim_client_free(freerdp *inst);
/* One key event by scancode (keymap.h). */
void sim_client_key(freerdp *inst, uint32_t sc, int down);
/* Types one character (shift held for those that need it). */
void sim_client_char(freerdp *inst, char c);

#endif

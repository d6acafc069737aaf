/* screen.h -- the RDP session's screen: FreeRDP's gdi framebuffer (zeroed, ours), the damage
 * rectangles of each paint for the interpreter, views and PNG snapshots. Private to agent/rdp/. */
#ifndef SESSMAX_RDP_SCREEN_H
#define SESSMAX_RDP_SCREEN_H

#include <stddef.h>
#include <stdint.h>

#include <freerdp/freerdp.h>
#include <freerdp/gdi/gdi.h>

#include "agent/driver/driver.h"

struct rdp_session;

/* Copies the rectangles invalidated since the last call (hwnd->cinvalid[0..ninvalid-1]),
 * clipped to width x height and with empty ones dropped, into out[0..max-1]; then resets the
 * invalid region (invalid->null = TRUE, ninvalid = 0) -- FreeRDP 2.11 never does, and cinvalid
 * would grow forever. Returns the number written. hwnd may be NULL (returns 0). */
size_t rdp_screen_take_damage(HGDI_WND hwnd, uint32_t width, uint32_t height, struct rect *out,
                              size_t max);

/* Fills a view of gdi's primary buffer (borrowed; valid until the next loop iteration).
 * Returns 0, or -1 if there is no framebuffer yet or its format is neither RGB16 nor BGRX32. */
int rdp_screen_view_of(const rdpGdi *gdi, struct screen_view *out);

/* Post-connect: gdi on a zeroed framebuffer in `format`, and the paint, frame-marker and resize
 * callbacks that feed the session's interpreter. FALSE on failure. */
BOOL rdp_screen_attach(freerdp *inst, uint32_t format);

/* The session's framebuffer; -1 when not connected. */
int rdp_screen_view(const struct rdp_session *s, struct screen_view *out);
/* PNG of it; 0 or -1 (logged). */
int rdp_screen_save_png(const struct rdp_session *s, const char *path);

#endif

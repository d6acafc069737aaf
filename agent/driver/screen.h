/* screen.h -- the session framebuffer as sessmax sees it: a read-only view of FreeRDP's gdi
 * primary buffer, the damage rectangles of each paint, and PNG snapshots (libpng). */
#ifndef SESSMAX_SCREEN_H
#define SESSMAX_SCREEN_H

#include <stddef.h>

#include <freerdp/gdi/gdi.h>

#include "agent/driver/driver.h"

/* Most rectangles passed per paint; more are folded into the last one's bounding box. */
#define SCREEN_MAX_RECTS 32

/* Copies the rectangles invalidated since the last call (hwnd->cinvalid[0..ninvalid-1]),
 * clipped to width x height and with empty ones dropped, into out[0..max-1]; then resets the
 * invalid region (invalid->null = TRUE, ninvalid = 0) -- FreeRDP 2.11 never does, and cinvalid
 * would grow forever. Returns the number written. hwnd may be NULL (returns 0). */
size_t screen_take_damage(HGDI_WND hwnd, uint32_t width, uint32_t height, struct rect *out,
                          size_t max);

/* Appends rectangles add[0..m-1] to acc[0..n-1] (capacity max); once full, the rest are folded
 * into the last one's bounding box. Returns the new count. */
size_t screen_rects_add(struct rect *acc, size_t n, size_t max, const struct rect *add, size_t m);

/* Fills a view of gdi's primary buffer (borrowed; valid until the next loop iteration).
 * Returns 0, or -1 if there is no framebuffer yet or its format is neither RGB16 nor BGRX32. */
int screen_view_of(const rdpGdi *gdi, struct screen_view *out);

/* Writes the view as an 8-bit RGB PNG (written to path.tmp, then renamed). 0, or -1 (logged). */
int screen_write_png(const struct screen_view *v, const char *path);

#endif

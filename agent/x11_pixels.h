/* x11_pixels.h -- the pixels of one X screen as the interpreter reads them: a copy in the
 * agent, refreshed region by region as damage arrives. Read through MIT-SHM (XShmGetImage: the
 * server writes into a shared segment, one round trip and no pixel data on the socket) where
 * the server offers it to this client, else through XGetImage (the pixels travel on the X
 * connection). SESSMAX_X11_PIXELS=getimage forces the fallback (x11_display_init reads it).
 * Any one thread at a time per display. */
#ifndef SESSMAX_X11_PIXELS_H
#define SESSMAX_X11_PIXELS_H

#include <stddef.h>

#include <X11/Xlib.h>

#include "agent/driver.h"

struct x11_pixels;

/* For the root window of dpy's default screen (24-bit TrueColor, 32 bits per pixel: BGRX),
 * with a first full read. force_getimage: no MIT-SHM. NULL with err on failure. */
struct x11_pixels *x11_pixels_new(Display *dpy, int force_getimage, char *err, size_t errlen);
/* Re-reads the screen inside r (clipped). 0, or -1 when the server did not answer. */
int x11_pixels_fetch(struct x11_pixels *p, const struct rect *r);
/* "MIT-SHM" or "XGetImage". */
const char *x11_pixels_method(const struct x11_pixels *p);
/* The copy (borrowed; valid as long as p). */
const struct screen_view *x11_pixels_view(const struct x11_pixels *p);
/* Before the display is closed; alive 0: the connection broke (no more requests). Accepts NULL. */
void x11_pixels_free(struct x11_pixels *p, int alive);

#endif

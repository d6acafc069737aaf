/* x11_display.h -- the agent's connection to one session's X server (Xvfb): damage (XDamage on
 * the root window, raw rectangles), windows mapped (the client's window appeared), the pixels
 * (Xvfb's -fbdir framebuffer file, mapped read-only: reading a region costs no X round trip),
 * and input (XTest). The connection's fd goes into the agent's loop; nothing here blocks except
 * the open (a local socket) and a Unicode key (one round trip to remap a spare keycode). */
#ifndef SESSMAX_X11_DISPLAY_H
#define SESSMAX_X11_DISPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "agent/driver.h"

struct x11_display;

/* Connects to `name` (":N") and maps the framebuffer file fb_path (Xvfb's Xvfb_screen0, 24-bit
 * TrueColor: BGRX32). NULL with err when the server or an extension (DAMAGE, XTEST) is missing. */
struct x11_display *x11_display_open(const char *name, const char *fb_path, char *err, size_t errlen);
int x11_display_fd(const struct x11_display *d);
/* Handles everything the server sent: damaged rectangles go to rects[0..max-1] (*n of them;
 * more are folded into the last), *mapped counts top-level windows mapped. 0, or -1 when the
 * connection is gone (the X server died). */
int x11_display_pump(struct x11_display *d, struct rect *rects, size_t max, size_t *n, int *mapped);
/* 1 when Xlib holds events it already read (a flush may read while it waits to write): the fd
 * will not wake the loop for them, so the caller pumps again. */
int x11_display_pending(struct x11_display *d);
/* The screen (borrowed; the mapping lives as long as d). */
int x11_display_screen(struct x11_display *d, struct screen_view *out);
/* Input. 0, or -1 when the connection is gone. */
int x11_display_key(struct x11_display *d, unsigned keycode, int down);
int x11_display_unicode(struct x11_display *d, uint16_t utf16, int down);
int x11_display_pointer(struct x11_display *d, uint16_t flags, uint16_t x, uint16_t y);
/* Makes the server send Expose to the top-level windows (they repaint from what they hold). */
int x11_display_expose(struct x11_display *d);
/* Accepts NULL. */
void x11_display_close(struct x11_display *d);

#endif

/* display.h -- the agent's connection to one session's X server (Xvfb): damage (XDamage on
 * the root window, raw rectangles), windows mapped (the client's window appeared), the pixels
 * (the damaged region's, read through MIT-SHM or XGetImage: screen.h),
 * and input (XTest). The open runs on a connector worker (start.h); then the connection's fd
 * goes into the agent's loop. The damaged pixels are read asynchronously (screen.h): the loop
 * sends the read and takes its reply when it comes on the fd, so the only round trip it waits for
 * is one per Unicode key (remapping a spare keycode). */
#ifndef SESSMAX_X11_DISPLAY_H
#define SESSMAX_X11_DISPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "agent/driver/driver.h"

struct x11_display;

/* Once, on the loop thread, before any display is opened: Xlib's own locks (displays are opened
 * on connector workers, then used on the loop) and error handlers that log instead of exiting.
 * 0 or -1. */
int x11_display_init(void);

/* Connects to `name` (":N") with the server's MIT-MAGIC-COOKIE-1 and reads its screen (24-bit
 * TrueColor: BGRX32). Any thread (one open at a time takes a process-wide lock). NULL with err
 * when the server, an extension (DAMAGE, XTEST) or the pixels are missing. */
struct x11_display *x11_display_open(const char *name, const uint8_t *cookie, size_t cookie_len,
                                     char *err, size_t errlen);
/* How the screen's pixels are read: "MIT-SHM" or "XGetImage". */
const char *x11_display_pixels_method(const struct x11_display *d);
int x11_display_fd(const struct x11_display *d);
/* Handles everything the server sent: damaged rectangles whose pixels are now in the copy go to
 * rects[0..max-1] (*n of them; more are folded into the last), *mapped counts top-level windows
 * mapped; new damage is sent to be read (its rectangles come out of a later pump, once read).
 * 0, or -1 when the connection is gone (the X server died). */
int x11_display_pump(struct x11_display *d, struct rect *rects, size_t max, size_t *n, int *mapped);
/* 1 when Xlib holds events it already read (a flush may read while it waits to write) or a
 * read's reply has been taken: the fd will not wake the loop for them, so the caller pumps
 * again. */
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

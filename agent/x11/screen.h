/* screen.h -- the pixels of one X screen as the interpreter reads them: a copy in the
 * agent, refreshed region by region as damage arrives. Read through MIT-SHM (the server writes
 * into a shared segment: no pixel data on the socket) where the server offers it to this client,
 * else through GetImage (the pixels travel on the X connection). SESSMAX_X11_PIXELS=getimage
 * forces the fallback (x11_display_init reads it).
 *
 * A read is asynchronous: x11_pixels_request sends the request (through the display's XCB
 * connection) and returns; its reply comes on the X connection's fd like any event, and
 * x11_pixels_poll completes it without blocking. So the agent's loop never waits for the X
 * server's round trip. One read is in flight at a time. Only the first read (x11_pixels_new)
 * waits for its reply. Any one thread at a time per display. */
#ifndef SESSMAX_X11_PIXELS_H
#define SESSMAX_X11_PIXELS_H

#include <stddef.h>

#include <X11/Xlib.h>

#include "agent/driver/driver.h"

struct x11_pixels;

/* For the root window of dpy's default screen (24-bit TrueColor, 32 bits per pixel: BGRX),
 * with a first full read (waited for). force_getimage: no MIT-SHM. NULL with err on failure. */
struct x11_pixels *x11_pixels_new(Display *dpy, int force_getimage, char *err, size_t errlen);
/* Sends the read of the screen inside r (clipped) and returns at once. 0 (also when r is empty
 * on screen: nothing is sent and the read counts as done at the next poll), -1 when a read is
 * already in flight or the connection is broken. */
int x11_pixels_request(struct x11_pixels *p, const struct rect *r);
/* 1 when a read is in flight (its reply not yet taken by x11_pixels_poll), else 0. */
int x11_pixels_busy(const struct x11_pixels *p);
/* Takes the reply of the read in flight if it has come (reads what the fd holds, never waits):
 * 1 done, the copy holds the region's pixels now; 0 still waiting, or no read in flight; -1 the
 * server answered with an error or the connection broke. */
int x11_pixels_poll(struct x11_pixels *p);
/* "MIT-SHM" or "XGetImage". */
const char *x11_pixels_method(const struct x11_pixels *p);
/* The copy (borrowed; valid as long as p). */
const struct screen_view *x11_pixels_view(const struct x11_pixels *p);
/* Before the display is closed; alive 0: the connection broke (no more requests). A read in
 * flight is abandoned. Accepts NULL. */
void x11_pixels_free(struct x11_pixels *p, int alive);

#endif

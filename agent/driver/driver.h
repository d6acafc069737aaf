/* driver.h -- the screen/driver contract: what the workload interpreter needs of a screen.
 *
 * The interpreter (interp.h, with cond.h and keys.h under it) never knows what kind of screen it
 * drives. A driver is anything that can show it pixels and take input: today an RDP session of
 * the engine (session.c, over FreeRDP's gdi framebuffer); an external client's window (an X11
 * window read with XShm and fed with XTest) implements the same ops and drives the same
 * interpreter unchanged. This header depends on nothing but <stdint.h>; values that come from
 * RDP (scancodes, pointer flags) are spelled out below so a driver that is not RDP can translate
 * them without FreeRDP's headers.
 *
 * A driver's duties:
 *   - fill a struct driver_ops (key, unicode, mouse and screen; save_png and refresh may be
 *     NULL: no screenshots, no repaint requests) and pass
 *     it, with its own opaque pointer `sess`, in struct interp_host (interp.h);
 *   - call interp_start(t0) once the screen exists (t0: when the connect/launch started,
 *     CLOCK_MONOTONIC µs), then interp_on_paint(rects, n) each time pixels changed, listing the
 *     changed rectangles (n = 0 is allowed: "something changed, no detail" -- conditions that
 *     watch a region then re-read only if a rectangle touches it, so a driver that cannot tell
 *     what changed passes one rectangle covering the screen). The time of the call is the time
 *     a condition holds, so a driver whose source marks frames (RDP Surface Frame Markers)
 *     collects a frame's paints and calls once at the frame's end, never mid-frame;
 *   - call interp_logoff() to end, and stop calling the interpreter after its on_finished.
 * Everything (ops, interp_*) runs on the one libevent loop thread the interpreter was made on;
 * no op may block for long (the loop runs every other session of the process). */
#ifndef SESSMAX_DRIVER_H
#define SESSMAX_DRIVER_H

#include <stdint.h>

/* A rectangle of the screen in pixels (x, y: top-left; w, h > 0 for a real change). */
struct rect { int32_t x, y, w, h; };

/* The screen as the interpreter may read it. Borrowed from the driver: valid until control
 * returns to the event loop, never written by the interpreter. Rows are `stride` bytes apart,
 * top row first. bytes_per_pixel 2: RGB16 (5-6-5, little-endian uint16, red in the high bits);
 * 4: BGRX32 (bytes B, G, R, unused). A driver whose pixels are in another format converts them
 * (or fails screen()). */
struct screen_view {
    const uint8_t *pixels;
    uint32_t width, height, stride, bytes_per_pixel;
};

/* Keyboard scancodes are RDP's (PC set 1 make codes, as in freerdp/scancode.h and
 * common/keymap.h): the low byte is the code, DRIVER_KEY_EXTENDED marks extended keys
 * (arrows, right ctrl, the Windows key, ...). */
#define DRIVER_KEY_EXTENDED 0x0100u

/* Pointer flags are RDP's (TS_POINTER_EVENT pointerFlags, MS-RDPBCGR 2.2.8.1.1.3.1.1.3; the
 * same values as FreeRDP's PTR_FLAGS_*). The interpreter sends MOVE alone, then a button with
 * DOWN (press) and the same button without DOWN (release). */
#define DRIVER_PTR_MOVE    0x0800u
#define DRIVER_PTR_DOWN    0x8000u
#define DRIVER_PTR_BUTTON1 0x1000u    /* left */
#define DRIVER_PTR_BUTTON2 0x2000u    /* right */
#define DRIVER_PTR_BUTTON3 0x4000u    /* middle */

/* What the interpreter asks of a driver; `sess` is the driver's opaque pointer. Input calls
 * return 0, or -1 when the session can no longer take input: the interpreter then stops
 * silently (no further calls, no on_finished) and the driver reports why and ends the session. */
struct driver_ops {
    /* One key press (down = 1) or release (down = 0) by scancode. */
    int (*key)(void *sess, uint32_t rdp_scancode, int down);
    /* One UTF-16 code unit typed as a Unicode key event (characters the US layout lacks; a
     * code point above U+FFFF comes as two calls per direction, high then low surrogate). */
    int (*unicode)(void *sess, uint16_t utf16, int down);
    /* Pointer event at (x, y) in screen pixels; flags as above. */
    int (*mouse)(void *sess, uint16_t flags, uint16_t x, uint16_t y);
    /* Fills *out with the current screen; 0, or -1 when there is none yet (not an error: the
     * interpreter waits for the next paint). May be called several times per loop turn. */
    int (*screen)(void *sess, struct screen_view *out);
    /* Saves the current screen as a PNG file at path (the interpreter names it inside the shots
     * directory it was given); 0 on success. Failure is not fatal. */
    int (*save_png)(void *sess, const char *path);
    /* Optional (NULL: the driver cannot). Asks the source to repaint the whole screen, as a real
     * client does when its window shows again (RDP: Suppress Output "allow" + Refresh Rect; an
     * X11 source could expose the window). The interpreter calls it during logon when the
     * desktop-ready condition has seen no paint for the workload's `repaint_after`, at most 3
     * times per logon. 0 when the request was sent, else -1 (not fatal). */
    int (*refresh)(void *sess);
    /* Optional (NULL: not measured; the samples then carry no agent share). During a paint
     * (interp_on_paint), when the data behind it reached the client: CLOCK_MONOTONIC µs, no later
     * than the call; 0: now. The interpreter records paint time minus this as the agent's own share
     * of a timer that the paint ends (RDP: the kernel's receive stamp of the first unread buffer of
     * the socket when the loop came to it, agent/driver/rxstamp.h). */
    uint64_t (*ready_us)(void *sess);
};

#endif

/* x11_display.c -- one Xvfb seen from the agent: Xlib connection with XDamage and XTest, the
 * mmap'ed framebuffer file (XWD format), windows mapped, input. */
#include "agent/x11_display.h"

#include <X11/Xlib.h>
#include <X11/extensions/Xdamage.h>
#include <X11/extensions/XTest.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/screen.h"
#include "agent/x11_keys.h"
#include "common/log.h"

struct x11_display {
    Display *dpy;
    Window root;
    Damage damage;
    int damage_base, broken;
    const uint8_t *map;
    size_t map_len;
    struct screen_view view;
    Window top[8];                /* top-level windows mapped, for expose */
    int ntop;
    KeyCode spare;                /* a keycode without symbols, for Unicode input */
    uint16_t high;                /* pending high surrogate */
};

static int quiet_error(Display *dpy, XErrorEvent *e)
{
    (void)dpy;
    log_debug("X error %u (request %u.%u)", e->error_code, e->request_code, e->minor_code);
    return 0;
}

static int quiet_io_error(Display *dpy)
{
    (void)dpy;
    return 0;
}

/* Called by Xlib instead of exit() when the connection broke: the display is dead from now. */
static void io_exit(Display *dpy, void *arg)
{
    (void)dpy;
    ((struct x11_display *)arg)->broken = 1;
}

static void handlers_once(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    XSetErrorHandler(quiet_error);
    XSetIOErrorHandler(quiet_io_error);
}

/* XWD header (25 big-endian CARD32): the fields used below. */
enum { XWD_HEADER_SIZE = 0, XWD_DEPTH = 3, XWD_WIDTH = 4, XWD_HEIGHT = 5, XWD_BYTE_ORDER = 7,
       XWD_BPP = 11, XWD_BPL = 12, XWD_RED = 14, XWD_NCOLORS = 19, XWD_FIELDS = 25 };
#define XWD_COLOR_SIZE 12

static int map_fb(struct x11_display *d, const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || (size_t)st.st_size < XWD_FIELDS * 4) {
        snprintf(err, errlen, "%s: no framebuffer file", path);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        snprintf(err, errlen, "%s: cannot map the framebuffer", path);
        return -1;
    }
    d->map = m;
    d->map_len = (size_t)st.st_size;
    uint32_t h[XWD_FIELDS];
    for (int i = 0; i < XWD_FIELDS; i++)
        h[i] = ntohl(((const uint32_t *)m)[i]);
    size_t off = (size_t)h[XWD_HEADER_SIZE] + (size_t)h[XWD_NCOLORS] * XWD_COLOR_SIZE;
    if (h[XWD_BPP] != 32 || h[XWD_DEPTH] != 24 || h[XWD_BYTE_ORDER] != 0 || h[XWD_RED] != 0xff0000 ||
        off + (size_t)h[XWD_BPL] * h[XWD_HEIGHT] > d->map_len) {
        snprintf(err, errlen, "%s: framebuffer is not 24-bit BGRX (bpp %u, depth %u)", path,
                 h[XWD_BPP], h[XWD_DEPTH]);
        return -1;
    }
    d->view = (struct screen_view){ .pixels = d->map + off, .width = h[XWD_WIDTH],
                                    .height = h[XWD_HEIGHT], .stride = h[XWD_BPL],
                                    .bytes_per_pixel = 4 };
    return 0;
}

static KeyCode find_spare_keycode(Display *dpy)
{
    int min, max, per;
    XDisplayKeycodes(dpy, &min, &max);
    KeySym *syms = XGetKeyboardMapping(dpy, (KeyCode)min, max - min + 1, &per);
    KeyCode spare = 0;
    for (int k = max; syms && k >= min && !spare; k--) {
        int empty = 1;
        for (int j = 0; j < per; j++)
            empty &= syms[(k - min) * per + j] == NoSymbol;
        if (empty)
            spare = (KeyCode)k;
    }
    if (syms)
        XFree(syms);
    return spare;
}

struct x11_display *x11_display_open(const char *name, const char *fb_path, char *err, size_t errlen)
{
    int ev, er, maj, min;
    handlers_once();
    struct x11_display *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    if (!(d->dpy = XOpenDisplay(name))) {
        snprintf(err, errlen, "cannot open X display %s", name);
        goto fail;
    }
    XSetIOErrorExitHandler(d->dpy, io_exit, d);
    d->root = DefaultRootWindow(d->dpy);
    if (!XDamageQueryExtension(d->dpy, &d->damage_base, &er) ||
        !XTestQueryExtension(d->dpy, &ev, &er, &maj, &min)) {
        snprintf(err, errlen, "X display %s lacks DAMAGE or XTEST", name);
        goto fail;
    }
    if (map_fb(d, fb_path, err, errlen) != 0)
        goto fail;
    d->damage = XDamageCreate(d->dpy, d->root, XDamageReportRawRectangles);
    XSelectInput(d->dpy, d->root, SubstructureNotifyMask);
    d->spare = find_spare_keycode(d->dpy);
    XFlush(d->dpy);
    return d;
fail:
    x11_display_close(d);
    return NULL;
}

int x11_display_fd(const struct x11_display *d)
{
    return ConnectionNumber(d->dpy);
}

static void on_map(struct x11_display *d, Window w)
{
    if (d->ntop < (int)(sizeof d->top / sizeof d->top[0]))
        d->top[d->ntop++] = w;
}

int x11_display_pump(struct x11_display *d, struct rect *rects, size_t max, size_t *n, int *mapped)
{
    *n = 0;
    while (!d->broken && XEventsQueued(d->dpy, QueuedAfterReading) > 0) {
        XEvent e;
        XNextEvent(d->dpy, &e);
        if (e.type == d->damage_base + XDamageNotify) {
            const XDamageNotifyEvent *de = (const XDamageNotifyEvent *)&e;
            struct rect r = { de->area.x, de->area.y, de->area.width, de->area.height };
            if (r.w > 0 && r.h > 0)
                *n = screen_rects_add(rects, *n, max, &r, 1);
        } else if (e.type == MapNotify && e.xmap.event == d->root) {
            on_map(d, e.xmap.window);
            (*mapped)++;
        }
    }
    return d->broken ? -1 : 0;
}

int x11_display_pending(struct x11_display *d)
{
    return !d->broken && XQLength(d->dpy) > 0;
}

int x11_display_screen(struct x11_display *d, struct screen_view *out)
{
    if (!d->map)
        return -1;
    *out = d->view;
    return 0;
}

static int flush(struct x11_display *d)
{
    if (!d->broken)
        XFlush(d->dpy);
    return d->broken ? -1 : 0;
}

int x11_display_key(struct x11_display *d, unsigned keycode, int down)
{
    if (d->broken)
        return -1;
    if (keycode)
        XTestFakeKeyEvent(d->dpy, keycode, down ? True : False, CurrentTime);
    return flush(d);
}

/* A character the keymap lacks: bind it to the spare keycode, then press that. */
int x11_display_unicode(struct x11_display *d, uint16_t u, int down)
{
    if (d->broken)
        return -1;
    if (u >= 0xD800 && u < 0xDC00) {
        if (down)
            d->high = u;
        return 0;
    }
    uint32_t cp = u;
    if (u >= 0xDC00 && u < 0xE000 && d->high)
        cp = 0x10000 + (((uint32_t)d->high - 0xD800) << 10) + (u - 0xDC00);
    if (!down)
        d->high = 0;
    if (!d->spare)
        return 0;
    if (down) {
        KeySym sym = (KeySym)x11_keysym_of_codepoint(cp);
        XChangeKeyboardMapping(d->dpy, d->spare, 1, &sym, 1);
        XSync(d->dpy, False);
    }
    XTestFakeKeyEvent(d->dpy, d->spare, down ? True : False, CurrentTime);
    return flush(d);
}

int x11_display_pointer(struct x11_display *d, uint16_t flags, uint16_t x, uint16_t y)
{
    if (d->broken)
        return -1;
    XTestFakeMotionEvent(d->dpy, -1, x, y, CurrentTime);
    unsigned b = x11_button_of_flags(flags);
    if (b)
        XTestFakeButtonEvent(d->dpy, b, (flags & DRIVER_PTR_DOWN) ? True : False, CurrentTime);
    return flush(d);
}

int x11_display_expose(struct x11_display *d)
{
    if (d->broken)
        return -1;
    for (int i = 0; i < d->ntop; i++)
        XClearArea(d->dpy, d->top[i], 0, 0, 0, 0, True);
    return flush(d);
}

void x11_display_close(struct x11_display *d)
{
    if (!d)
        return;
    if (d->map)
        munmap((void *)d->map, d->map_len);
    if (d->dpy)
        XCloseDisplay(d->dpy);
    free(d);
}

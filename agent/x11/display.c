/* display.c -- one Xvfb seen from the agent: Xlib connection (with the session's cookie) with
 * XDamage and XTest, the damaged pixels (screen.h), windows mapped, input. */
#include "agent/x11/display.h"

#include <X11/Xlib.h>
#include <X11/extensions/Xdamage.h>
#include <X11/extensions/XTest.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/driver/screen.h"
#include "agent/x11/input.h"
#include "agent/x11/screen.h"
#include "common/log.h"

struct x11_display {
    Display *dpy;
    Window root;
    Damage damage;
    int damage_base, broken;
    struct x11_pixels *pixels;
    /* damage not yet read (pend), being read (flight: the read is their box), read and not yet
     * handed out (ready) */
    struct rect pend[SCREEN_MAX_RECTS], flight[SCREEN_MAX_RECTS], ready[SCREEN_MAX_RECTS];
    size_t npend, nflight, nready;
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

static int force_getimage;
/* XSetAuthorization is process-wide: each open sets its display's cookie, opens, clears it. */
static pthread_mutex_t auth_mu = PTHREAD_MUTEX_INITIALIZER;

int x11_display_init(void)
{
    static int done;
    if (done)
        return 0;
    done = 1;
    const char *px = getenv("SESSMAX_X11_PIXELS");
    force_getimage = px && !strcmp(px, "getimage");
    if (!XInitThreads())
        return -1;
    XSetErrorHandler(quiet_error);
    XSetIOErrorHandler(quiet_io_error);
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

static Display *open_with_cookie(const char *name, const uint8_t *cookie, size_t len)
{
    static char proto[] = "MIT-MAGIC-COOKIE-1";
    pthread_mutex_lock(&auth_mu);
    XSetAuthorization(proto, (int)strlen(proto), (char *)cookie, (int)len);
    Display *dpy = XOpenDisplay(name);
    XSetAuthorization(NULL, 0, NULL, 0);
    pthread_mutex_unlock(&auth_mu);
    return dpy;
}

struct x11_display *x11_display_open(const char *name, const uint8_t *cookie, size_t cookie_len,
                                     char *err, size_t errlen)
{
    int ev, er, maj, min;
    struct x11_display *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    if (!(d->dpy = open_with_cookie(name, cookie, cookie_len))) {
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
    if (!(d->pixels = x11_pixels_new(d->dpy, force_getimage, err, errlen)))
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

/* The bounding box of rects[0..n-1] (n > 0). */
static struct rect bounds(const struct rect *rects, size_t n)
{
    struct rect b = rects[0];
    for (size_t i = 1; i < n; i++) {
        int32_t x1 = b.x + b.w > rects[i].x + rects[i].w ? b.x + b.w : rects[i].x + rects[i].w;
        int32_t y1 = b.y + b.h > rects[i].y + rects[i].h ? b.y + b.h : rects[i].y + rects[i].h;
        b.x = b.x < rects[i].x ? b.x : rects[i].x;
        b.y = b.y < rects[i].y ? b.y : rects[i].y;
        b.w = x1 - b.x;
        b.h = y1 - b.y;
    }
    return b;
}

/* The read in flight, if its reply has come: its damage becomes ready. 1 done, 0 not (or no
 * read in flight), -1 broken. Taking the reply may read the socket: events read with it wait in
 * XCB's queue until the next pump, which the reply's own arrival on the fd will bring. */
static int complete(struct x11_display *d)
{
    int rc = x11_pixels_poll(d->pixels);
    if (rc < 0)
        d->broken = 1;
    if (rc == 1) {
        d->nready = screen_rects_add(d->ready, d->nready, SCREEN_MAX_RECTS, d->flight, d->nflight);
        d->nflight = 0;
    }
    return rc;
}

/* The damage that came meanwhile is read next: damage reported while a read was on its way is
 * read again by the following one, so no change is missed and none is handed out before its
 * pixels are in the copy. */
static void request_next(struct x11_display *d)
{
    if (d->broken || x11_pixels_busy(d->pixels) || !d->npend)
        return;
    struct rect b = bounds(d->pend, d->npend);
    if (x11_pixels_request(d->pixels, &b) != 0) {
        d->broken = 1;
        return;
    }
    memcpy(d->flight, d->pend, d->npend * sizeof d->pend[0]);
    d->nflight = d->npend;
    d->npend = 0;
}

/* Everything Xlib can read now: damage to pend, windows mapped. */
static void drain(struct x11_display *d, int *mapped)
{
    while (!d->broken && XEventsQueued(d->dpy, QueuedAfterReading) > 0) {
        XEvent e;
        XNextEvent(d->dpy, &e);
        if (e.type == d->damage_base + XDamageNotify) {
            const XDamageNotifyEvent *de = (const XDamageNotifyEvent *)&e;
            struct rect r = { de->area.x, de->area.y, de->area.width, de->area.height };
            if (r.w > 0 && r.h > 0)
                d->npend = screen_rects_add(d->pend, d->npend, SCREEN_MAX_RECTS, &r, 1);
        } else if (e.type == MapNotify && e.xmap.event == d->root) {
            on_map(d, e.xmap.window);
            (*mapped)++;
        }
    }
}

int x11_display_pump(struct x11_display *d, struct rect *rects, size_t max, size_t *n, int *mapped)
{
    int rc;
    *n = 0;
    do {
        drain(d, mapped);
        rc = d->broken ? -1 : complete(d);
        request_next(d);
    } while (rc == 1);
    if (d->broken)
        return -1;
    *n = screen_rects_add(rects, 0, max, d->ready, d->nready);
    d->nready = 0;
    return 0;
}

int x11_display_pending(struct x11_display *d)
{
    return !d->broken && (XQLength(d->dpy) > 0 || d->nready || complete(d) == 1);
}

int x11_display_screen(struct x11_display *d, struct screen_view *out)
{
    if (!d->pixels)
        return -1;
    *out = *x11_pixels_view(d->pixels);
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
    x11_pixels_free(d->pixels, d->dpy && !d->broken);
    if (d->dpy)
        XCloseDisplay(d->dpy);
    free(d);
}

const char *x11_display_pixels_method(const struct x11_display *d)
{
    return x11_pixels_method(d->pixels);
}

/* screen.c -- reading an X screen's pixels into the agent, asynchronously: MIT-SHM, else
 * GetImage, both sent through the XCB connection under Xlib so that their replies can be taken
 * without waiting (Xlib has no public way to do that). */
#include "agent/x11/screen.h"

#include <X11/Xlib-xcb.h>
#include <X11/extensions/XShm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>     /* xcb_poll_for_reply: a reply taken without waiting */

struct x11_pixels {
    Display *dpy;
    xcb_connection_t *xc;
    Window root;
    unsigned width, height;
    int shm_attached;
    XShmSegmentInfo shm;         /* the segment holds the region read, packed (w * 4 a row) */
    uint8_t *copy;               /* width * height * 4, what the interpreter reads */
    struct screen_view view;
    /* the read in flight */
    int busy, empty;             /* empty: nothing sent (region off screen), done at next poll */
    unsigned seq;
    int x0, y0;
    unsigned w, h;
};

/* 24-bit TrueColor stored as 32 bits a pixel, least significant byte first: BGRX. */
static int format_ok(Display *dpy, const Visual *v)
{
    int n = 0, bpp = 0;
    XPixmapFormatValues *f = XListPixmapFormats(dpy, &n);
    for (int i = 0; f && i < n; i++)
        if (f[i].depth == 24)
            bpp = f[i].bits_per_pixel;
    if (f)
        XFree(f);
    return bpp == 32 && ImageByteOrder(dpy) == LSBFirst && v->red_mask == 0xff0000 &&
           v->green_mask == 0xff00 && v->blue_mask == 0xff;
}

/* A shared segment the size of the screen, attached on both sides; 0, or -1 (no MIT-SHM). */
static int shm_setup(struct x11_pixels *p)
{
    if (!XShmQueryExtension(p->dpy))
        return -1;
    p->shm.shmid = shmget(IPC_PRIVATE, (size_t)p->width * p->height * 4, IPC_CREAT | 0600);
    if (p->shm.shmid < 0)
        return -1;
    p->shm.shmaddr = shmat(p->shm.shmid, NULL, 0);
    shmctl(p->shm.shmid, IPC_RMID, NULL);       /* goes when both sides detach */
    if (p->shm.shmaddr == (char *)-1) {
        p->shm.shmaddr = NULL;
        return -1;
    }
    p->shm.readOnly = False;
    if (!XShmAttach(p->dpy, &p->shm))
        return -1;
    XSync(p->dpy, False);
    p->shm_attached = 1;
    return 0;
}

static void shm_release(struct x11_pixels *p, int alive)
{
    if (p->shm_attached && alive) {
        XShmDetach(p->dpy, &p->shm);
        XSync(p->dpy, False);
    }
    p->shm_attached = 0;
    if (p->shm.shmaddr)
        shmdt(p->shm.shmaddr);
    p->shm.shmaddr = NULL;
}

/* Rows of the region (packed, src_stride bytes a row) to their place in the copy. */
static void place(struct x11_pixels *p, const uint8_t *src, size_t src_stride)
{
    for (unsigned row = 0; row < p->h; row++)
        memcpy(p->copy + ((size_t)(p->y0 + (int)row) * p->width + (size_t)p->x0) * 4,
               src + (size_t)row * src_stride, (size_t)p->w * 4);
}

/* The reply of the read in flight into the copy: 0, or -1 when it does not hold the region. */
static int take(struct x11_pixels *p, void *reply)
{
    if (p->shm_attached) {
        const xcb_shm_get_image_reply_t *r = reply;
        if (r->depth != 24 || r->size < (uint32_t)p->w * p->h * 4)
            return -1;
        place(p, (const uint8_t *)p->shm.shmaddr, (size_t)p->w * 4);
        return 0;
    }
    xcb_get_image_reply_t *r = reply;
    if (r->depth != 24 || (size_t)xcb_get_image_data_length(r) < (size_t)p->w * p->h * 4)
        return -1;
    place(p, xcb_get_image_data(r), (size_t)p->w * 4);
    return 0;
}

/* 1 done, -1 error; the reply (or error) has been taken either way. */
static int finish(struct x11_pixels *p, void *reply, xcb_generic_error_t *e)
{
    int rc = reply && !e && take(p, reply) == 0 ? 1 : -1;
    free(reply);
    free(e);
    p->busy = 0;
    return rc;
}

int x11_pixels_request(struct x11_pixels *p, const struct rect *r)
{
    if (p->busy || xcb_connection_has_error(p->xc))
        return -1;
    int x0 = r->x < 0 ? 0 : r->x, y0 = r->y < 0 ? 0 : r->y;
    int x1 = r->x + r->w > (int)p->width ? (int)p->width : r->x + r->w;
    int y1 = r->y + r->h > (int)p->height ? (int)p->height : r->y + r->h;
    p->busy = 1;
    p->empty = x1 <= x0 || y1 <= y0;
    if (p->empty)
        return 0;
    p->x0 = x0;
    p->y0 = y0;
    p->w = (unsigned)(x1 - x0);
    p->h = (unsigned)(y1 - y0);
    if (p->shm_attached)
        p->seq = xcb_shm_get_image(p->xc, (xcb_drawable_t)p->root, (int16_t)x0, (int16_t)y0,
                                   (uint16_t)p->w, (uint16_t)p->h, UINT32_MAX,
                                   XCB_IMAGE_FORMAT_Z_PIXMAP, (xcb_shm_seg_t)p->shm.shmseg, 0)
                     .sequence;
    else
        p->seq = xcb_get_image(p->xc, XCB_IMAGE_FORMAT_Z_PIXMAP, (xcb_drawable_t)p->root,
                               (int16_t)x0, (int16_t)y0, (uint16_t)p->w, (uint16_t)p->h,
                               UINT32_MAX).sequence;
    return xcb_flush(p->xc) > 0 ? 0 : -1;
}

int x11_pixels_busy(const struct x11_pixels *p)
{
    return p->busy;
}

int x11_pixels_poll(struct x11_pixels *p)
{
    void *reply = NULL;
    xcb_generic_error_t *e = NULL;
    if (!p->busy)
        return 0;
    if (p->empty) {
        p->busy = 0;
        return 1;
    }
    if (!xcb_poll_for_reply(p->xc, p->seq, &reply, &e))
        return xcb_connection_has_error(p->xc) ? (p->busy = 0, -1) : 0;
    return finish(p, reply, e);
}

/* The first read: sent, then waited for. 0 or -1. */
static int read_all(struct x11_pixels *p)
{
    struct rect all = { 0, 0, (int32_t)p->width, (int32_t)p->height };
    xcb_generic_error_t *e = NULL;
    if (x11_pixels_request(p, &all) != 0)
        return -1;
    return finish(p, xcb_wait_for_reply(p->xc, p->seq, &e), e) == 1 ? 0 : -1;
}

struct x11_pixels *x11_pixels_new(Display *dpy, int force_getimage, char *err, size_t errlen)
{
    struct x11_pixels *p = calloc(1, sizeof *p);
    int scr = DefaultScreen(dpy), depth = DefaultDepth(dpy, scr);
    if (!p)
        return NULL;
    p->dpy = dpy;
    p->xc = XGetXCBConnection(dpy);
    p->root = RootWindow(dpy, scr);
    p->width = (unsigned)DisplayWidth(dpy, scr);
    p->height = (unsigned)DisplayHeight(dpy, scr);
    p->copy = calloc((size_t)p->width * p->height, 4);
    if (!p->copy || depth != 24 || !format_ok(dpy, DefaultVisual(dpy, scr))) {
        snprintf(err, errlen, "X screen: depth %d, not 24-bit TrueColor in 32 bits", depth);
        goto fail;
    }
    p->view = (struct screen_view){ .pixels = p->copy, .width = p->width, .height = p->height,
                                    .stride = p->width * 4, .bytes_per_pixel = 4 };
    if (!force_getimage && shm_setup(p) == 0 && read_all(p) == 0)
        return p;
    shm_release(p, 1);                           /* GetImage: the pixels on the socket */
    if (read_all(p) != 0) {
        snprintf(err, errlen, "X screen: cannot read its pixels (GetImage)");
        goto fail;
    }
    return p;
fail:
    x11_pixels_free(p, 1);
    return NULL;
}

const char *x11_pixels_method(const struct x11_pixels *p)
{
    return p->shm_attached ? "MIT-SHM" : "XGetImage";
}

const struct screen_view *x11_pixels_view(const struct x11_pixels *p)
{
    return &p->view;
}

void x11_pixels_free(struct x11_pixels *p, int alive)
{
    if (!p)
        return;
    if (p->busy && !p->empty && alive)
        xcb_discard_reply(p->xc, p->seq);
    shm_release(p, alive);
    free(p->copy);
    free(p);
}

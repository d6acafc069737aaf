/* x11_pixels.c -- reading an X screen's pixels into the agent: MIT-SHM, else XGetImage. */
#include "agent/x11_pixels.h"

#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>

struct x11_pixels {
    Display *dpy;
    Window root;
    Visual *visual;
    unsigned width, height;
    int shm_attached;
    XShmSegmentInfo shm;
    XImage *img;                 /* shm: over the segment (resized per read); else over copy */
    uint8_t *copy;               /* width * height * 4, what the interpreter reads */
    struct screen_view view;
};

/* A shared segment the size of the screen, attached on both sides; 0, or -1 (no MIT-SHM). */
static int shm_setup(struct x11_pixels *p, int depth)
{
    if (!XShmQueryExtension(p->dpy))
        return -1;
    p->img = XShmCreateImage(p->dpy, p->visual, (unsigned)depth, ZPixmap, NULL, &p->shm,
                             p->width, p->height);
    if (!p->img)
        return -1;
    p->shm.shmid = shmget(IPC_PRIVATE, (size_t)p->img->bytes_per_line * p->height, IPC_CREAT | 0600);
    if (p->shm.shmid < 0)
        return -1;
    p->shm.shmaddr = p->img->data = shmat(p->shm.shmid, NULL, 0);
    shmctl(p->shm.shmid, IPC_RMID, NULL);       /* goes when both sides detach */
    if (p->shm.shmaddr == (char *)-1) {
        p->shm.shmaddr = p->img->data = NULL;
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
    if (p->img) {
        p->img->data = NULL;
        XDestroyImage(p->img);
        p->img = NULL;
    }
}

static int format_ok(const XImage *img)
{
    return img->bits_per_pixel == 32 && img->byte_order == LSBFirst && img->red_mask == 0xff0000 &&
           img->green_mask == 0xff00 && img->blue_mask == 0xff;
}

struct x11_pixels *x11_pixels_new(Display *dpy, int force_getimage, char *err, size_t errlen)
{
    struct x11_pixels *p = calloc(1, sizeof *p);
    int scr = DefaultScreen(dpy), depth = DefaultDepth(dpy, scr);
    if (!p)
        return NULL;
    p->dpy = dpy;
    p->root = RootWindow(dpy, scr);
    p->visual = DefaultVisual(dpy, scr);
    p->width = (unsigned)DisplayWidth(dpy, scr);
    p->height = (unsigned)DisplayHeight(dpy, scr);
    p->copy = calloc((size_t)p->width * p->height, 4);
    if (!p->copy || depth != 24) {
        snprintf(err, errlen, "X screen: depth %d, not 24-bit TrueColor", depth);
        goto fail;
    }
    p->view = (struct screen_view){ .pixels = p->copy, .width = p->width, .height = p->height,
                                    .stride = p->width * 4, .bytes_per_pixel = 4 };
    struct rect all = { 0, 0, (int32_t)p->width, (int32_t)p->height };
    if (!force_getimage && shm_setup(p, depth) == 0 && format_ok(p->img) &&
        x11_pixels_fetch(p, &all) == 0)
        return p;
    shm_release(p, 1);                           /* XGetImage into the copy itself */
    p->img = XCreateImage(dpy, p->visual, (unsigned)depth, ZPixmap, 0, (char *)p->copy,
                          p->width, p->height, 32, (int)p->width * 4);
    if (!p->img || !format_ok(p->img) || x11_pixels_fetch(p, &all) != 0) {
        snprintf(err, errlen, "X screen: cannot read its pixels (XGetImage)");
        goto fail;
    }
    return p;
fail:
    x11_pixels_free(p, 1);
    return NULL;
}

int x11_pixels_fetch(struct x11_pixels *p, const struct rect *r)
{
    int x0 = r->x < 0 ? 0 : r->x, y0 = r->y < 0 ? 0 : r->y;
    int x1 = r->x + r->w > (int)p->width ? (int)p->width : r->x + r->w;
    int y1 = r->y + r->h > (int)p->height ? (int)p->height : r->y + r->h;
    if (x1 <= x0 || y1 <= y0)
        return 0;
    unsigned w = (unsigned)(x1 - x0), h = (unsigned)(y1 - y0);
    if (!p->shm_attached)
        return XGetSubImage(p->dpy, p->root, x0, y0, w, h, AllPlanes, ZPixmap, p->img, x0, y0)
               ? 0 : -1;
    /* the segment holds the region packed (w * 4 bytes a row); rows go to their place in copy */
    p->img->width = (int)w;
    p->img->height = (int)h;
    p->img->bytes_per_line = (int)w * 4;
    if (!XShmGetImage(p->dpy, p->root, p->img, x0, y0, AllPlanes))
        return -1;
    for (unsigned row = 0; row < h; row++)
        memcpy(p->copy + ((size_t)(y0 + (int)row) * p->width + (size_t)x0) * 4,
               p->shm.shmaddr + (size_t)row * w * 4, (size_t)w * 4);
    return 0;
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
    shm_release(p, alive);
    if (p->img) {                                /* XGetImage's: the data is copy */
        p->img->data = NULL;
        XDestroyImage(p->img);
    }
    free(p->copy);
    free(p);
}

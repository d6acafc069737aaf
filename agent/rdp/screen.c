/* screen.c -- the RDP session's screen (screen.h): FreeRDP's gdi on a zeroed framebuffer of our
 * own, the damage of every paint handed to the interpreter (a server-marked frame as a whole), and
 * views and PNGs of it. The callbacks run on the connect worker during freerdp_connect() and on the
 * loop thread afterwards, never on both at once (the hand-over goes through the connector's
 * mutex). */
#include "agent/rdp/screen.h"

#include <stdlib.h>

#include <freerdp/codec/color.h>
#include <freerdp/gdi/gdi.h>

#include "agent/driver/screen.h"
#include "agent/interp/interp.h"
#include "agent/rdp/state.h"
#include "common/clock.h"
#include "common/log.h"

static int clip(const GDI_RGN *r, uint32_t width, uint32_t height, struct rect *out)
{
    int64_t x0 = r->x < 0 ? 0 : r->x, y0 = r->y < 0 ? 0 : r->y;
    int64_t x1 = (int64_t)r->x + r->w, y1 = (int64_t)r->y + r->h;
    if (x1 > width)
        x1 = width;
    if (y1 > height)
        y1 = height;
    if (x1 <= x0 || y1 <= y0)
        return 0;
    *out = (struct rect){ (int32_t)x0, (int32_t)y0, (int32_t)(x1 - x0), (int32_t)(y1 - y0) };
    return 1;
}

size_t rdp_screen_take_damage(HGDI_WND hwnd, uint32_t width, uint32_t height, struct rect *out,
                          size_t max)
{
    size_t n = 0;
    if (!hwnd)
        return 0;
    for (int32_t i = 0; hwnd->cinvalid && i < hwnd->ninvalid && max > 0; i++) {
        struct rect r;
        if (!clip(&hwnd->cinvalid[i], width, height, &r))
            continue;
        n = screen_rects_add(out, n, max, &r, 1);
    }
    if (hwnd->invalid)
        hwnd->invalid->null = TRUE;
    hwnd->ninvalid = 0;
    return n;
}

int rdp_screen_view_of(const rdpGdi *gdi, struct screen_view *out)
{
    if (!gdi || !gdi->primary_buffer)
        return -1;
    uint32_t bpp = GetBytesPerPixel(gdi->dstFormat);
    if (gdi->dstFormat != PIXEL_FORMAT_RGB16 && gdi->dstFormat != PIXEL_FORMAT_BGRX32)
        return -1;
    *out = (struct screen_view){ gdi->primary_buffer, gdi->width, gdi->height, gdi->stride, bpp };
    return 0;
}


static void deliver_paint(struct rdp_session *s, const struct rect *rects, size_t n)
{
    if (s->l.interp && (s->l.state == SESSION_ST_LOGON || s->l.state == SESSION_ST_RUNNING ||
                      s->l.state == SESSION_ST_LOGOFF))
        interp_on_paint(s->l.interp, rects, n);
    if (s->l.state == SESSION_ST_RUNNING)
        session_life_tap(&s->l, rects, n);
}

/* A frame whose end never came (a server bug) is delivered after this long anyway. */
#define SESSION_FRAME_MAX_US 500000

/* Every paint goes to the interpreter, except inside a frame the server marked (Surface Frame
 * Marker BEGIN..END): those are collected and handed over at the frame's end, so a condition is
 * only ever judged on a complete frame and a timer never stops mid-frame. */
static BOOL end_paint_cb(rdpContext *ctx)
{
    struct rdp_session *s = sess_of(ctx);
    rdpGdi *gdi = ctx->gdi;
    struct rect rects[SCREEN_MAX_RECTS];
    if (!gdi || !gdi->primary || !gdi->primary->hdc)
        return TRUE;
    if (!s) {                                   /* detached: being torn down */
        rdp_screen_take_damage(gdi->primary->hdc->hwnd, gdi->width, gdi->height, rects, 0);
        return TRUE;
    }
    size_t n = rdp_screen_take_damage(gdi->primary->hdc->hwnd, gdi->width, gdi->height, rects,
                                  SCREEN_MAX_RECTS);
    s->frames++;
    if (!s->marks.paint_us)
        logon_marks_paint(&s->marks, clock_now_us());
    if (s->in_frame && clock_now_us() - s->frame_begin_us < SESSION_FRAME_MAX_US) {
        s->nframe_rects = screen_rects_add(s->frame_rects, s->nframe_rects, SCREEN_MAX_RECTS, rects, n);
        return TRUE;
    }
    deliver_paint(s, rects, n);
    return TRUE;
}

static BOOL frame_marker_cb(rdpContext *ctx, const SURFACE_FRAME_MARKER *m)
{
    struct session_ctx *c = (struct session_ctx *)ctx;
    struct rdp_session *s = c->s;
    if (s && m->frameAction == SURFACECMD_FRAMEACTION_BEGIN) {
        s->in_frame = 1;
        s->frame_begin_us = clock_now_us();
    } else if (s && m->frameAction == SURFACECMD_FRAMEACTION_END && s->in_frame) {
        size_t n = s->nframe_rects;
        s->in_frame = 0;
        s->nframe_rects = 0;
        if (n)
            deliver_paint(s, s->frame_rects, n);
    }
    return c->gdi_frame_marker ? c->gdi_frame_marker(ctx, m) : TRUE;
}

/* A zeroed framebuffer of our own: gdi_init's is uninitialised, and conditions hash whatever
 * the server has not painted yet. calloc'd pages stay untouched (no RSS) until painted. */
static BYTE *zeroed_framebuffer(rdpSettings *st, uint32_t format, uint32_t *stride)
{
    *stride = st->DesktopWidth * GetBytesPerPixel(format);
    return calloc((size_t)st->DesktopHeight ? st->DesktopHeight : 1, *stride ? *stride : 1);
}

static BOOL desktop_resize_cb(rdpContext *ctx)
{
    uint32_t stride, format = ctx->gdi->dstFormat;
    uint32_t w = ctx->settings->DesktopWidth, h = ctx->settings->DesktopHeight;
    BYTE *fb = zeroed_framebuffer(ctx->settings, format, &stride);
    if (!fb)
        return FALSE;
    return gdi_resize_ex(ctx->gdi, w, h, stride, format, fb, free);
}

BOOL rdp_screen_attach(freerdp *inst, uint32_t format)
{
    uint32_t stride;
    BYTE *fb = zeroed_framebuffer(inst->settings, format, &stride);
    if (!fb)
        return FALSE;
    if (!gdi_init_ex(inst, format, stride, fb, free))
        return FALSE;   /* fb may have been adopted and freed by gdi_free: not ours any more */
    inst->update->EndPaint = end_paint_cb;
    ((struct session_ctx *)inst->context)->gdi_frame_marker = inst->update->SurfaceFrameMarker;
    inst->update->SurfaceFrameMarker = frame_marker_cb;
    inst->update->DesktopResize = desktop_resize_cb;
    return TRUE;
}

int rdp_screen_view(const struct rdp_session *s, struct screen_view *out)
{
    if (!s->inst || !s->inst->context)
        return -1;
    return rdp_screen_view_of(s->inst->context->gdi, out);
}

int rdp_screen_save_png(const struct rdp_session *s, const char *path)
{
    struct screen_view v;
    if (rdp_screen_view(s, &v) != 0) {
        log_warn("session %u: no screen to save to %s", s->l.index, path);
        return -1;
    }
    return screen_write_png(&v, path);
}

/* session_rdp.c -- the session's FreeRDP side (contract: session_rdp.h): what FreeRDP calls
 * back during and after a connect, and the input the interpreter sends through FreeRDP. The
 * session's life (states, connect attempts, teardown) is in session.c. */
#include "agent/rdp/session_rdp.h"

#include <stdlib.h>

#include <freerdp/codec/color.h>
#include <freerdp/codecs.h>
#include <freerdp/freerdp.h>
#include <freerdp/gdi/gdi.h>
#include <freerdp/input.h>
#include <freerdp/session.h>

#include "agent/rdp/drives.h"
#include "agent/interp/interp.h"
#include "agent/engine/loopwatch.h"
#include "agent/rdp/settings.h"
#include "compat/rdpdr_logon_order.h"
#include "agent/driver/screen.h"
#include "agent/rdp/session_int.h"
#include "common/clock.h"
#include "common/log.h"

/* ---------------------------------------------------------------- FreeRDP callbacks
 * These run on the connect worker during freerdp_connect() and on the loop thread afterwards,
 * never on both at once (the hand-over goes through the connector's mutex). */

static void deliver_paint(struct session *s, const struct rect *rects, size_t n)
{
    if (s->l.interp && (s->l.state == SESSION_ST_LOGON || s->l.state == SESSION_ST_RUNNING ||
                      s->l.state == SESSION_ST_LOGOFF))
        interp_on_paint(s->l.interp, rects, n);
}

/* A frame whose end never came (a server bug) is delivered after this long anyway. */
#define SESSION_FRAME_MAX_US 500000

/* Every paint goes to the interpreter, except inside a frame the server marked (Surface Frame
 * Marker BEGIN..END): those are collected and handed over at the frame's end, so a condition is
 * only ever judged on a complete frame and a timer never stops mid-frame. */
static BOOL end_paint_cb(rdpContext *ctx)
{
    struct session *s = sess_of(ctx);
    rdpGdi *gdi = ctx->gdi;
    struct rect rects[SCREEN_MAX_RECTS];
    if (!gdi || !gdi->primary || !gdi->primary->hdc)
        return TRUE;
    if (!s) {                                   /* detached: being torn down */
        screen_take_damage(gdi->primary->hdc->hwnd, gdi->width, gdi->height, rects, 0);
        return TRUE;
    }
    size_t n = screen_take_damage(gdi->primary->hdc->hwnd, gdi->width, gdi->height, rects,
                                  SCREEN_MAX_RECTS);
    s->frames++;
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
    struct session *s = c->s;
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

static BOOL save_session_info_cb(rdpContext *ctx, UINT32 type, void *data)
{
    struct session *s = sess_of(ctx);
    if (s && type == INFO_TYPE_LOGON_EXTENDED_INF && data) {
        const logon_info_ex *ex = data;
        if (ex->haveErrorInfo) {
            s->facts.have_logon_error = 1;
            s->facts.logon_error_type = ex->ErrorNotificationType;
            s->facts.logon_error_data = ex->ErrorNotificationData;
        }
    }
    return TRUE;
}

static BOOL post_connect_cb(freerdp *inst)
{
    struct session *s = sess_of(inst->context);
    uint32_t stride, format = rdp_settings_pixel_format(s->l.h->cfg);
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

static BOOL pre_connect_cb(freerdp *inst)
{
    struct session *s = sess_of(inst->context);
    inst->update->SaveSessionInfo = save_session_info_cb;
    if (s && s->drive_dir[0] && drives_pre_connect(inst) != 0)
        return FALSE;
    return TRUE;
}

/* Never 1 (that would write known_hosts2, shared by hundreds of sessions): a certificate that
 * reached this callback failed the pin, so it is refused. */
static DWORD verify_cert_cb(freerdp *inst, const char *host, UINT16 port, const char *cn,
                            const char *subject, const char *issuer, const char *fp, DWORD flags)
{
    (void)host; (void)port; (void)cn; (void)subject; (void)issuer; (void)flags;
    struct session *s = sess_of(inst->context);
    if (!s)
        return 0;
    s->facts.cert_rejected = 1;
    log_ratelimited(LOG_WARN, "cert", "%s:%u: certificate sha256:%s not accepted (pin it with "
                    "--fingerprint, or --no-verify)", s->l.h->cfg->host, (unsigned)s->l.h->cfg->port,
                    fp ? fp : "?");
    return 0;
}

static DWORD verify_changed_cert_cb(freerdp *inst, const char *host, UINT16 port, const char *cn,
                                    const char *subject, const char *issuer, const char *fp,
                                    const char *old_subject, const char *old_issuer,
                                    const char *old_fp, DWORD flags)
{
    (void)old_subject; (void)old_issuer; (void)old_fp;
    return verify_cert_cb(inst, host, port, cn, subject, issuer, fp, flags);
}

static BOOL authenticate_cb(freerdp *inst, char **user, char **password, char **domain)
{
    (void)inst; (void)user; (void)password; (void)domain;
    return FALSE;   /* never prompt */
}

void session_rdp_hook(freerdp *inst)
{
    inst->ContextSize = sizeof(struct session_ctx);
    inst->PreConnect = pre_connect_cb;
    inst->PostConnect = post_connect_cb;
    inst->VerifyCertificateEx = verify_cert_cb;
    inst->VerifyChangedCertificateEx = verify_changed_cert_cb;
    inst->Authenticate = authenticate_cb;
}

void session_rdp_free_instance(freerdp *inst, int connected)
{
    if (!inst)
        return;
    if (connected)
        freerdp_disconnect(inst);
    rdpdr_fix_forget(inst);
    gdi_free(inst);
    freerdp_context_free(inst);
    freerdp_free(inst);
}

/* ---------------------------------------------------------------- driver ops (interp -> us) */

static int live(const struct session *s)
{
    return s->inst && !s->l.finish_pending &&
           (s->l.state == SESSION_ST_LOGON || s->l.state == SESSION_ST_RUNNING ||
            s->l.state == SESSION_ST_LOGOFF);
}

/* An input event went out (ok) or not; the send is watched for loop stalls. */
static int sent(const struct session *s, BOOL ok, const struct loopwatch_mark *m)
{
    loopwatch_end(m, "sending input", s->l.index);
    return ok ? 0 : -1;
}

static int op_key(void *sess, uint32_t code, int down)
{
    struct session *s = sess;
    struct loopwatch_mark m;
    if (!live(s))
        return -1;
    loopwatch_begin(&m);
    return sent(s, freerdp_input_send_keyboard_event_ex(s->inst->input, down ? TRUE : FALSE, code), &m);
}

static int op_unicode(void *sess, uint16_t c, int down)
{
    struct session *s = sess;
    struct loopwatch_mark m;
    if (!live(s))
        return -1;
    loopwatch_begin(&m);
    return sent(s, freerdp_input_send_unicode_keyboard_event(s->inst->input, down ? 0 : KBD_FLAGS_RELEASE, c), &m);
}

static int op_mouse(void *sess, uint16_t flags, uint16_t x, uint16_t y)
{
    struct session *s = sess;
    struct loopwatch_mark m;
    if (!live(s))
        return -1;
    loopwatch_begin(&m);
    return sent(s, freerdp_input_send_mouse_event(s->inst->input, flags, x, y), &m);
}

static int op_screen(void *sess, struct screen_view *out)
{
    struct session *s = sess;
    if (!s->inst)
        return -1;
    return screen_view_of(s->inst->context->gdi, out);
}

static int op_save_png(void *sess, const char *path)
{
    return session_save_png(sess, path);
}

/* What a real client does when its window shows again: Suppress Output "allow" for the whole
 * desktop, then Refresh Rect for it. */
static int op_refresh(void *sess)
{
    struct session *s = sess;
    if (!live(s))
        return -1;
    rdpSettings *st = s->inst->settings;
    RECTANGLE_16 all = { 0, 0, (UINT16)(st->DesktopWidth - 1), (UINT16)(st->DesktopHeight - 1) };
    rdpUpdate *u = s->inst->update;
    BOOL ok = TRUE;
    if (u->SuppressOutput)
        ok &= u->SuppressOutput(s->inst->context, 1, &all);
    if (u->RefreshRect)
        ok &= u->RefreshRect(s->inst->context, 1, &all);
    log_debug("session %u (%s): no paint during logon, asked for a repaint", s->l.index, s->l.user);
    return ok ? 0 : -1;
}

/* The driver contract spells RDP's values out (driver.h); they must be FreeRDP's. */
_Static_assert(DRIVER_PTR_MOVE == PTR_FLAGS_MOVE && DRIVER_PTR_DOWN == PTR_FLAGS_DOWN &&
               DRIVER_PTR_BUTTON1 == PTR_FLAGS_BUTTON1 && DRIVER_PTR_BUTTON2 == PTR_FLAGS_BUTTON2 &&
               DRIVER_PTR_BUTTON3 == PTR_FLAGS_BUTTON3 && DRIVER_KEY_EXTENDED == KBDEXT,
               "driver.h values differ from FreeRDP's");

const struct driver_ops session_rdp_driver = {
    .key = op_key, .unicode = op_unicode, .mouse = op_mouse,
    .screen = op_screen, .save_png = op_save_png, .refresh = op_refresh,
};

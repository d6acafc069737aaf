/* session.c -- one simulated user's life: connect attempts on the connector, then FreeRDP's
 * event handles on the loop, paints to the interpreter, input from it, and exactly one terminal
 * record. The state diagram and invariants are in session.h. */
#include "agent/session.h"

#include <errno.h>
#include <event2/event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <freerdp/codec/color.h>
#include <freerdp/codecs.h>
#include <freerdp/freerdp.h>
#include <freerdp/gdi/gdi.h>
#include <freerdp/input.h>
#include <freerdp/session.h>
#include <winpr/synch.h>

#include "agent/connector.h"
#include "agent/drives.h"
#include "agent/rdpdr_fix.h"
#include "agent/failure.h"
#include "agent/interp.h"
#include "agent/netem.h"
#include "agent/netstats.h"
#include "agent/rdp_settings.h"
#include "agent/screen.h"
#include "common/clock.h"
#include "common/log.h"

#define SESSION_MAX_HANDLES 8

struct session {
    const struct session_host *h;
    enum session_state state;
    uint32_t index;
    char user[RESULTS_NAME_LEN];
    char *password;                       /* wiped once connect attempts are over */
    const struct workload *wl;
    uint64_t seed;

    struct connector_job job;             /* the current connect attempt */
    uint32_t attempts;
    freerdp *inst;                        /* connected instance (or the attempt's, on a worker) */
    struct failure_facts facts;           /* filled by callbacks (worker, then loop) */
    uint64_t t0_us;                       /* start of the successful attempt */
    uint64_t launched_us;                 /* session_start() */

    struct event *ev[SESSION_MAX_HANDLES];
    int nev;
    int sock_fd;
    struct interp *interp;
    struct event *traffic_ev, *retry_ev, *finish_ev;
    uint32_t frames;
    int logoff_requested;
    uint32_t logon_retries;               /* fresh connections after logon timeouts */

    /* paints of a server-marked frame, handed to the interpreter at its end */
    int in_frame;
    uint64_t frame_begin_us;
    struct rect frame_rects[SCREEN_MAX_RECTS];
    size_t nframe_rects;

    /* deferred end (finish_cb) */
    int finish_pending;
    enum failure_reason finish_reason;
    char finish_detail[RESULTS_DETAIL_LEN];
    enum failure_reason final_reason;
    char drive_dir[4096];                 /* the session's client drives ("" without drives:) */
};

/* FreeRDP context extension. THE PARENT CONTEXT MUST BE THE FIRST ELEMENT. */
struct session_ctx {
    rdpContext _p;
    struct session *s;
    pSurfaceFrameMarker gdi_frame_marker;  /* gdi's own (sends the frame acknowledge) */
};

static struct session *sess_of(rdpContext *ctx) { return ((struct session_ctx *)ctx)->s; }

/* ---------------------------------------------------------------- records */

static void emit(struct session *s, enum session_event_kind kind, int64_t value_us,
                 enum failure_reason reason, const char *detail)
{
    struct rec_session r = { .session = s->index, .t_us = clock_wall_us(), .kind = kind,
                             .value_us = value_us, .reason = reason };
    snprintf(r.user, sizeof r.user, "%s", s->user);
    if (detail)
        snprintf(r.detail, sizeof r.detail, "%s", detail);
    if (s->h->sink->session)
        s->h->sink->session(s->h->sink->ctx, &r);
}

static void wipe_password(struct session *s)
{
    if (!s->password)
        return;
    explicit_bzero(s->password, strlen(s->password));
    free(s->password);
    s->password = NULL;
}

/* ---------------------------------------------------------------- FreeRDP callbacks
 * These run on the connect worker during freerdp_connect() and on the loop thread afterwards,
 * never on both at once (the hand-over goes through the connector's mutex). */

static void deliver_paint(struct session *s, const struct rect *rects, size_t n)
{
    if (s->interp && (s->state == SESSION_ST_LOGON || s->state == SESSION_ST_RUNNING ||
                      s->state == SESSION_ST_LOGOFF))
        interp_on_paint(s->interp, rects, n);
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

/* FreeRDP 2.11 creates every codec at connect (notes §8), but without GFX the H.264, progressive
 * and ClearCodec decoders are unreachable: free them (about 1.2 MB per session). */
static void trim_codecs(rdpContext *ctx)
{
    rdpCodecs *c = ctx->codecs;
    if (!c || ctx->settings->SupportGraphicsPipeline)
        return;
    h264_context_free(c->h264);
    c->h264 = NULL;
    progressive_context_free(c->progressive);
    c->progressive = NULL;
    clear_context_free(c->clear);
    c->clear = NULL;
}

static BOOL desktop_resize_cb(rdpContext *ctx)
{
    uint32_t stride, format = ctx->gdi->dstFormat;
    uint32_t w = ctx->settings->DesktopWidth, h = ctx->settings->DesktopHeight;
    BYTE *fb = zeroed_framebuffer(ctx->settings, format, &stride);
    if (!fb)
        return FALSE;
    /* gdi_resize resets every codec: give it back the trimmed ones first */
    if (!freerdp_client_codecs_prepare(ctx->codecs, FREERDP_CODEC_ALL, w, h)) {
        free(fb);
        return FALSE;
    }
    BOOL ok = gdi_resize_ex(ctx->gdi, w, h, stride, format, fb, free);
    trim_codecs(ctx);
    return ok;
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
    uint32_t stride, format = rdp_settings_pixel_format(s->h->cfg);
    BYTE *fb = zeroed_framebuffer(inst->settings, format, &stride);
    if (!fb)
        return FALSE;
    if (!gdi_init_ex(inst, format, stride, fb, free))
        return FALSE;   /* fb may have been adopted and freed by gdi_free: not ours any more */
    trim_codecs(inst->context);
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
                    "--fingerprint, or --no-verify)", s->h->cfg->host, (unsigned)s->h->cfg->port,
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

/* ---------------------------------------------------------------- teardown */

static void free_instance(freerdp *inst, int connected)
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

static void disarm(struct session *s)
{
    for (int i = 0; i < s->nev; i++)
        event_free(s->ev[i]);
    s->nev = 0;
    s->sock_fd = -1;
}

/* Disconnecting and freeing an instance takes milliseconds (tens at worst): it runs on a
 * connect thread so one session's end never shows up as loop lag in the others' timers. */
struct teardown_job {
    struct connector_job job;
    freerdp *inst;
};

static void teardown_work(struct connector_job *j)
{
    struct teardown_job *t = (struct teardown_job *)j;
    free_instance(t->inst, 1);
    t->inst = NULL;
}

static void teardown_done(struct connector_job *j)
{
    free(j);
}

static void release_instance(struct session *s, int on_loop)
{
    freerdp *inst = s->inst;
    struct teardown_job *t = NULL;
    s->inst = NULL;
    if (!inst)
        return;
    ((struct session_ctx *)inst->context)->s = NULL;    /* callbacks no longer see us */
    if (!on_loop || !(t = calloc(1, sizeof *t))) {
        free_instance(inst, 1);
        return;
    }
    t->inst = inst;
    t->job.work = teardown_work;
    t->job.done = teardown_done;
    t->job.must_finish = 1;
    connector_submit(s->h->conn, &t->job);
}

static void traffic_cb(evutil_socket_t fd, short what, void *arg);

/* Releases the live parts (never the session struct). A connected session reports its traffic
 * counters one last time, so a session shorter than the traffic interval still has its bytes. */
static void teardown(struct session *s, int on_loop)
{
    if (on_loop && s->inst && s->h->cfg->traffic_interval_ms)
        traffic_cb(-1, 0, s);
    interp_free(s->interp);
    s->interp = NULL;
    disarm(s);
    if (s->traffic_ev)
        event_del(s->traffic_ev);
    if (s->retry_ev)
        event_del(s->retry_ev);
    release_instance(s, on_loop);
    wipe_password(s);
    drives_session_cleanup(s->drive_dir);   /* what the server wrote goes; shared files stay */
    s->drive_dir[0] = '\0';
}

static void end(struct session *s, enum failure_reason reason, const char *detail)
{
    if (s->state == SESSION_ST_DONE || s->state == SESSION_ST_FAILED)
        return;
    teardown(s, 1);
    s->final_reason = reason;
    if (reason == FAIL_NONE) {
        s->state = SESSION_ST_DONE;
        emit(s, SESSION_ENDED, 0, FAIL_NONE, detail);
    } else {
        s->state = SESSION_ST_FAILED;
        emit(s, SESSION_FAILED, 0, reason, detail);
        log_ratelimited(LOG_INFO, "session-failed", "session %u (%s): %s: %s", s->index, s->user,
                        failure_reason_name(reason), detail ? detail : "");
    }
    if (s->h->on_terminal)
        s->h->on_terminal(s->h->arg, s);
}

static void finish_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct session *s = arg;
    s->finish_pending = 0;
    end(s, s->finish_reason, s->finish_detail);
}

/* Deferred end: safe from inside FreeRDP and interpreter callbacks. The first reason wins. */
static void finish_later(struct session *s, enum failure_reason reason, const char *detail)
{
    if (s->finish_pending || s->state == SESSION_ST_DONE || s->state == SESSION_ST_FAILED)
        return;
    s->finish_pending = 1;
    s->finish_reason = reason;
    snprintf(s->finish_detail, sizeof s->finish_detail, "%s", detail ? detail : "");
    event_active(s->finish_ev, EV_TIMEOUT, 0);
}

/* The connection is gone or broken: what does that mean in this state? */
static void connection_lost(struct session *s)
{
    char detail[RESULTS_DETAIL_LEN];
    struct failure_facts f = s->facts;
    f.last_error = freerdp_get_last_error(s->inst->context);
    f.error_info = freerdp_error_info(s->inst);
    f.connected = 1;
    f.logoff_requested = s->state == SESSION_ST_LOGOFF;
    f.desktop_ready = s->state != SESSION_ST_LOGON;
    f.relogged_by = s->h->relogged_by ? s->h->relogged_by(s->h->arg, s) : 0;
    enum failure_reason r = failure_classify(&f, detail, sizeof detail);
    finish_later(s, r, detail);
}

/* ---------------------------------------------------------------- the loop side */

static void arm(struct session *s);

static void fd_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct session *s = arg;
    if (!s->inst || s->finish_pending)
        return;
    if (!freerdp_check_event_handles(s->inst->context) || freerdp_shall_disconnect(s->inst)) {
        disarm(s);
        connection_lost(s);
        return;
    }
    /* the socket changes after a redirection or FreeRDP's own reconnect: re-query */
    HANDLE h[SESSION_MAX_HANDLES];
    DWORD n = freerdp_get_event_handles(s->inst->context, h, SESSION_MAX_HANDLES);
    if ((int)n != s->nev || (n > 1 && GetEventFileDescriptor(h[1]) != s->sock_fd)) {
        disarm(s);
        arm(s);
    }
}

static void arm(struct session *s)
{
    HANDLE h[SESSION_MAX_HANDLES];
    DWORD n = freerdp_get_event_handles(s->inst->context, h, SESSION_MAX_HANDLES);
    for (DWORD i = 0; i < n; i++) {
        int fd = GetEventFileDescriptor(h[i]);
        if (fd < 0)
            continue;
        struct event *ev = event_new(s->h->base, fd, EV_READ | EV_PERSIST, fd_cb, s);
        if (!ev || event_add(ev, NULL) != 0) {
            if (ev)
                event_free(ev);
            finish_later(s, FAIL_INTERNAL, "cannot watch the session's event handles");
            return;
        }
        s->ev[s->nev++] = ev;
    }
    s->sock_fd = n > 1 ? GetEventFileDescriptor(h[1]) : -1;
}

static void traffic_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct session *s = arg;
    if (!s->inst || !s->h->sink->traffic)
        return;
    struct rec_traffic t = { .session = s->index, .t_us = clock_wall_us(), .frames = s->frames };
    netstats_sample(s->inst->context, s->sock_fd, &t);
    s->h->sink->traffic(s->h->sink->ctx, &t);
}

/* ---------------------------------------------------------------- driver ops (interp -> us) */

static int live(const struct session *s)
{
    return s->inst && !s->finish_pending &&
           (s->state == SESSION_ST_LOGON || s->state == SESSION_ST_RUNNING ||
            s->state == SESSION_ST_LOGOFF);
}

static int op_key(void *sess, uint32_t code, int down)
{
    struct session *s = sess;
    if (!live(s) || !freerdp_input_send_keyboard_event_ex(s->inst->input, down ? TRUE : FALSE, code))
        return -1;
    return 0;
}

static int op_unicode(void *sess, uint16_t c, int down)
{
    struct session *s = sess;
    if (!live(s) ||
        !freerdp_input_send_unicode_keyboard_event(s->inst->input, down ? 0 : KBD_FLAGS_RELEASE, c))
        return -1;
    return 0;
}

static int op_mouse(void *sess, uint16_t flags, uint16_t x, uint16_t y)
{
    struct session *s = sess;
    if (!live(s) || !freerdp_input_send_mouse_event(s->inst->input, flags, x, y))
        return -1;
    return 0;
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
    log_debug("session %u (%s): no paint during logon, asked for a repaint", s->index, s->user);
    return ok ? 0 : -1;
}

/* The driver contract spells RDP's values out (driver.h); they must be FreeRDP's. */
_Static_assert(DRIVER_PTR_MOVE == PTR_FLAGS_MOVE && DRIVER_PTR_DOWN == PTR_FLAGS_DOWN &&
               DRIVER_PTR_BUTTON1 == PTR_FLAGS_BUTTON1 && DRIVER_PTR_BUTTON2 == PTR_FLAGS_BUTTON2 &&
               DRIVER_PTR_BUTTON3 == PTR_FLAGS_BUTTON3 && DRIVER_KEY_EXTENDED == KBDEXT,
               "driver.h values differ from FreeRDP's");

static const struct driver_ops session_driver = {
    .key = op_key, .unicode = op_unicode, .mouse = op_mouse,
    .screen = op_screen, .save_png = op_save_png, .refresh = op_refresh,
};

static void connect_again(struct session *s);

static void logon_cb(void *sess, int ok, int64_t logon_us)
{
    struct session *s = sess;
    char detail[RESULTS_DETAIL_LEN] = "";
    uint32_t repaints = s->interp ? interp_logon_repaints(s->interp) : 0;
    if (s->state != SESSION_ST_LOGON)
        return;
    if (!ok && !s->logoff_requested && s->logon_retries < s->h->cfg->logon_retries) {
        s->logon_retries++;
        log_ratelimited(LOG_INFO, "logon-retry", "session %u (%s): desktop not ready in time, "
                        "logon retry %u/%u", s->index, s->user, s->logon_retries, s->h->cfg->logon_retries);
        connect_again(s);
        return;
    }
    wipe_password(s);
    if (!ok) {
        snprintf(detail, sizeof detail, "desktop-ready condition did not hold in time "
                 "(repaint requests: %u, logon retries: %u)", repaints, s->logon_retries);
        finish_later(s, FAIL_LOGON_TIMEOUT, detail);
        return;
    }
    if (repaints || s->logon_retries)
        snprintf(detail, sizeof detail, "repaint requests: %u, logon retries: %u", repaints, s->logon_retries);
    s->state = SESSION_ST_RUNNING;
    emit(s, SESSION_ACTIVE, logon_us, FAIL_NONE, detail[0] ? detail : NULL);
    if (s->logoff_requested) {
        s->logoff_requested = 0;
        session_logoff(s);
    }
}

static void loops_done_cb(void *sess)
{
    session_logoff(sess);
}

static void finished_cb(void *sess, enum failure_reason reason, const char *detail)
{
    finish_later(sess, reason, detail);
}

/* CONNECTING -> LOGON: the connected instance arrives on the loop thread. */
static void connected(struct session *s)
{
    if (!s->h->cfg->logon_retries || !s->wl)      /* else kept for a logon retry */
        wipe_password(s);
    s->state = SESSION_ST_LOGON;
    s->in_frame = 0;
    s->nframe_rects = 0;
    s->sock_fd = -1;
    arm(s);
    freerdp_input_send_synchronize_event(s->inst->input, 0);
    if (s->h->cfg->traffic_interval_ms && s->traffic_ev) {
        uint32_t ms = s->h->cfg->traffic_interval_ms;
        struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
        event_add(s->traffic_ev, &tv);
    }
    if (!s->wl) {
        logon_cb(s, 1, (int64_t)(clock_now_us() - s->t0_us));
        return;
    }
    struct interp_host ih = {
        .sess = s, .ops = &session_driver, .base = s->h->base, .sink = s->h->sink,
        .session_index = s->index, .seed = s->seed, .shot_dir = s->h->cfg->shot_dir,
        .shot_timers = s->h->cfg->shot_timers, .max_loops = s->h->cfg->max_loops,
        .on_loops_done = loops_done_cb,
        .user = s->user, .on_logon = logon_cb, .on_finished = finished_cb,
    };
    s->interp = interp_new(s->wl, &ih);
    if (!s->interp) {
        finish_later(s, FAIL_INTERNAL, "cannot create the workload interpreter");
        return;
    }
    interp_start(s->interp, s->t0_us);
}

/* ---------------------------------------------------------------- connect attempts */

/* Worker thread: one freerdp_connect() under the watchdog. */
static void connect_work(struct connector_job *j)
{
    struct session *s = (struct session *)((char *)j - offsetof(struct session, job));
    freerdp *inst = freerdp_new();
    int ok = 0;

    memset(&s->facts, 0, sizeof s->facts);
    if (!inst || netem_enter(s->h->cfg->netem) != 0)
        goto fail;
    inst->ContextSize = sizeof(struct session_ctx);
    inst->PreConnect = pre_connect_cb;
    inst->PostConnect = post_connect_cb;
    inst->VerifyCertificateEx = verify_cert_cb;
    inst->VerifyChangedCertificateEx = verify_changed_cert_cb;
    inst->Authenticate = authenticate_cb;
    if (!freerdp_context_new(inst)) {
        freerdp_free(inst);
        inst = NULL;
        goto fail;
    }
    ((struct session_ctx *)inst->context)->s = s;
    if (rdp_settings_push(inst->settings, s->h->cfg, s->user, s->password) != 0)
        goto fail;
    if (s->wl && s->wl->ndrives) {
        char err[512];
        if ((!s->drive_dir[0] && drives_session_setup(s->h->cfg->config_dir, s->wl, s->index, s->drive_dir,
                                                      sizeof s->drive_dir, err, sizeof err) != 0) ||
            drives_apply(inst->settings, s->wl, s->drive_dir) != 0) {
            log_ratelimited(LOG_ERROR, "drives", "session %u: client drives: %s", s->index, err);
            goto fail;
        }
    }
    connector_attach(s->h->conn, j, inst);
    errno = 0;
    ok = freerdp_connect(inst) ? 1 : 0;
    s->facts.sys_errno = ok ? 0 : errno;
    s->facts.watchdog = connector_detach(s->h->conn, j);
    if (!ok) {
        s->facts.last_error = freerdp_get_last_error(inst->context);
        s->facts.error_info = freerdp_error_info(inst);
    }
fail:
    if (!inst)
        s->facts.last_error = 0xffffffff;
    if (!ok) {
        free_instance(inst, 0);
        inst = NULL;
    }
    s->inst = inst;
}

/* LOGON -> CONNECTING: the logon timed out and a logon retry is allowed. The instance goes (off
 * the loop), and a fresh connect attempt starts now. Called from the interpreter's logon
 * callback, which touches the interpreter no more afterwards. */
static void connect_again(struct session *s)
{
    interp_free(s->interp);
    s->interp = NULL;
    disarm(s);
    if (s->traffic_ev)
        event_del(s->traffic_ev);
    release_instance(s, 1);
    s->state = SESSION_ST_CONNECTING;
    s->attempts = 0;
    s->job.timeout_ms = s->h->cfg->connect_timeout_ms;
    connector_submit(s->h->conn, &s->job);
}

static void retry_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct session *s = arg;
    s->job.timeout_ms = s->h->cfg->connect_timeout_ms;
    connector_submit(s->h->conn, &s->job);
}

/* Loop thread: an attempt finished. */
static void connect_done(struct connector_job *j)
{
    struct session *s = (struct session *)((char *)j - offsetof(struct session, job));
    char why[RESULTS_DETAIL_LEN - 24], detail[RESULTS_DETAIL_LEN];

    s->attempts++;
    if (s->inst && !s->logoff_requested) {
        s->t0_us = j->started_us;
        log_debug("session %u (%s): connected in %.1f ms", s->index, s->user,
                  (double)(clock_now_us() - j->started_us) / 1000.0);
        connected(s);
        return;
    }
    if (s->inst) {                              /* connected, but logoff was asked meanwhile */
        end(s, FAIL_ABORTED, "logoff requested while connecting");
        return;
    }
    struct failure_facts f = s->facts;
    f.logoff_requested = s->logoff_requested;
    if (s->facts.last_error == 0xffffffff) {
        f.last_error = 0;
        end(s, FAIL_INTERNAL, "cannot create a FreeRDP instance");
        return;
    }
    enum failure_reason r = failure_classify(&f, why, sizeof why);
    snprintf(detail, sizeof detail, "%s; attempt %u/%u", why, s->attempts, s->h->cfg->max_attempts);
    if (!s->logoff_requested && failure_retryable(r) && s->attempts < s->h->cfg->max_attempts) {
        log_ratelimited(LOG_INFO, "retry", "session %u (%s): %s, retrying", s->index, s->user,
                        detail);
        uint32_t ms = s->h->cfg->retry_delay_ms;
        struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
        event_add(s->retry_ev, &tv);
        return;
    }
    end(s, r, detail);
}

/* ---------------------------------------------------------------- public */

struct session *session_new(const struct session_host *h, const struct engine_session_spec *spec)
{
    struct session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->h = h;
    s->index = spec->session_index;
    snprintf(s->user, sizeof s->user, "%s", spec->user ? spec->user : "");
    s->password = strdup(spec->password ? spec->password : "");
    s->wl = spec->workload;
    s->seed = spec->seed;
    s->sock_fd = -1;
    s->job.work = connect_work;
    s->job.done = connect_done;
    s->traffic_ev = event_new(h->base, -1, EV_PERSIST, traffic_cb, s);
    s->retry_ev = evtimer_new(h->base, retry_cb, s);
    s->finish_ev = event_new(h->base, -1, 0, finish_cb, s);
    if (!s->password || !s->traffic_ev || !s->retry_ev || !s->finish_ev) {
        session_free(s);
        return NULL;
    }
    return s;
}

void session_start(struct session *s)
{
    if (s->state != SESSION_ST_NEW)
        return;
    s->state = SESSION_ST_CONNECTING;
    s->launched_us = clock_now_us();
    emit(s, SESSION_LAUNCHED, 0, FAIL_NONE, NULL);
    s->job.timeout_ms = s->h->cfg->connect_timeout_ms;
    connector_submit(s->h->conn, &s->job);
}

void session_logoff(struct session *s)
{
    switch (s->state) {
    case SESSION_ST_NEW:
        end(s, FAIL_ABORTED, "logoff before start");
        break;
    case SESSION_ST_CONNECTING:
        s->logoff_requested = 1;
        if (connector_cancel(s->h->conn, &s->job) || event_pending(s->retry_ev, EV_TIMEOUT, NULL))
            end(s, FAIL_ABORTED, "logoff requested before connect");
        else
            connector_abort(s->h->conn, &s->job);   /* connect_done() ends it */
        break;
    case SESSION_ST_LOGON:
        /* let the logon finish first (logon_cb then logs off), unless there is no workload */
        s->logoff_requested = 1;
        if (!s->interp)
            finish_later(s, FAIL_NONE, "logoff");
        break;
    case SESSION_ST_RUNNING:
        s->state = SESSION_ST_LOGOFF;
        emit(s, SESSION_LOGOFF, 0, FAIL_NONE, NULL);
        if (s->interp)
            interp_logoff(s->interp);
        else
            finish_later(s, FAIL_NONE, "logoff");
        break;
    default:
        break;
    }
}

void session_kill(struct session *s, enum failure_reason reason, const char *detail)
{
    if (s->state == SESSION_ST_CONNECTING &&
        !connector_cancel(s->h->conn, &s->job) && !event_pending(s->retry_ev, EV_TIMEOUT, NULL)) {
        s->logoff_requested = 1;
        connector_abort(s->h->conn, &s->job);       /* cannot end under a running attempt */
        return;
    }
    end(s, reason, detail);
}

enum session_state session_get_state(const struct session *s) { return s->state; }
uint32_t session_get_index(const struct session *s) { return s->index; }
const char *session_get_user(const struct session *s) { return s->user; }
uint64_t session_get_launched_us(const struct session *s) { return s->launched_us; }
enum failure_reason session_get_reason(const struct session *s) { return s->final_reason; }

uint32_t session_loops(const struct session *s)
{
    return s->interp ? interp_loops(s->interp) : 0;
}

int session_screen(struct session *s, struct screen_view *out)
{
    return op_screen(s, out);
}

int session_save_png(struct session *s, const char *path)
{
    struct screen_view v;
    if (!s->inst || screen_view_of(s->inst->context->gdi, &v) != 0) {
        log_warn("session %u: no screen to save to %s", s->index, path);
        return -1;
    }
    return screen_write_png(&v, path);
}

void session_free(struct session *s)
{
    if (!s)
        return;
    teardown(s, 0);
    if (s->traffic_ev)
        event_free(s->traffic_ev);
    if (s->retry_ev)
        event_free(s->retry_ev);
    if (s->finish_ev)
        event_free(s->finish_ev);
    free(s);
}

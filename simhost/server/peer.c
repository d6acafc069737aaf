/* peer.c -- a peer's FreeRDP callbacks, its handshake thread and its teardown.
 *
 *   accepted -> handshake thread: (TLS/NLA accept inside CheckFileDescriptor, which blocks) ->
 *   PostConnect: check account, password, --max-sessions -> logged on or refused: handed to an
 *   event loop (loop.c, through the server's adopt), which runs the session, the goodbye and the
 *   teardown.
 * The first frame waits for the client: a FreeRDP 2.11 client leaves its connect loop at the Font
 * Map and reads TLS with read-ahead, so a frame right behind it can sit unseen in its buffer. Its
 * first PDU after that (input Synchronize, any input, Refresh Rect, Suppress Output) proves it reads.
 * Input callbacks only queue events; the loop runs them (session.c) after CheckFileDescriptor
 * returns, so work and painting never happen inside FreeRDP's parser. */
#include "simhost/server/peer.h"

#include "common/clock.h"
#include "common/log.h"
#include "common/netprofile.h"
#include "simhost/desktop/apps.h"
#include "simhost/server/bulk.h"
#include "simhost/desktop/codec.h"
#include "simhost/desktop/desktop.h"
#include "simhost/desktop/appstart.h"
#include "simhost/server/drive.h"
#include "simhost/desktop/frame.h"
#include "simhost/server/registry.h"
#include "simhost/server/session.h"

#include <freerdp/codec/color.h>
#include <freerdp/error.h>
#include <freerdp/freerdp.h>
#include <freerdp/session.h>
#include <freerdp/settings.h>
#include <freerdp/update.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define SIM_STACK (1u << 20)

struct sim_peer_ctx {
    rdpContext base;
    struct sim_session *s;
};

static struct sim_session *session_of(rdpContext *ctx) { return ((struct sim_peer_ctx *)ctx)->s; }

/* ---- FreeRDP callbacks (run inside CheckFileDescriptor, on the thread that owns the peer) ---- */

static BOOL queue_input(rdpInput *input, UINT16 flags, UINT16 code, int unicode)
{
    struct sim_session *s = session_of(input->context);
    s->client_ready = 1;
    sim_session_queue(s, flags, code, unicode);
    return TRUE;
}

static BOOL on_key(rdpInput *input, UINT16 flags, UINT16 code) { return queue_input(input, flags, code, 0); }
static BOOL on_unicode(rdpInput *input, UINT16 flags, UINT16 code) { return queue_input(input, flags, code, 1); }
static BOOL on_mouse(rdpInput *input, UINT16 flags, UINT16 x, UINT16 y)
{
    (void)flags, (void)x, (void)y;   /* the contract needs no mouse */
    session_of(input->context)->client_ready = 1;
    return TRUE;
}
static BOOL on_sync(rdpInput *input, UINT32 flags)
{
    (void)flags;
    session_of(input->context)->desk.mods = 0;
    session_of(input->context)->client_ready = 1;
    return TRUE;
}

static BOOL on_suppress(rdpContext *ctx, BYTE allow, const RECTANGLE_16 *area)
{
    struct sim_session *s = session_of(ctx);
    (void)area;
    log_debug("session %u: suppress output: allow=%d", s->id, allow);
    s->suppressed = !allow;
    s->client_ready = 1;
    if (allow)   /* the client shows the screen again: everything may be stale */
        sim_desktop_invalidate(&s->desk, (struct sim_rect){ 0, 0, s->desk.w, s->desk.h });
    return TRUE;
}

static BOOL on_refresh(rdpContext *ctx, BYTE count, const RECTANGLE_16 *areas)
{
    struct sim_session *s = session_of(ctx);
    log_debug("session %u: refresh rect: %u areas", s->id, count);
    s->client_ready = 1;
    for (BYTE i = 0; areas && i < count; i++)
        sim_desktop_invalidate(&s->desk, (struct sim_rect){ areas[i].left, areas[i].top,
                                                            areas[i].right - areas[i].left + 1,
                                                            areas[i].bottom - areas[i].top + 1 });
    return TRUE;
}

/* Before the server's Demand Active: our desktop size and the depth we draw at. */
static BOOL on_capabilities(freerdp_peer *peer)
{
    struct sim_session *s = session_of(peer->context);
    rdpSettings *st = peer->settings;
    const struct sim_opts *o = s->srv->opts;
    UINT32 depth = freerdp_settings_get_uint32(st, FreeRDP_ColorDepth);
    if (depth > (UINT32)o->bpp)
        depth = (UINT32)o->bpp;
    if (depth != 16 && depth != 32)
        depth = depth < 16 ? 16 : 32;
    freerdp_settings_set_uint32(st, FreeRDP_ColorDepth, depth);
    freerdp_settings_set_uint32(st, FreeRDP_DesktopWidth, (UINT32)o->width);
    freerdp_settings_set_uint32(st, FreeRDP_DesktopHeight, (UINT32)o->height);
    sim_bulk_off(st);   /* the Client Info PDU just set it from the client's flags */
    return TRUE;
}

static void refuse(struct sim_session *s, uint32_t errinfo, const char *why)
{
    s->refuse = errinfo;
    log_info("session %u: logon of '%s' refused: %s", s->id, s->user, why);
}

/* After the connection sequence: the Client Info PDU (TLS) or CredSSP (NLA) gave us the user. */
static BOOL on_post_connect(freerdp_peer *peer)
{
    struct sim_session *s = session_of(peer->context);
    struct sim_server *srv = s->srv;
    rdpSettings *st = peer->settings;
    const char *user = freerdp_settings_get_string(st, FreeRDP_Username);
    const char *pass = freerdp_settings_get_string(st, FreeRDP_Password);
    sim_bulk_off(st);
    int nla = freerdp_settings_get_bool(st, FreeRDP_NlaSecurity);
    char err[512];
    snprintf(s->user, sizeof s->user, "%s", user ? user : "");
    if (!sim_users_exists(&srv->users, s->user) || (!nla && !sim_users_check(&srv->users, s->user, pass))) {
        s->bad_password = 1;
        refuse(s, ERRINFO_SERVER_INSUFFICIENT_PRIVILEGES, "bad user name or password");
        return TRUE;
    }
    if (sim_server_logon(srv, &s->ent) != 0) {
        refuse(s, ERRINFO_SERVER_DENIED_CONNECTION, "--max-sessions reached");
        return TRUE;
    }
    s->logged_on = 1;
    for (char *p = s->user; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    snprintf(s->dir, sizeof s->dir, "%s/%s", srv->home_dir, s->user);
    if (sim_apps_prepare_dir(s->dir, err, sizeof err) != 0 || sim_appstart_prepare(s->dir, err, sizeof err) != 0)
        log_warn("session %u: %s", s->id, err);
    UINT32 depth = freerdp_settings_get_uint32(st, FreeRDP_ColorDepth);
    s->bpp = depth <= 16 ? 16 : 32;
    s->markers = freerdp_settings_get_bool(st, FreeRDP_SurfaceFrameMarkerEnabled);
    UINT32 frag = freerdp_settings_get_uint32(st, FreeRDP_MultifragMaxRequestSize);
    size_t strip = frag > 8192 ? frag - 1024 : 8192;
    if (strip > SIM_FRAME_STRIP_BYTES)
        strip = SIM_FRAME_STRIP_BYTES;
    enum sim_codec_id codec = sim_codec_choose((enum sim_codec_id)srv->opts->codec, s->bpp, st);
    if (sim_frame_buf_init(&s->fb, strip) != 0 || sim_codec_open(codec, st, &s->codec) != 0)
        return FALSE;
    sim_desktop_init(&s->desk, s->user, (int)freerdp_settings_get_uint32(st, FreeRDP_DesktopWidth),
                     (int)freerdp_settings_get_uint32(st, FreeRDP_DesktopHeight));
    sim_drive_logon(s->drive, s->id);
    /* the link the client says it is on (client core data connectionType, 0 = not sent) */
    UINT32 link = freerdp_settings_get_uint32(st, FreeRDP_ConnectionType);
    log_info("session %u: %s logged on (%d bpp, %s, codec %s, link %s%s)", s->id, s->user, s->bpp,
             nla ? "NLA" : "TLS", sim_codec_name(codec), link ? netprofile_conn_name((enum netprofile_conn)link) : "unset",
             freerdp_settings_get_bool(st, FreeRDP_NetworkAutoDetect) ? " +autodetect" : "");
    return TRUE;
}

static BOOL on_activate(freerdp_peer *peer)
{
    struct sim_session *s = session_of(peer->context);
    if (s->refuse)
        return TRUE;
    if (!s->activated)
        s->activated_us = clock_now_us();
    s->activated = 1;
    s->suppressed = 0;
    sim_desktop_invalidate(&s->desk, (struct sim_rect){ 0, 0, s->desk.w, s->desk.h });
    return TRUE;
}

static BOOL ctx_new(freerdp_peer *peer, rdpContext *ctx)
{
    struct sim_session *s = calloc(1, sizeof *s);
    if (!s)
        return FALSE;
    s->peer = peer;
    s->srv = peer->ContextExtra;
    ((struct sim_peer_ctx *)ctx)->s = s;
    s->drive = sim_drive_new(ctx, s->srv->opts->drives);
    sim_bulk_off(ctx->settings);   /* it has no bulk contexts (bulk_tables_none) */
    return TRUE;
}

static void ctx_free(freerdp_peer *peer, rdpContext *ctx)
{
    struct sim_session *s = session_of(ctx);
    (void)peer;
    if (!s)
        return;
    uint64_t raw, sent;
    sim_codec_totals(s->codec, &raw, &sent);
    if (raw)
        log_info("session %u: %llu KiB of pixels sent as %llu KiB", s->id, (unsigned long long)(raw >> 10),
                 (unsigned long long)(sent >> 10));
    sim_codec_free(s->codec);
    sim_drive_free(s->drive);
    sim_frame_buf_free(&s->fb);
    free(s);
    ((struct sim_peer_ctx *)ctx)->s = NULL;
}

/* ---- the handshake thread ---- */

static int configure(freerdp_peer *peer, struct sim_server *srv)
{
    rdpSettings *st = peer->settings;
    const struct sim_opts *o = srv->opts;
    if (!freerdp_settings_set_string(st, FreeRDP_CertificateContent, srv->tls.cert_pem) ||
        !freerdp_settings_set_string(st, FreeRDP_PrivateKeyContent, srv->tls.key_pem))
        return -1;
    freerdp_settings_set_bool(st, FreeRDP_RdpSecurity, FALSE);
    freerdp_settings_set_bool(st, FreeRDP_TlsSecurity, TRUE);
    freerdp_settings_set_bool(st, FreeRDP_NlaSecurity, o->nla ? TRUE : FALSE);
    if (o->nla && o->sam_file && !freerdp_settings_set_string(st, FreeRDP_NtlmSamFile, o->sam_file))
        return -1;
    freerdp_settings_set_uint32(st, FreeRDP_ColorDepth, (UINT32)o->bpp);
    freerdp_settings_set_bool(st, FreeRDP_SuppressOutput, TRUE);
    freerdp_settings_set_bool(st, FreeRDP_RefreshRect, TRUE);
    freerdp_settings_set_bool(st, FreeRDP_SurfaceCommandsEnabled, TRUE);
    freerdp_settings_set_bool(st, FreeRDP_SurfaceFrameMarkerEnabled, TRUE);
    freerdp_settings_set_bool(st, FreeRDP_FrameMarkerCommandEnabled, TRUE);
    freerdp_settings_set_bool(st, FreeRDP_UnicodeInput, TRUE);
    freerdp_settings_set_bool(st, FreeRDP_RemoteFxCodec, FALSE);   /* no rfx context, no pools */
    freerdp_settings_set_bool(st, FreeRDP_NSCodec, FALSE);
    freerdp_settings_set_uint32(st, FreeRDP_DesktopWidth, (UINT32)o->width);
    freerdp_settings_set_uint32(st, FreeRDP_DesktopHeight, (UINT32)o->height);
    peer->Capabilities = on_capabilities;
    peer->PostConnect = on_post_connect;
    peer->Activate = on_activate;
    peer->input->KeyboardEvent = on_key;
    peer->input->UnicodeKeyboardEvent = on_unicode;
    peer->input->MouseEvent = on_mouse;
    peer->input->ExtendedMouseEvent = on_mouse;
    peer->input->SynchronizeEvent = on_sync;
    peer->update->SuppressOutput = on_suppress;
    peer->update->RefreshRect = on_refresh;
    return 0;
}

void sim_peer_goodbye(struct sim_session *s, uint32_t errinfo)
{
    rdpContext *ctx = s->peer->context;
    if (s->bad_password) {
        logon_info_ex info;
        memset(&info, 0, sizeof info);
        info.haveErrorInfo = TRUE;
        info.ErrorNotificationType = LOGON_FAILED_BAD_PASSWORD;
        info.ErrorNotificationData = 0;   /* session 0; FreeRDP clients print this field as the reason */
        s->peer->update->SaveSessionInfo(ctx, INFO_TYPE_LOGON_EXTENDED_INF, &info);
    }
    freerdp_set_error_info(ctx->rdp, errinfo);
    if (!freerdp_settings_get_bool(s->peer->settings, FreeRDP_SupportErrorInfoPdu))
        freerdp_send_error_info(ctx->rdp);   /* else Close() sends it */
    s->peer->Close(s->peer);   /* Deactivate All, Set Error Info, MCS Disconnect Provider Ultimatum */
}

/* Until the session is logged on or refused (1: hand it to a loop) or the connection ends (0).
 * TLS and NLA block inside CheckFileDescriptor; the watchdog shuts the socket of a handshake
 * past its deadline, which wakes it. */
static int handshake(struct sim_session *s)
{
    freerdp_peer *peer = s->peer;
    HANDLE handles[32];
    while (!s->srv->stop) {
        DWORD n = peer->GetEventHandles(peer, handles, 31);
        if (n == 0)
            break;
        n += sim_drive_handles(s->drive, handles + n, 32 - n);
        if (WaitForMultipleObjects(n, handles, FALSE, 1000) == WAIT_FAILED)
            break;
        if (!peer->CheckFileDescriptor(peer) || sim_drive_check(s->drive) != 0)
            break;
        if (s->refuse || s->logged_on)
            return 1;
        if (s->ent.killed)
            break;
    }
    return 0;
}

/* Ends a connection: logs, leaves the registry (before the socket closes: the watchdog lets
 * go), disconnects, frees the peer (and s), and releases its admission. */
static void finish(freerdp_peer *peer, struct sim_session *s, int registered, int initialized)
{
    struct sim_server *srv = peer->ContextExtra;
    if (s && s->logged_on && !s->logoff)
        log_info("session %u: %s disconnected", s->id, s->user);
    else if (s && !s->logged_on && !s->refuse)
        log_ratelimited(LOG_INFO, "sim_prelogon", "peer %s: connection ended before logon (%s)",
                        peer->hostname, s->ent.killed ? "handshake deadline or shutdown"
                                                      : "client left or spoke bad protocol");
    int logged_on = s && s->logged_on;
    if (registered)
        sim_server_unregister(srv, &s->ent);
    if (!initialized)
        close(peer->sockfd);   /* the transport never adopted it */
    if (peer->context) {
        if (initialized)
            peer->Disconnect(peer);
        freerdp_peer_context_free(peer);
    }
    freerdp_peer_free(peer);
    sim_server_conn_done(srv, logged_on);
}

void sim_peer_end(struct sim_session *s) { finish(s->peer, s, 1, 1); }

static void *peer_thread(void *arg)
{
    freerdp_peer *peer = arg;
    struct sim_server *srv = peer->ContextExtra;
    struct sim_session *s = NULL;
    int registered = 0, initialized = 0;
    peer->ContextSize = sizeof(struct sim_peer_ctx);
    peer->ContextNew = ctx_new;
    peer->ContextFree = ctx_free;
    if (!freerdp_peer_context_new(peer))
        goto done;
    s = session_of(peer->context);
    pthread_mutex_lock(&srv->mu);
    s->id = ++srv->next_id;
    pthread_mutex_unlock(&srv->mu);
    if (configure(peer, srv) != 0 || !peer->Initialize(peer))
        goto done;
    initialized = 1;
    s->ent.peer = peer->hostname;
    sim_server_register(srv, &s->ent, peer->sockfd);
    registered = 1;
    if (handshake(s)) {
        srv->adopt(srv->loops, s);
        return NULL;
    }
done:
    finish(peer, s, registered, initialized);
    return NULL;
}

BOOL sim_peer_accepted(freerdp_listener *listener, freerdp_peer *peer)
{
    struct sim_server *srv = listener->info;
    pthread_attr_t attr;
    pthread_t th;
    if (sim_server_admit(srv, peer->hostname) != 0)
        return FALSE;
    peer->ContextExtra = srv;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, SIM_STACK);
    int rc = pthread_create(&th, &attr, peer_thread, peer);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        sim_server_conn_done(srv, 0);
        log_ratelimited(LOG_WARN, "sim_thread", "cannot start a handshake thread: %s", strerror(rc));
        return FALSE;
    }
    return TRUE;
}

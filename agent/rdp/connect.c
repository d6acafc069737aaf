/* connect.c -- a FreeRDP instance for one connect attempt (connect.h): its context, the callbacks
 * FreeRDP makes while connecting (certificate, authentication, logon info, drives, then the
 * screen's: screen.c) and its release. The session's life is in session.c. */
#include "agent/rdp/connect.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <freerdp/freerdp.h>
#include <freerdp/gdi/gdi.h>
#include <freerdp/session.h>
#include <winpr/synch.h>

#include "agent/rdp/drives.h"
#include "agent/rdp/screen.h"
#include "agent/rdp/state.h"
#include "agent/rdp/settings.h"
#include "common/clock.h"
#include "common/log.h"
#include "compat/connect_marks.h"
#include "compat/connection_states.h"
#include "compat/rdpdr_logon_order.h"

/* These run on the connect worker during freerdp_connect() (and on the loop thread afterwards,
 * never on both at once: the hand-over goes through the connector's mutex). */

static BOOL save_session_info_cb(rdpContext *ctx, UINT32 type, void *data)
{
    struct rdp_session *s = sess_of(ctx);
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

/* FreeRDP's connection states: MCS_CONNECT follows the security handshake (it is entered once
 * MCS Connect Initial is sent: after TLS, or after NLA when NLA ran), ACTIVE ends the
 * connection sequence. Worker thread, inside freerdp_connect(). */
static void state_change_cb(void *context, ConnectionStateChangeEventArgs *e)
{
    struct rdp_session *s = sess_of(context);
    if (!s)
        return;
    if (e->state == CONNECTION_STATE_MCS_CONNECT)
        logon_marks_secure(&s->marks, clock_now_us());
    else if (e->state == CONNECTION_STATE_ACTIVE)
        logon_marks_active(&s->marks, clock_now_us());
}

static void tcp_cb(void *arg, int connected)
{
    struct rdp_session *s = arg;
    if (connected)
        logon_marks_tcp_done(&s->marks, clock_now_us());
    else
        logon_marks_tcp_start(&s->marks, clock_now_us());
}

void rdp_connect_marks_arm(struct rdp_session *s)
{
    logon_marks_reset(&s->marks);
    connect_marks_arm(tcp_cb, s);
}

void rdp_connect_marks_disarm(void)
{
    connect_marks_disarm();
}

static BOOL post_connect_cb(freerdp *inst)
{
    struct rdp_session *s = sess_of(inst->context);
    return rdp_screen_attach(inst, rdp_settings_pixel_format(s->l.h->cfg));
}

static BOOL pre_connect_cb(freerdp *inst)
{
    struct rdp_session *s = sess_of(inst->context);
    inst->update->SaveSessionInfo = save_session_info_cb;
    if (s && connection_states_subscribe(inst->context, state_change_cb) != 0)
        log_ratelimited(LOG_WARN, "states", "session %u: FreeRDP's connection states cannot be watched: "
                        "its logon phases will not be split", s->l.index);
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
    struct rdp_session *s = sess_of(inst->context);
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

void rdp_connect_hook(freerdp *inst)
{
    inst->ContextSize = sizeof(struct session_ctx);
    inst->PreConnect = pre_connect_cb;
    inst->PostConnect = post_connect_cb;
    inst->VerifyCertificateEx = verify_cert_cb;
    inst->VerifyChangedCertificateEx = verify_changed_cert_cb;
    inst->Authenticate = authenticate_cb;
}

void rdp_connect_free_instance(freerdp *inst, int connected)
{
    if (!inst)
        return;
    if (connected)
        freerdp_disconnect(inst);
    rdpdr_logon_order_forget(inst);
    gdi_free(inst);
    freerdp_context_free(inst);
    freerdp_free(inst);
}

void rdp_connect_kick(void *instance)
{
    freerdp *inst = instance;
    HANDLE h[16];
    freerdp_abort_connect(inst);
    DWORD n = freerdp_get_event_handles(inst->context, h, 16);
    if (n > 1) {
        int fd = GetEventFileDescriptor(h[1]);
        if (fd >= 0)
            shutdown(fd, SHUT_RDWR);
    }
}

/* One non-blocking connect to ai within timeout_ms: 0, or its errno. */
static int connect_errno(const struct addrinfo *ai, int timeout_ms)
{
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0)
        return errno;
    int e = connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 ? 0 : errno;
    if (e == EINPROGRESS) {
        struct pollfd p = { fd, POLLOUT, 0 };
        socklen_t el = sizeof e;
        int n = poll(&p, 1, timeout_ms);
        if (n == 0)
            e = ETIMEDOUT;
        else if (n < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) < 0)
            e = errno;
    }
    close(fd);
    return e;
}

int rdp_connect_peer_errno(const char *host, uint16_t port, int timeout_ms)
{
    char service[8];
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_family = AF_UNSPEC }, *res = NULL;
    snprintf(service, sizeof service, "%u", (unsigned)port);
    if (!host || getaddrinfo(host, service, &hints, &res) != 0 || !res)
        return 0;   /* no errno for a name that does not resolve: FreeRDP's DNS error says it */
    int e = connect_errno(res, timeout_ms);
    freeaddrinfo(res);
    return e;
}

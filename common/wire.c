/* wire.c -- framing, handshake and heartbeats of one controller<->agent connection (see wire.h).
 *
 * States: HELLO_WAIT (controller) / HELLO_SENT (agent) -> AUTH_WAIT / CHALLENGED -> (controller:
 * PINGING, then WELCOME) -> READY -> CLOSED. Before AUTH only the handshake messages of the current state are
 * accepted and frames are limited to 4 KiB, so an unauthenticated peer can neither send commands
 * nor make us buffer much. From AUTH on every frame carries a tag; one bad tag closes the link
 * (without ERROR: a broken link, not a refusal). */
#include "common/wire.h"

#include "common/clock.h"
#include "common/log.h"
#include "common/names.h"
#include "common/proto_auth.h"
#include "common/tls.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PREAUTH_MAX_FRAME 4096
#define EXPORTER_LABEL "EXPORTER-Channel-Binding"   /* RFC 9266 tls-exporter */

enum wstate { W_HELLO_WAIT, W_HELLO_SENT, W_AUTH_WAIT, W_CHALLENGED, W_PINGING, W_READY, W_CLOSING, W_CLOSED };

struct wire {
    struct event_base *base;
    struct bufferevent *bev;
    struct event *tick;
    struct wire_params p;
    struct wire_callbacks cb;
    char *token, *peer, *name, *pin;
    enum wstate state;
    uint8_t my_nonce[PROTO_NONCE_LEN], ticket[PROTO_TICKET_LEN];
    uint8_t th[PROTO_MAC_LEN], key_tx[PROTO_MAC_LEN], key_rx[PROTO_MAC_LEN];
    int tx_tagged, rx_tagged;
    uint64_t seq_tx, seq_rx;
    struct proto_hello hello;          /* controller: the agent's hello (name owned) */
    struct proto_welcome welcome;
    uint32_t pongs;                    /* controller: clock probes answered */
    uint64_t ping_sent_us;
    int64_t clock_offset_us;
    uint32_t clock_rtt_us;
    uint64_t last_rx_us, last_tx_us, born_us;
    int depth;                         /* callbacks of this wire on the stack */
    int free_pending;
    int connected;
    int refused;                       /* the authenticated peer sent ERROR */
    char close_reason[256];
};

static void close_now(struct wire *w, const char *reason);

/* RFC 9266 channel binding: both ends of one TLS 1.3 session derive the same 32 bytes, two
 * sessions (a relay's two legs) never do. Zeros on plain TCP. */
static void channel_binding(struct wire *w, uint8_t out[PROTO_NONCE_LEN])
{
    memset(out, 0, PROTO_NONCE_LEN);
    SSL *ssl = bufferevent_openssl_get_ssl(w->bev);
    if (ssl && SSL_export_keying_material(ssl, out, PROTO_NONCE_LEN, EXPORTER_LABEL, strlen(EXPORTER_LABEL),
                                          NULL, 0, 0) != 1)
        proto_random(out, PROTO_NONCE_LEN);   /* cannot bind: make the proofs fail */
}

/* Proof or key for label over the transcript and this connection's channel binding. */
static void mac(struct wire *w, const char *label, uint8_t out[PROTO_MAC_LEN])
{
    uint8_t bind[PROTO_NONCE_LEN];
    channel_binding(w, bind);
    proto_auth_mac(w->token, label, w->th, bind, out);
    OPENSSL_cleanse(bind, sizeof bind);
}

/* After the proofs: frame keys for both directions; every frame from now on carries a tag. */
static void start_tagging(struct wire *w)
{
    int ctl = w->p.role == WIRE_CONTROLLER;
    mac(w, ctl ? PROTO_LABEL_KEY_C2A : PROTO_LABEL_KEY_A2C, w->key_tx);
    mac(w, ctl ? PROTO_LABEL_KEY_A2C : PROTO_LABEL_KEY_C2A, w->key_rx);
    w->tx_tagged = w->rx_tagged = 1;
}

/* Writes complete frames, each with its tag once tagging started (the length then counts it). */
static int send_frames(struct wire *w, const uint8_t *data, size_t len)
{
    if (!w->tx_tagged)
        return bufferevent_write(w->bev, data, len);
    struct evbuffer *out = bufferevent_get_output(w->bev);
    while (len >= 4) {
        uint32_t n = (uint32_t)data[0] << 24 | (uint32_t)data[1] << 16 | (uint32_t)data[2] << 8 | data[3];
        if (n > len - 4)
            return -1;
        uint32_t t = n + PROTO_TAG_LEN;
        uint8_t hdr[4] = { (uint8_t)(t >> 24), (uint8_t)(t >> 16), (uint8_t)(t >> 8), (uint8_t)t };
        uint8_t *frame = malloc(4 + (size_t)n), tag[PROTO_TAG_LEN];
        if (!frame)
            return -1;
        memcpy(frame, hdr, 4);
        memcpy(frame + 4, data + 4, n);
        proto_frame_tag(w->key_tx, w->seq_tx++, frame, 4 + (size_t)n, tag);
        int rc = evbuffer_add(out, frame, 4 + (size_t)n) == 0 && evbuffer_add(out, tag, sizeof tag) == 0 ? 0 : -1;
        OPENSSL_cleanse(frame, 4 + (size_t)n);   /* START frames carry a password */
        free(frame);
        if (rc < 0)
            return -1;
        data += 4 + (size_t)n;
        len -= 4 + (size_t)n;
    }
    return len ? -1 : 0;
}

int wire_send(struct wire *w, const struct proto_msg *m)
{
    if (!w || w->state >= W_CLOSING)
        return -1;
    struct proto_buf b = { 0 };
    int rc = proto_encode(&b, m);
    if (rc == 0)
        rc = send_frames(w, b.data, b.len);
    if (b.data)
        OPENSSL_cleanse(b.data, b.len);   /* START frames carry a password */
    proto_buf_free(&b);
    if (rc == 0)
        w->last_tx_us = clock_now_us();
    return rc;
}

int wire_send_raw(struct wire *w, const uint8_t *data, size_t len)
{
    if (!w || w->state >= W_CLOSING)
        return -1;
    w->last_tx_us = clock_now_us();
    return send_frames(w, data, len);
}

static void send_hello(struct wire *w)
{
    struct proto_msg m = { .type = PROTO_HELLO };
    m.u.hello.version = PROTO_VERSION;
    m.u.hello.name = w->name;
    m.u.hello.capacity = w->p.capacity;
    m.u.hello.pid = (uint32_t)getpid();
    memcpy(m.u.hello.nonce, w->my_nonce, PROTO_NONCE_LEN);
    memcpy(m.u.hello.ticket, w->ticket, PROTO_TICKET_LEN);
    w->hello = m.u.hello;
    w->hello.name = NULL;              /* the agent keeps its own hello for the transcript */
    wire_send(w, &m);
    w->state = W_HELLO_SENT;
}

static void on_hello(struct wire *w, struct proto_msg *m)
{
    if (m->u.hello.version != PROTO_VERSION) {
        char t[160];
        snprintf(t, sizeof t, "protocol version %u not supported (this controller speaks %u)",
                 m->u.hello.version, PROTO_VERSION);
        wire_close(w, t);
        return;
    }
    if (!name_is_safe(m->u.hello.name)) {   /* it goes into logs, the console and reports */
        char t[200];
        snprintf(t, sizeof t, "agent name refused: use 1 to %d characters, each one of %s", RESULTS_NAME_LEN - 1,
                 NAMES_CHARSET_TEXT);
        wire_close(w, t);
        return;
    }
    w->hello = m->u.hello;
    m->u.hello.name = NULL;            /* moved */
    proto_transcript(&w->hello, PROTO_VERSION, w->my_nonce, w->th);
    struct proto_msg c = { .type = PROTO_CHALLENGE };
    c.u.challenge.version = PROTO_VERSION;
    memcpy(c.u.challenge.nonce, w->my_nonce, PROTO_NONCE_LEN);
    mac(w, PROTO_LABEL_CTL, c.u.challenge.proof);
    wire_send(w, &c);
    w->state = W_AUTH_WAIT;
    if (w->p.hello)
        w->p.hello(w, &w->hello, w->cb.arg);
}

static void send_ping(struct wire *w)
{
    struct proto_msg m = { .type = PROTO_PING };
    m.u.ping.id = w->pongs + 1;
    m.u.ping.ctl_us = clock_wall_us();
    w->ping_sent_us = clock_now_us();
    wire_send(w, &m);
}

static void become_ready(struct wire *w)
{
    w->state = W_READY;
    if (w->cb.on_ready)
        w->cb.on_ready(w, w->cb.arg);
}

/* Controller, after the clock probes: the agent is admitted (or refused), WELCOME goes out, and
 * from here on both sides are ready. The agent only becomes ready on WELCOME, so nothing it
 * sends once ready (a resumed agent's unacknowledged batches) can meet a controller that is
 * still probing. */
static void welcome(struct wire *w)
{
    struct proto_welcome *wm = &w->welcome;
    wm->agent_id = w->p.agent_id;
    wm->heartbeat_ms = w->p.heartbeat_ms;
    wm->timeout_ms = w->p.timeout_ms;
    wm->grace_ms = w->p.grace_ms;
    proto_random(wm->ticket, PROTO_TICKET_LEN);
    char why[256] = "refused";
    if (w->p.admit && w->p.admit(w, wm, why, sizeof why, w->cb.arg) < 0) {
        wire_close(w, why);
        return;
    }
    struct proto_msg out = { .type = PROTO_WELCOME };
    out.u.welcome = *wm;
    wire_send(w, &out);
    become_ready(w);
}

static void on_auth(struct wire *w, struct proto_msg *m)
{
    uint8_t want[PROTO_MAC_LEN];
    mac(w, PROTO_LABEL_AGENT, want);
    if (!proto_mac_equal(want, m->u.auth_proof)) {
        wire_close(w, "authentication failed: the agent's token does not match (check SESSMAX_TOKEN)");
        return;
    }
    start_tagging(w);
    w->state = W_PINGING;
    if (w->p.authenticated)
        w->p.authenticated(w, w->cb.arg);
    send_ping(w);
}

/* Controller: a PONG. Keeps the probe with the smallest round trip; ready after the last. */
static void on_pong(struct wire *w, const struct proto_ping *pg)
{
    if (pg->id != w->pongs + 1) {
        wire_close(w, "protocol error: clock probe answered out of order");
        return;
    }
    uint32_t rtt = (uint32_t)(clock_now_us() - w->ping_sent_us);
    int64_t offset = (int64_t)(pg->agent_us - pg->ctl_us) - (int64_t)rtt / 2;
    if (!w->pongs++ || rtt < w->clock_rtt_us) {
        w->clock_rtt_us = rtt;
        w->clock_offset_us = offset;
    }
    if (w->pongs < w->p.pings)
        send_ping(w);
    else
        welcome(w);
}

static void on_challenge(struct wire *w, struct proto_msg *m)
{
    uint8_t want[PROTO_MAC_LEN];
    struct proto_hello mine = w->hello;
    mine.name = w->name;
    proto_transcript(&mine, m->u.challenge.version, m->u.challenge.nonce, w->th);
    mac(w, PROTO_LABEL_CTL, want);
    if (m->u.challenge.version != PROTO_VERSION || !proto_mac_equal(want, m->u.challenge.proof)) {
        wire_close(w, "authentication failed: the controller's token does not match (check SESSMAX_TOKEN), "
                      "or something between us altered the handshake");
        return;
    }
    struct proto_msg a = { .type = PROTO_AUTH };
    mac(w, PROTO_LABEL_AGENT, a.u.auth_proof);
    wire_send(w, &a);
    start_tagging(w);
    w->state = W_CHALLENGED;
}

/* Agent, authenticated and waiting for WELCOME: a clock probe is answered at once. */
static void answer_ping(struct wire *w, const struct proto_ping *pg)
{
    struct proto_msg r = { .type = PROTO_PONG };
    r.u.ping = *pg;
    r.u.ping.agent_us = clock_wall_us();
    wire_send(w, &r);
}

static void handshake(struct wire *w, struct proto_msg *m)
{
    static const enum proto_type expect[] = {
        [W_HELLO_WAIT] = PROTO_HELLO, [W_HELLO_SENT] = PROTO_CHALLENGE,
        [W_AUTH_WAIT] = PROTO_AUTH, [W_CHALLENGED] = PROTO_WELCOME, [W_PINGING] = PROTO_PONG,
    };
    if (m->type == PROTO_ERROR) {
        char t[300];
        snprintf(t, sizeof t, "refused by peer: %s", m->u.error);
        w->refused = w->rx_tagged;
        close_now(w, t);
        return;
    }
    if (m->type == PROTO_PING && w->state == W_CHALLENGED) {
        answer_ping(w, &m->u.ping);
        return;
    }
    if (m->type != expect[w->state]) {
        char t[160];
        snprintf(t, sizeof t, "protocol error: expected %s during the handshake, got %s",
                 proto_type_name(expect[w->state]), proto_type_name(m->type));
        wire_close(w, t);
        return;
    }
    switch (w->state) {
    case W_HELLO_WAIT: on_hello(w, m); break;
    case W_AUTH_WAIT: on_auth(w, m); break;
    case W_HELLO_SENT: on_challenge(w, m); break;
    case W_PINGING: on_pong(w, &m->u.ping); break;
    case W_CHALLENGED:
        w->welcome = m->u.welcome;
        become_ready(w);
        break;
    default: break;
    }
}

static void dispatch(struct wire *w, struct proto_msg *m)
{
    if (w->state < W_READY) {
        handshake(w, m);
        return;
    }
    if (m->type == PROTO_HEARTBEAT)
        return;
    if (m->type == PROTO_PING && w->p.role == WIRE_AGENT) {
        answer_ping(w, &m->u.ping);   /* probes are also allowed later */
        return;
    }
    if (m->type == PROTO_ERROR) {
        char t[300];
        snprintf(t, sizeof t, "peer reported: %s", m->u.error);
        w->refused = 1;
        close_now(w, t);
        return;
    }
    if (w->cb.on_msg)
        w->cb.on_msg(w, m, w->cb.arg);
}

/* Checks and strips the tag of one frame (4 + n bytes at f); returns the payload length or -1. */
static long untag(struct wire *w, const uint8_t *f, uint32_t n)
{
    uint8_t want[PROTO_TAG_LEN];
    if (n < 1 + PROTO_TAG_LEN)
        return -1;
    proto_frame_tag(w->key_rx, w->seq_rx++, f, 4 + (size_t)n - PROTO_TAG_LEN, want);
    return proto_tag_equal(want, f + 4 + n - PROTO_TAG_LEN) ? (long)(n - PROTO_TAG_LEN) : -1;
}

static void read_cb(struct bufferevent *bev, void *arg)
{
    struct wire *w = arg;
    struct evbuffer *in = bufferevent_get_input(bev);
    w->depth++;
    w->last_rx_us = clock_now_us();
    while (w->state < W_CLOSING && !w->free_pending) {
        uint8_t hdr[4];
        uint32_t n;
        char err[200];
        if (evbuffer_copyout(in, hdr, 4) < 4)
            break;
        uint32_t max = w->rx_tagged ? w->p.max_frame + PROTO_TAG_LEN : PREAUTH_MAX_FRAME;
        if (proto_frame_header(hdr, max, &n, err, sizeof err) < 0) {
            wire_close(w, err);
            break;
        }
        if (evbuffer_get_length(in) < 4 + (size_t)n)
            break;
        const uint8_t *frame = evbuffer_pullup(in, 4 + (ssize_t)n);
        long plen = frame && w->rx_tagged ? untag(w, frame, n) : (long)n;
        struct proto_msg m;
        int rc = frame && plen >= 0 ? proto_decode(frame + 4, (size_t)plen, &m, err, sizeof err) : -1;
        evbuffer_drain(in, 4 + (size_t)n);
        if (rc < 0 && frame && plen < 0) {
            /* a forged, altered or replayed frame: the link cannot go on (the sequence numbers no
             * longer agree), but nothing says the peer itself is false. Closed without ERROR, so
             * an agent reconnects and resumes as after any broken link. */
            snprintf(err, sizeof err, "message authentication failed (a forged, altered or replayed frame from "
                     "%s)", w->peer);
            close_now(w, err);
            break;
        }
        if (rc < 0) {
            wire_close(w, frame ? err : "out of memory");
            break;
        }
        dispatch(w, &m);
        proto_msg_clear(&m);
    }
    if (--w->depth == 0 && w->free_pending)
        wire_free(w);
}

static void write_cb(struct bufferevent *bev, void *arg)
{
    struct wire *w = arg;
    (void)bev;
    if (w->state == W_CLOSING)
        close_now(w, w->close_reason);
}

/* Agent side with --tls-pin: the controller's certificate must be the pinned one. */
static int pin_mismatch(struct wire *w)
{
    char fp[TLS_FP_LEN] = "(none)";
    SSL *ssl = bufferevent_openssl_get_ssl(w->bev);
    if (!w->pin || !ssl)
        return 0;
    if (tls_peer_fingerprint(ssl, fp) == 0 && tls_fingerprint_equal(fp, w->pin))
        return 0;
    snprintf(w->close_reason, sizeof w->close_reason,
             "TLS: %s presented certificate %s, not the pinned %s", w->peer, fp, w->pin);
    return 1;
}

static void event_cb(struct bufferevent *bev, short what, void *arg)
{
    struct wire *w = arg;
    (void)bev;
    w->depth++;
    if (what & BEV_EVENT_CONNECTED) {
        w->connected = 1;
        if (pin_mismatch(w))
            close_now(w, w->close_reason);
        else if (w->p.role == WIRE_AGENT && w->state == W_HELLO_WAIT)
            send_hello(w);
    } else if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
        char t[256];
        unsigned long ssl_err = bufferevent_get_openssl_error(w->bev);
        if (what & BEV_EVENT_EOF)
            snprintf(t, sizeof t, "connection closed by %s", w->peer);
        else if (ssl_err && (w->connected || ERR_reason_error_string(ssl_err)))
            snprintf(t, sizeof t, "TLS error with %s: %s", w->peer, ERR_reason_error_string(ssl_err) ?
                     ERR_reason_error_string(ssl_err) : "unknown");
        else
            snprintf(t, sizeof t, "connection to %s failed: %s", w->peer,
                     evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
        close_now(w, w->state == W_CLOSING ? w->close_reason : t);
    }
    if (--w->depth == 0 && w->free_pending)
        wire_free(w);
}

static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
    struct wire *w = arg;
    (void)fd;
    (void)what;
    uint64_t now = clock_now_us();
    char t[200];
    w->depth++;
    int preauth = w->p.role == WIRE_CONTROLLER && w->state < W_CLOSING && !w->rx_tagged;
    if (preauth && w->p.auth_ms < w->p.handshake_ms && now - w->born_us > (uint64_t)w->p.auth_ms * 1000) {
        snprintf(t, sizeof t, "%s did not prove the token within %u ms", w->peer, w->p.auth_ms);
        close_now(w, t);
    } else if (w->state < W_READY && now - w->born_us > (uint64_t)w->p.handshake_ms * 1000) {
        snprintf(t, sizeof t, "%s did not complete the handshake within %u ms", w->peer, w->p.handshake_ms);
        close_now(w, t);
    } else if (w->state == W_READY && now - w->last_rx_us > (uint64_t)w->p.timeout_ms * 1000) {
        snprintf(t, sizeof t, "%s silent for %.1f s (heartbeat timeout)", w->peer, (now - w->last_rx_us) / 1e6);
        close_now(w, t);
    } else if (w->state == W_CLOSING && now - w->last_tx_us > 2000000) {
        close_now(w, w->close_reason);   /* the peer does not read: give up flushing */
    } else if (w->state == W_READY && now - w->last_tx_us >= (uint64_t)w->p.heartbeat_ms * 1000) {
        struct proto_msg m = { .type = PROTO_HEARTBEAT };
        m.u.heartbeat_t_us = clock_wall_us();
        wire_send(w, &m);
    }
    if (--w->depth == 0 && w->free_pending)
        wire_free(w);
}

struct wire *wire_new(struct event_base *base, struct bufferevent *bev, const struct wire_params *p,
                      const struct wire_callbacks *cb)
{
    struct wire *w = calloc(1, sizeof *w);
    if (!w)
        goto fail;
    w->base = base;
    w->bev = bev;
    w->p = *p;
    w->cb = *cb;
    if (!w->p.heartbeat_ms)
        w->p.heartbeat_ms = 1000;
    if (!w->p.timeout_ms)
        w->p.timeout_ms = 15000;
    if (!w->p.handshake_ms)
        w->p.handshake_ms = 10000;
    if (!w->p.auth_ms || w->p.auth_ms > w->p.handshake_ms)
        w->p.auth_ms = w->p.handshake_ms;
    if (!w->p.max_frame)
        w->p.max_frame = PROTO_MAX_FRAME;
    if (!w->p.pings)
        w->p.pings = 5;
    w->token = strdup(p->token ? p->token : "");
    w->peer = strdup(p->peer ? p->peer : "peer");
    w->name = strdup(p->name ? p->name : "agent");
    w->pin = p->tls_pin ? strdup(p->tls_pin) : NULL;
    if (p->ticket)
        memcpy(w->ticket, p->ticket, PROTO_TICKET_LEN);
    w->born_us = w->last_rx_us = w->last_tx_us = clock_now_us();
    w->state = W_HELLO_WAIT;
    if (!w->token || !w->peer || !w->name || proto_random(w->my_nonce, PROTO_NONCE_LEN) < 0)
        goto fail;
    w->tick = event_new(base, -1, EV_PERSIST, tick_cb, w);
    struct timeval tv = { 0, 200000 };
    if (!w->tick || event_add(w->tick, &tv) < 0)
        goto fail;
    bufferevent_setcb(bev, read_cb, write_cb, event_cb, w);
    bufferevent_enable(bev, EV_READ | EV_WRITE);
    return w;
fail:
    if (w) {
        w->bev = bev;
        wire_free(w);
    } else {
        bufferevent_free(bev);
    }
    return NULL;
}

static void close_now(struct wire *w, const char *reason)
{
    if (w->state == W_CLOSED)
        return;
    w->state = W_CLOSED;
    bufferevent_disable(w->bev, EV_READ | EV_WRITE);
    if (w->tick)
        event_del(w->tick);
    w->depth++;
    if (w->cb.on_close)
        w->cb.on_close(w, reason, w->cb.arg);
    w->depth--;
    if (w->depth == 0 && w->free_pending)
        wire_free(w);
}

void wire_close(struct wire *w, const char *text)
{
    if (!w || w->state >= W_CLOSING)
        return;
    struct proto_msg m = { .type = PROTO_ERROR };
    m.u.error = (char *)text;
    wire_send(w, &m);
    snprintf(w->close_reason, sizeof w->close_reason, "%s", text);
    w->state = W_CLOSING;
    if (evbuffer_get_length(bufferevent_get_output(w->bev)) == 0)
        close_now(w, w->close_reason);
}

void wire_free(struct wire *w)
{
    if (!w)
        return;
    if (w->depth > 0) {
        w->free_pending = 1;
        w->cb.on_close = NULL;
        w->cb.on_msg = NULL;
        w->cb.on_ready = NULL;
        return;
    }
    if (w->tick)
        event_free(w->tick);
    if (w->bev)
        bufferevent_free(w->bev);
    if (w->token) {
        OPENSSL_cleanse(w->token, strlen(w->token));
        free(w->token);
    }
    free(w->peer);
    free(w->name);
    free(w->pin);
    free(w->hello.name);
    OPENSSL_cleanse(w->key_tx, sizeof w->key_tx);
    OPENSSL_cleanse(w->key_rx, sizeof w->key_rx);
    free(w);
}

int wire_is_ready(const struct wire *w) { return w && w->state == W_READY; }
int wire_refused(const struct wire *w) { return w && w->refused; }
int wire_connected(const struct wire *w) { return w && w->connected; }
void wire_rebind(struct wire *w, void *arg) { w->cb.arg = arg; }

size_t wire_pending_out(const struct wire *w)
{
    return w ? evbuffer_get_length(bufferevent_get_output(w->bev)) : 0;
}

const struct proto_hello *wire_hello(const struct wire *w) { return &w->hello; }
const char *wire_peer(const struct wire *w) { return w->peer; }
const struct proto_welcome *wire_welcome(const struct wire *w) { return &w->welcome; }

unsigned wire_clock(const struct wire *w, int64_t *offset_us, uint32_t *rtt_us)
{
    *offset_us = w->clock_offset_us;
    *rtt_us = w->clock_rtt_us;
    return w->pongs;
}

void wire_start(struct wire *w)
{
    if (w->p.role == WIRE_AGENT && w->state == W_HELLO_WAIT) {
        w->connected = 1;
        send_hello(w);
    }
}

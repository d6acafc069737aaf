/* test_wire.c -- the agent link against a man in the middle who does not know the token: over
 * TLS with an agent that skips pinning (--tls-insecure) the relay tries the nonce-adjusting
 * attack on the channel binding; over plain TCP it relays the handshake honestly and then forges
 * frames. Neither may make the agent send AUTH or obey a CONFIG/START it did not get from the
 * controller. */
#include "unit.h"

#include "common/proto.h"
#include "common/tls.h"
#include "common/wire.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define TOKEN "0123456789abcdef0123456789abcdef-token"

struct end {
    struct wire *w;
    int ready, closed, msgs, refused;
    char reason[300];
};

struct mitm {
    struct bufferevent *to_agent, *to_ctl;
    int tls;
    int saw_auth;
    int forge_welcome;          /* plain: swallow the controller's frames after CHALLENGE, forge WELCOME */
    int challenge_seen;
    int dup_next;               /* repeat the agent's next frame (a replay) */
    int ctl_gone;               /* plain: the controller closed its leg */
    uint8_t hello_nonce[PROTO_NONCE_LEN];
};

struct scene {
    struct event_base *base;
    struct end ctl, agent;
    struct mitm m;
    SSL_CTX *srv_ctx, *cli_ctx;
};

static void end_ready(struct wire *w, void *arg) { (void)w; ((struct end *)arg)->ready = 1; }
static void end_msg(struct wire *w, struct proto_msg *m, void *arg) { (void)w; (void)m; ((struct end *)arg)->msgs++; }
static void end_close(struct wire *w, const char *reason, void *arg)
{
    struct end *e = arg;
    e->closed = 1;
    e->refused = wire_refused(w);
    snprintf(e->reason, sizeof e->reason, "%s", reason);
    wire_free(w);
    e->w = NULL;
}

/* The relay's view of the channel binding of one of its legs (RFC 9266 exporter). */
static void leg_binding(struct bufferevent *bev, uint8_t out[32])
{
    memset(out, 0, 32);
    SSL *ssl = bufferevent_openssl_get_ssl(bev);
    if (ssl)
        SSL_export_keying_material(ssl, out, 32, "EXPORTER-Channel-Binding", 24, NULL, 0, 0);
}

/* Forwards whole frames from `from` to `to`; pre-auth frames are decoded so the relay can play. */
static void relay(struct mitm *m, struct bufferevent *from, struct bufferevent *to)
{
    struct evbuffer *in = bufferevent_get_input(from);
    for (;;) {
        uint8_t hdr[4];
        if (evbuffer_copyout(in, hdr, 4) < 4)
            return;
        size_t n = (size_t)hdr[0] << 24 | (size_t)hdr[1] << 16 | (size_t)hdr[2] << 8 | hdr[3];
        if (evbuffer_get_length(in) < 4 + n)
            return;
        uint8_t *f = evbuffer_pullup(in, (ssize_t)(4 + n));
        struct proto_msg msg;
        char err[200];
        if (proto_decode(f + 4, n, &msg, err, sizeof err) == 0) {
            if (msg.type == PROTO_AUTH && from == m->to_agent)
                m->saw_auth = 1;
            if (msg.type == PROTO_AUTH && m->forge_welcome) {
                struct proto_buf b = { 0 };
                struct proto_msg wm = { .type = PROTO_WELCOME };
                wm.u.welcome.agent_id = 99;
                proto_encode(&b, &wm);
                bufferevent_write(m->to_agent, b.data, b.len);
                proto_buf_free(&b);
            }
            if (msg.type == PROTO_HELLO)
                memcpy(m->hello_nonce, msg.u.hello.nonce, PROTO_NONCE_LEN);
            if (msg.type == PROTO_CHALLENGE && m->tls) {
                /* the attack on a binding mixed into the nonce: Nc' = Nc ^ B(ctl leg) ^ B(agent leg) */
                uint8_t b1[32], b2[32];
                leg_binding(m->to_agent, b1);
                leg_binding(m->to_ctl, b2);
                for (int i = 0; i < 32; i++)
                    f[4 + 1 + 4 + i] ^= b1[i] ^ b2[i];
            }
            proto_msg_clear(&msg);
        }
        int swallow = m->forge_welcome && from == m->to_ctl && m->challenge_seen;
        if (m->forge_welcome && from == m->to_ctl)
            m->challenge_seen = 1;
        if (!swallow)
            bufferevent_write(to, f, 4 + n);
        if (m->dup_next && from == m->to_agent) {
            m->dup_next = 0;
            bufferevent_write(to, f, 4 + n);
        }
        evbuffer_drain(in, 4 + n);
    }
}

static void from_agent(struct bufferevent *bev, void *arg) { struct mitm *m = arg; relay(m, bev, m->to_ctl); }
static void from_ctl(struct bufferevent *bev, void *arg) { struct mitm *m = arg; relay(m, bev, m->to_agent); }

/* The controller closed its leg: the agent's leg is closed too once what was relayed is out. */
static void agent_leg_drained(struct bufferevent *bev, void *arg)
{
    struct mitm *m = arg;
    if (m->ctl_gone)
        shutdown(bufferevent_getfd(bev), SHUT_WR);
}
static void ctl_leg_event(struct bufferevent *bev, short what, void *arg)
{
    struct mitm *m = arg;
    (void)bev;
    if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) || m->tls)
        return;
    m->ctl_gone = 1;
    if (evbuffer_get_length(bufferevent_get_output(m->to_agent)) == 0)
        agent_leg_drained(m->to_agent, m);
}

static struct bufferevent *leg(struct scene *s, int fd, SSL_CTX *ctx, int accepting)
{
    evutil_make_socket_nonblocking(fd);
    if (!ctx)
        return bufferevent_socket_new(s->base, fd, BEV_OPT_CLOSE_ON_FREE);
    return bufferevent_openssl_socket_new(s->base, fd, SSL_new(ctx),
                                          accepting ? BUFFEREVENT_SSL_ACCEPTING : BUFFEREVENT_SSL_CONNECTING,
                                          BEV_OPT_CLOSE_ON_FREE);
}

static void scene_open(struct scene *s, int tls)
{
    int a[2], c[2];
    char fp[TLS_FP_LEN], e[200];
    memset(s, 0, sizeof *s);
    s->base = event_base_new();
    CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, a), 0);
    CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, c), 0);
    if (tls) {
        s->srv_ctx = tls_server_ctx(fp, e, sizeof e);   /* the relay and the controller each have a cert */
        s->cli_ctx = tls_client_ctx(e, sizeof e);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s->srv_ctx);
    }
    SSL_CTX *mitm_srv = tls ? tls_server_ctx(fp, e, sizeof e) : NULL;
    struct wire_params cp = { .role = WIRE_CONTROLLER, .token = TOKEN, .peer = "agent", .agent_id = 3 };
    struct wire_params ap = { .role = WIRE_AGENT, .token = TOKEN, .peer = "controller", .name = "victim",
                              .capacity = 5 };
    struct wire_callbacks ccb = { &s->ctl, end_ready, end_msg, end_close };
    struct wire_callbacks acb = { &s->agent, end_ready, end_msg, end_close };
    s->ctl.w = wire_new(s->base, leg(s, c[1], s->srv_ctx, 1), &cp, &ccb);
    s->agent.w = wire_new(s->base, leg(s, a[0], s->cli_ctx, 0), &ap, &acb);
    s->m.tls = tls;
    s->m.to_agent = leg(s, a[1], mitm_srv, 1);
    s->m.to_ctl = leg(s, c[0], s->cli_ctx, 0);
    SSL_CTX_free(mitm_srv);   /* the SSL objects keep their own reference */
    bufferevent_setcb(s->m.to_agent, from_agent, agent_leg_drained, NULL, &s->m);
    bufferevent_setcb(s->m.to_ctl, from_ctl, NULL, ctl_leg_event, &s->m);
    bufferevent_enable(s->m.to_agent, EV_READ | EV_WRITE);
    bufferevent_enable(s->m.to_ctl, EV_READ | EV_WRITE);
    wire_start(s->agent.w);
}

static void scene_close(struct scene *s)
{
    wire_free(s->ctl.w);
    wire_free(s->agent.w);
    bufferevent_free(s->m.to_agent);
    bufferevent_free(s->m.to_ctl);
    SSL_CTX_free(s->srv_ctx);
    SSL_CTX_free(s->cli_ctx);
    event_base_free(s->base);
}

static void spin(struct scene *s, int ms, int (*done)(struct scene *))
{
    for (int i = 0; i < ms / 10 && !(done && done(s)); i++) {
        struct timeval tv = { 0, 10000 };
        event_base_loopexit(s->base, &tv);
        event_base_dispatch(s->base);
    }
}

static int agent_settled(struct scene *s) { return s->agent.closed || (s->agent.ready && s->ctl.ready); }
static int agent_closed(struct scene *s) { return s->agent.closed; }

static void show(const struct scene *s)
{
    if (getenv("TEST_VERBOSE"))
        fprintf(stderr, "\n  agent: %s\n  controller: %s\n", s->agent.reason, s->ctl.reason);
}

/* --tls-insecure and a relay with its own certificate: the agent refuses the relayed challenge
 * and never sends AUTH, so the controller never admits it and nothing reaches the agent. */
static void test_wire__tls_relay_cannot_hijack_insecure_agent(void)
{
    struct scene s;
    scene_open(&s, 1);
    spin(&s, 3000, agent_settled);
    CU_ASSERT(s.agent.closed);
    CU_ASSERT(!s.agent.ready);
    CU_ASSERT_EQUAL(s.m.saw_auth, 0);
    CU_ASSERT(!s.ctl.ready);
    CU_ASSERT_EQUAL(s.agent.msgs, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.agent.reason, "authentication failed"));
    show(&s);
    scene_close(&s);
}

/* Plain TCP: the relay passes the handshake through (it can), then forges a START to the agent
 * with a made-up tag. The agent drops the link instead of obeying. */
static void test_wire__forged_frame_after_handshake_is_refused(void)
{
    struct scene s;
    scene_open(&s, 0);
    spin(&s, 3000, agent_settled);
    CU_ASSERT_FATAL(s.agent.ready && s.ctl.ready);
    struct proto_buf b = { 0 };
    struct proto_msg st = { .type = PROTO_START };
    st.u.start = (struct proto_start){ .index = 1, .user = "attacker", .password = "attackers-pw", .seed = 1 };
    proto_encode(&b, &st);
    uint8_t tag[PROTO_TAG_LEN] = { 0 };
    uint32_t n = (uint32_t)b.len - 4 + PROTO_TAG_LEN;
    b.data[0] = (uint8_t)(n >> 24); b.data[1] = (uint8_t)(n >> 16); b.data[2] = (uint8_t)(n >> 8); b.data[3] = (uint8_t)n;
    bufferevent_write(s.m.to_agent, b.data, b.len);
    bufferevent_write(s.m.to_agent, tag, sizeof tag);
    proto_buf_free(&b);
    spin(&s, 3000, agent_closed);
    CU_ASSERT(s.agent.closed);
    CU_ASSERT_EQUAL(s.agent.msgs, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.agent.reason, "message authentication failed"));
    show(&s);
    scene_close(&s);
}

static int both_closed(struct scene *s) { return s->agent.closed && s->ctl.closed; }

/* Plain TCP: the relay replays one of the agent's frames after the handshake. The controller drops
 * it and closes the link, but as a broken link, not a refusal: the agent would reconnect and
 * resume instead of exiting. */
static void test_wire__replayed_frame_costs_the_link_not_the_agent(void)
{
    struct scene s;
    scene_open(&s, 0);
    spin(&s, 3000, agent_settled);
    CU_ASSERT_FATAL(s.agent.ready && s.ctl.ready);
    s.m.dup_next = 1;
    struct proto_msg hb = { .type = PROTO_HEARTBEAT };
    wire_send(s.agent.w, &hb);
    spin(&s, 5000, both_closed);
    CU_ASSERT(s.ctl.closed);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.ctl.reason, "message authentication failed"));
    CU_ASSERT(s.agent.closed);
    CU_ASSERT_EQUAL(s.agent.refused, 0);   /* no ERROR: the agent's link.c reconnects */
    CU_ASSERT_PTR_NULL(strstr(s.agent.reason, "refused"));
    show(&s);
    scene_close(&s);
}

/* Plain TCP: a WELCOME-sized frame injected before the real WELCOME (an untagged forgery as the
 * old protocol would have accepted) fails the tag check. */
static void test_wire__forged_welcome_is_refused(void)
{
    struct scene s;
    scene_open(&s, 0);
    s.m.forge_welcome = 1;
    spin(&s, 3000, agent_closed);
    CU_ASSERT(!s.agent.ready);
    CU_ASSERT(s.agent.closed);
    show(&s);
    scene_close(&s);
}

/* Controller and agent ends connected directly over TLS through a socket pair (no relay); returns
 * once the agent is ready or closed. */
static void direct_open(struct scene *s)
{
    int fds[2];
    char fp[TLS_FP_LEN], e[200];
    memset(s, 0, sizeof *s);
    s->base = event_base_new();
    CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    s->srv_ctx = tls_server_ctx(fp, e, sizeof e);
    s->cli_ctx = tls_client_ctx(e, sizeof e);
    struct wire_params cp = { .role = WIRE_CONTROLLER, .token = TOKEN, .peer = "agent", .agent_id = 3 };
    struct wire_params ap = { .role = WIRE_AGENT, .token = TOKEN, .peer = "controller", .name = "a", .tls_pin = fp };
    struct wire_callbacks ccb = { &s->ctl, end_ready, end_msg, end_close };
    struct wire_callbacks acb = { &s->agent, end_ready, end_msg, end_close };
    s->ctl.w = wire_new(s->base, leg(s, fds[1], s->srv_ctx, 1), &cp, &ccb);
    s->agent.w = wire_new(s->base, leg(s, fds[0], s->cli_ctx, 0), &ap, &acb);
    wire_start(s->agent.w);
    spin(s, 3000, agent_settled);
}

static void direct_close(struct scene *s)
{
    wire_free(s->ctl.w);
    wire_free(s->agent.w);
    SSL_CTX_free(s->srv_ctx);
    SSL_CTX_free(s->cli_ctx);
    event_base_free(s->base);
}

/* The same ends connected directly over TLS (no relay): authenticated, probed, ready. */
static void test_wire__direct_tls_link(void)
{
    struct scene s;
    direct_open(&s);
    CU_ASSERT(s.agent.ready && s.ctl.ready);
    CU_ASSERT_EQUAL(wire_welcome(s.agent.w)->agent_id, 3);
    show(&s);
    direct_close(&s);
}

static int agent_got_msg(struct scene *s) { return s->agent.msgs > 0 || s->agent.closed; }

/* The largest frame the encoder accepts must reach the peer: after AUTH the receiver counts the
 * 16-byte tag in the length, and the encoder's limit must leave room for it. A CONFIG whose
 * payload is exactly PROTO_MAX_FRAME is delivered; one byte more is refused by the encoder. */
static void test_wire__largest_frame_passes(void)
{
    struct scene s;
    direct_open(&s);
    CU_ASSERT_FATAL(s.agent.ready && s.ctl.ready);

    /* size the workload text so the CONFIG payload is exactly PROTO_MAX_FRAME */
    struct proto_msg m = { .type = PROTO_CONFIG };
    struct proto_buf b = { 0 };
    m.u.config.workload_text = "";
    CU_ASSERT_EQUAL_FATAL(proto_encode(&b, &m), 0);
    size_t empty = b.len - 4;
    proto_buf_free(&b);
    size_t tlen = PROTO_MAX_FRAME - empty;
    char *text = malloc(tlen + 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    memset(text, 'x', tlen + 1);
    text[tlen + 1] = '\0';
    m.u.config.workload_text = text;                     /* one byte too many */
    CU_ASSERT_EQUAL(proto_encode(&b, &m), -1);
    CU_ASSERT_EQUAL(wire_send(s.ctl.w, &m), -1);
    text[tlen] = '\0';                                    /* exactly the limit */
    CU_ASSERT_EQUAL(proto_encode(&b, &m), 0);
    CU_ASSERT_EQUAL(b.len - 4, PROTO_MAX_FRAME);
    proto_buf_free(&b);
    CU_ASSERT_EQUAL(wire_send(s.ctl.w, &m), 0);
    spin(&s, 10000, agent_got_msg);
    CU_ASSERT_EQUAL(s.agent.msgs, 1);
    CU_ASSERT(!s.agent.closed);
    if (s.agent.closed)
        fprintf(stderr, "\n  agent closed: %s\n", s.agent.reason);
    free(text);
    direct_close(&s);
}

static int ctl_closed(struct scene *s) { return s->ctl.closed; }

/* A name with control characters (or anything outside the plan-name set) is refused at HELLO,
 * before it can reach a log line, the console or a report. */
static void test_wire__unsafe_agent_name_is_refused(void)
{
    static const char *const names[] = { "evil\x1b[31m", "two\r\nlines", "a b", "" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct scene s;
        int fds[2];
        memset(&s, 0, sizeof s);
        s.base = event_base_new();
        CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
        struct wire_params cp = { .role = WIRE_CONTROLLER, .token = TOKEN, .peer = "agent", .agent_id = 3 };
        struct wire_params ap = { .role = WIRE_AGENT, .token = TOKEN, .peer = "controller", .name = names[i] };
        struct wire_callbacks ccb = { &s.ctl, end_ready, end_msg, end_close };
        struct wire_callbacks acb = { &s.agent, end_ready, end_msg, end_close };
        s.ctl.w = wire_new(s.base, leg(&s, fds[1], NULL, 1), &cp, &ccb);
        s.agent.w = wire_new(s.base, leg(&s, fds[0], NULL, 0), &ap, &acb);
        wire_start(s.agent.w);
        spin(&s, 3000, both_closed);
        CU_ASSERT(!s.ctl.ready);
        CU_ASSERT_PTR_NOT_NULL(strstr(s.ctl.reason, "agent name refused"));
        CU_ASSERT_PTR_NOT_NULL(strstr(s.agent.reason, "agent name refused"));
        show(&s);
        wire_free(s.ctl.w);
        wire_free(s.agent.w);
        event_base_free(s.base);
    }
}

/* A peer that connects and says nothing is closed at the pre-auth deadline (auth_ms), long before
 * the whole handshake's limit. */
static void test_wire__silent_peer_closed_at_the_auth_deadline(void)
{
    struct scene s;
    int fds[2];
    memset(&s, 0, sizeof s);
    s.base = event_base_new();
    CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    struct wire_params cp = { .role = WIRE_CONTROLLER, .token = TOKEN, .peer = "silent", .auth_ms = 300,
                              .handshake_ms = 60000 };
    struct wire_callbacks ccb = { &s.ctl, end_ready, end_msg, end_close };
    s.ctl.w = wire_new(s.base, leg(&s, fds[1], NULL, 1), &cp, &ccb);
    spin(&s, 5000, ctl_closed);
    CU_ASSERT(s.ctl.closed);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.ctl.reason, "did not prove the token within 300 ms"));
    show(&s);
    close(fds[0]);
    wire_free(s.ctl.w);
    event_base_free(s.base);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_wire__tls_relay_cannot_hijack_insecure_agent),
        UNIT_TEST(test_wire__forged_frame_after_handshake_is_refused),
        UNIT_TEST(test_wire__forged_welcome_is_refused),
        UNIT_TEST(test_wire__replayed_frame_costs_the_link_not_the_agent),
        UNIT_TEST(test_wire__direct_tls_link),
        UNIT_TEST(test_wire__largest_frame_passes),
        UNIT_TEST(test_wire__silent_peer_closed_at_the_auth_deadline),
        UNIT_TEST(test_wire__unsafe_agent_name_is_refused),
        UNIT_END,
    };
    return unit_run("wire", tests, NULL, NULL);
}

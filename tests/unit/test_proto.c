/* test_proto.c -- the agent link protocol: message round trips, batched records, refusal of
 * oversized frames, garbage and truncation, and the authenticated wire over socketpairs (right
 * token, wrong token, oversized frame, garbage, silent peer). */
#include "unit.h"

#include "common/proto.h"
#include "common/proto_auth.h"
#include "common/wire.h"

#include <event2/bufferevent.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static char err[256];

/* Encodes m, decodes it back into out; 0 on success. */
static int roundtrip(const struct proto_msg *m, struct proto_msg *out)
{
    struct proto_buf b = { 0 };
    uint32_t n = 0;
    int rc = proto_encode(&b, m);
    if (rc == 0)
        rc = proto_frame_header(b.data, PROTO_MAX_FRAME, &n, err, sizeof err);
    if (rc == 0 && n + 4 != b.len)
        rc = -1;
    if (rc == 0)
        rc = proto_decode(b.data + 4, n, out, err, sizeof err);
    proto_buf_free(&b);
    return rc;
}

static void test_proto__roundtrip_control_messages(void)
{
    struct proto_msg m = { .type = PROTO_HELLO }, o;
    m.u.hello.version = PROTO_VERSION;
    m.u.hello.name = "agent-1";
    m.u.hello.capacity = 120;
    m.u.hello.pid = 4242;
    memset(m.u.hello.nonce, 0xA5, PROTO_NONCE_LEN);
    CU_ASSERT_EQUAL_FATAL(roundtrip(&m, &o), 0);
    CU_ASSERT_EQUAL(o.type, PROTO_HELLO);
    CU_ASSERT_STRING_EQUAL(o.u.hello.name, "agent-1");
    CU_ASSERT_EQUAL(o.u.hello.capacity, 120);
    CU_ASSERT_EQUAL(o.u.hello.pid, 4242);
    CU_ASSERT_EQUAL(memcmp(o.u.hello.nonce, m.u.hello.nonce, PROTO_NONCE_LEN), 0);
    proto_msg_clear(&o);

    struct proto_msg c = { .type = PROTO_CONFIG };
    c.u.config = (struct proto_config){ .host = "10.0.0.5", .port = 3389, .fingerprint = "sha256:AA", .no_verify = 0,
                                        .security = "nla", .domain = "", .gateway_host = "", .gateway_port = 0,
                                        .workload_name = "w", .workload_text = "version: 1\n",
                                        .connect_timeout_ms = 30000, .traffic_interval_ms = 5000,
                                        .health_interval_ms = 2000 };
    CU_ASSERT_EQUAL_FATAL(roundtrip(&c, &o), 0);
    CU_ASSERT_STRING_EQUAL(o.u.config.host, "10.0.0.5");
    CU_ASSERT_EQUAL(o.u.config.port, 3389);
    CU_ASSERT_STRING_EQUAL(o.u.config.security, "nla");
    CU_ASSERT_STRING_EQUAL(o.u.config.domain, "");
    CU_ASSERT_STRING_EQUAL(o.u.config.workload_text, "version: 1\n");
    CU_ASSERT_EQUAL(o.u.config.health_interval_ms, 2000);
    proto_msg_clear(&o);

    struct proto_msg s = { .type = PROTO_START };
    s.u.start = (struct proto_start){ .index = 7, .user = "simuser008", .password = "pw", .seed = 1ull << 40 };
    CU_ASSERT_EQUAL_FATAL(roundtrip(&s, &o), 0);
    CU_ASSERT_EQUAL(o.u.start.index, 7);
    CU_ASSERT_STRING_EQUAL(o.u.start.user, "simuser008");
    CU_ASSERT_STRING_EQUAL(o.u.start.password, "pw");
    CU_ASSERT_EQUAL(o.u.start.seed, 1ull << 40);
    proto_msg_clear(&o);

    struct proto_msg a = { .type = PROTO_ACK };
    a.u.ack_seq = 0xFFFFFFFF01ull;
    CU_ASSERT_EQUAL_FATAL(roundtrip(&a, &o), 0);
    CU_ASSERT_EQUAL(o.u.ack_seq, 0xFFFFFFFF01ull);
    proto_msg_clear(&o);
}

static void fill_records(struct proto_record r[4])
{
    memset(r, 0, 4 * sizeof *r);
    r[0].kind = PROTO_REC_SAMPLE;
    r[0].u.sample = (struct rec_sample){ .session = 3, .loop = 2, .t_us = 1700000000000000ull,
                                         .value_us = -5, .ok = 1, .is_measure = 1 };
    strcpy(r[0].u.sample.name, "vsi");
    r[1].kind = PROTO_REC_SESSION;
    r[1].u.session = (struct rec_session){ .session = 3, .t_us = 9, .kind = SESSION_FAILED, .value_us = 0,
                                           .reason = FAIL_WAIT_TIMEOUT };
    strcpy(r[1].u.session.user, "simuser004");
    strcpy(r[1].u.session.detail, "until app_start: 15 s");
    r[2].kind = PROTO_REC_TRAFFIC;
    r[2].u.traffic = (struct rec_traffic){ 3, 10, 1u << 31, 5, 6, 7, 800, 99, 1000, 12, 3000, 0 };
    r[3].kind = PROTO_REC_HEALTH;
    r[3].u.health = (struct rec_health){ 11, 30, 2, 100, 2000, 9000, 850, 123456, { 0, 0, 0, 0, 0, 0 }, 0,
                                         0, 0, 0, 0, 0, 0 };
}

/* Ends the RECORDS frame being built in b and decodes it into out; the test stops unless it decodes. */
static void end_and_decode(struct proto_buf *b, struct proto_msg *out)
{
    uint32_t n;
    proto_records_end(b);
    CU_ASSERT_EQUAL_FATAL(proto_frame_header(b->data, PROTO_MAX_FRAME, &n, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(proto_decode(b->data + 4, n, out, err, sizeof err), 0);
}

static void test_proto__records_batch(void)
{
    struct proto_record r[4];
    fill_records(r);
    struct proto_buf b = { 0 };
    CU_ASSERT_EQUAL(proto_records_begin(&b, 77), 0);
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(proto_records_add(&b, &r[i]), 0);
    CU_ASSERT_EQUAL(proto_records_open_count(&b), 4);
    struct proto_msg o;
    end_and_decode(&b, &o);
    CU_ASSERT_EQUAL(o.u.records.seq, 77);
    CU_ASSERT_EQUAL_FATAL(o.u.records.count, 4);
    CU_ASSERT_EQUAL(memcmp(&o.u.records.recs[0].u.sample, &r[0].u.sample, sizeof r[0].u.sample), 0);
    CU_ASSERT_STRING_EQUAL(o.u.records.recs[1].u.session.detail, "until app_start: 15 s");
    CU_ASSERT_EQUAL(o.u.records.recs[1].u.session.reason, FAIL_WAIT_TIMEOUT);
    CU_ASSERT_EQUAL(o.u.records.recs[2].u.traffic.bytes_in, 1u << 31);
    CU_ASSERT_EQUAL(o.u.records.recs[3].u.health.rss_kb, 123456);
    proto_msg_clear(&o);
    proto_buf_free(&b);
}

/* health_ext (sent when CONFIG ext_costs asks) carries the external clients' costs; plain
 * health leaves them out on the wire, so they decode as 0. */
static void test_proto__health_ext(void)
{
    struct proto_record r[2] = { { .kind = PROTO_REC_HEALTH_EXT }, { .kind = PROTO_REC_HEALTH } };
    r[0].u.health = (struct rec_health){ 11, 30, 2, 100, 2000, 9000, 850, 123456,
                                         { 5, 66, 1u << 20, 75000, 115000, 74000 }, 0, 0, 0, 0, 0, 0, 0 };
    r[1].u.health = r[0].u.health;
    struct proto_buf b = { 0 };
    CU_ASSERT_EQUAL(proto_records_begin(&b, 1), 0);
    CU_ASSERT_EQUAL(proto_records_add(&b, &r[0]), 0);
    CU_ASSERT_EQUAL(proto_records_add(&b, &r[1]), 0);
    struct proto_msg o;
    end_and_decode(&b, &o);
    CU_ASSERT_EQUAL_FATAL(o.u.records.count, 2);
    CU_ASSERT_EQUAL(o.u.records.recs[0].kind, PROTO_REC_HEALTH_EXT);
    CU_ASSERT_EQUAL(memcmp(&o.u.records.recs[0].u.health, &r[0].u.health, sizeof r[0].u.health), 0);
    CU_ASSERT_EQUAL(o.u.records.recs[1].u.health.rss_kb, 123456);
    CU_ASSERT_EQUAL(o.u.records.recs[1].u.health.ext.sessions, 0);
    CU_ASSERT_EQUAL(o.u.records.recs[1].u.health.ext.client_pss_kb, 0);
    proto_msg_clear(&o);
    proto_buf_free(&b);
}

/* sample_agent and health_sched (sent when CONFIG agent_share asks) carry the agent's share of a
 * sample and the scheduler figures; plain sample and health leave them out, so they decode as 0. */
static void test_proto__agent_share(void)
{
    struct proto_record r[4] = { { .kind = PROTO_REC_SAMPLE_AGENT }, { .kind = PROTO_REC_SAMPLE },
                                 { .kind = PROTO_REC_HEALTH_SCHED }, { .kind = PROTO_REC_HEALTH } };
    r[0].u.sample = (struct rec_sample){ .session = 1, .value_us = 900000, .ok = 1, .is_measure = 1,
                                         .has_agent = 1, .agent_us = 41000 };
    strcpy(r[0].u.sample.name, "vsi");
    r[1].u.sample = r[0].u.sample;
    r[2].u.health = (struct rec_health){ .t_us = 11, .sessions_active = 20, .ext_capacity = 3, .has_sched = 1,
                                         .loop_cpu_permille = 640, .loop_delay_permille = 310,
                                         .delay_permille = 330, .loop_wakeups = 4000,
                                         .throttled_permille = 250 };
    r[3].u.health = r[2].u.health;
    struct proto_buf b = { 0 };
    CU_ASSERT_EQUAL(proto_records_begin(&b, 1), 0);
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(proto_records_add(&b, &r[i]), 0);
    struct proto_msg o;
    end_and_decode(&b, &o);
    CU_ASSERT_EQUAL_FATAL(o.u.records.count, 4);
    const struct proto_record *d = o.u.records.recs;
    CU_ASSERT_EQUAL(d[0].kind, PROTO_REC_SAMPLE_AGENT);
    CU_ASSERT_EQUAL(memcmp(&d[0].u.sample, &r[0].u.sample, sizeof r[0].u.sample), 0);
    CU_ASSERT_EQUAL(d[1].u.sample.has_agent, 0);
    CU_ASSERT_EQUAL(d[1].u.sample.agent_us, 0);
    CU_ASSERT_EQUAL(d[2].kind, PROTO_REC_HEALTH_SCHED);
    CU_ASSERT_EQUAL(memcmp(&d[2].u.health, &r[2].u.health, sizeof r[2].u.health), 0);
    CU_ASSERT_EQUAL(d[3].u.health.has_sched, 0);
    CU_ASSERT_EQUAL(d[3].u.health.loop_delay_permille, 0);
    proto_msg_clear(&o);
    proto_buf_free(&b);
}

/* health_cap (sent when CONFIG ext_capacity asks) carries the costs and the capacity they allow;
 * health_ext leaves the capacity out on the wire, so it decodes as 0. */
static void test_proto__health_cap(void)
{
    struct proto_record r[2] = { { .kind = PROTO_REC_HEALTH_CAP }, { .kind = PROTO_REC_HEALTH_EXT } };
    r[0].u.health = (struct rec_health){ .t_us = 11, .ext.sessions = 5, .ext.client_pss_kb = 75000,
                                         .ext.xserver_pss_kb = 74000, .ext_capacity = 41 };
    r[1].u.health = r[0].u.health;
    struct proto_buf b = { 0 };
    CU_ASSERT_EQUAL(proto_records_begin(&b, 1), 0);
    CU_ASSERT_EQUAL(proto_records_add(&b, &r[0]), 0);
    CU_ASSERT_EQUAL(proto_records_add(&b, &r[1]), 0);
    proto_records_end(&b);
    struct proto_msg o;
    uint32_t n;
    CU_ASSERT_EQUAL_FATAL(proto_frame_header(b.data, PROTO_MAX_FRAME, &n, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(proto_decode(b.data + 4, n, &o, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(o.u.records.count, 2);
    CU_ASSERT_EQUAL(o.u.records.recs[0].kind, PROTO_REC_HEALTH_CAP);
    CU_ASSERT_EQUAL(o.u.records.recs[0].u.health.ext_capacity, 41);
    CU_ASSERT_EQUAL(o.u.records.recs[0].u.health.ext.xserver_pss_kb, 74000);
    CU_ASSERT_EQUAL(o.u.records.recs[1].u.health.ext.sessions, 5);
    CU_ASSERT_EQUAL(o.u.records.recs[1].u.health.ext_capacity, 0);
    proto_msg_clear(&o);
    proto_buf_free(&b);
}

/* logon (sent when CONFIG logon_phases asks) carries every phase, -1 included; traffic_rtt (CONFIG
 * min_rtt) adds the minimum RTT that plain traffic leaves out on the wire (it decodes as 0). */
static void test_proto__logon_and_traffic_rtt(void)
{
    struct proto_record r[3] = { { .kind = PROTO_REC_LOGON }, { .kind = PROTO_REC_TRAFFIC_RTT },
                                 { .kind = PROTO_REC_TRAFFIC } };
    r[0].u.logon = (struct rec_logon){ .session = 7, .t_us = 1700000000000000ull,
                                       .phase_us = { 120000, 60, -1, 600000, 3000, 15000 } };
    r[1].u.traffic = (struct rec_traffic){ .session = 7, .t_us = 5, .rtt_us = 15000, .min_rtt_us = 35 };
    r[2].u.traffic = r[1].u.traffic;
    struct proto_buf b = { 0 };
    CU_ASSERT_EQUAL(proto_records_begin(&b, 1), 0);
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(proto_records_add(&b, &r[i]), 0);
    struct proto_msg o;
    end_and_decode(&b, &o);
    CU_ASSERT_EQUAL_FATAL(o.u.records.count, 3);
    CU_ASSERT_EQUAL(o.u.records.recs[0].kind, PROTO_REC_LOGON);
    CU_ASSERT_EQUAL(memcmp(&o.u.records.recs[0].u.logon, &r[0].u.logon, sizeof r[0].u.logon), 0);
    CU_ASSERT_EQUAL(o.u.records.recs[1].u.traffic.min_rtt_us, 35);
    CU_ASSERT_EQUAL(o.u.records.recs[1].u.traffic.rtt_us, 15000);
    CU_ASSERT_EQUAL(o.u.records.recs[2].u.traffic.min_rtt_us, 0);
    CU_ASSERT_EQUAL(o.u.records.recs[2].u.traffic.rtt_us, 15000);
    proto_msg_clear(&o);
    proto_buf_free(&b);
}

/* A logon phase below -1 (the only negative value: not measured) is an error. */
static void test_proto__logon_bad_phase(void)
{
    struct proto_record r = { .kind = PROTO_REC_LOGON };
    r.u.logon = (struct rec_logon){ .session = 1, .t_us = 2, .phase_us = { 1, 2, 3, -2, 5, 6 } };
    struct proto_buf b = { 0 };
    CU_ASSERT_EQUAL(proto_records_begin(&b, 1), 0);
    CU_ASSERT_EQUAL(proto_records_add(&b, &r), 0);
    proto_records_end(&b);
    struct proto_msg o;
    uint32_t n;
    CU_ASSERT_EQUAL_FATAL(proto_frame_header(b.data, PROTO_MAX_FRAME, &n, err, sizeof err), 0);
    CU_ASSERT_EQUAL(proto_decode(b.data + 4, n, &o, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad logon phase"));
    proto_buf_free(&b);
}

/* A RECORDS frame fills up at PROTO_MAX_FRAME: add refuses, the frame stays valid. */
static void test_proto__records_frame_limit(void)
{
    struct proto_record r[4];
    fill_records(r);
    struct proto_buf b = { 0 };
    proto_records_begin(&b, 1);
    uint32_t added = 0;
    while (proto_records_add(&b, &r[0]) == 0)
        added++;
    proto_records_end(&b);
    CU_ASSERT(b.len - 4 <= PROTO_MAX_FRAME);
    CU_ASSERT(added > 10000);
    struct proto_msg o;
    CU_ASSERT_EQUAL(proto_parse_stream(b.data, b.len, PROTO_MAX_FRAME, NULL, NULL, err, sizeof err), (long)b.len);
    CU_ASSERT_EQUAL(proto_decode(b.data + 4, b.len - 4, &o, err, sizeof err), 0);
    CU_ASSERT_EQUAL(o.u.records.count, added);
    proto_msg_clear(&o);
    proto_buf_free(&b);
}

static void test_proto__refuses_bad_frames(void)
{
    uint8_t big[4] = { 0x00, 0x10, 0x00, 0x01 };   /* 1 MiB + 1 */
    uint32_t n;
    CU_ASSERT_EQUAL(proto_frame_header(big, PROTO_MAX_FRAME, &n, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "frame of 1048577 bytes exceeds the limit of 1048576");
    uint8_t zero[4] = { 0 };
    CU_ASSERT_EQUAL(proto_frame_header(zero, PROTO_MAX_FRAME, &n, err, sizeof err), -1);

    struct proto_msg o;
    uint8_t unknown[] = { 99, 1, 2 };
    CU_ASSERT_EQUAL(proto_decode(unknown, sizeof unknown, &o, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "bad unknown message: unknown message type");
    uint8_t trunc[] = { PROTO_ACK, 0, 0, 0 };
    CU_ASSERT_EQUAL(proto_decode(trunc, sizeof trunc, &o, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "bad ack message: truncated");
    uint8_t trailing[] = { PROTO_STOP, 0, 0, 0, 1, 9 };
    CU_ASSERT_EQUAL(proto_decode(trailing, sizeof trailing, &o, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "bad stop message: trailing bytes");
    uint8_t longstr[] = { PROTO_ERROR, 0xFF, 0xFF, 0xFF, 0xF0, 'x' };
    CU_ASSERT_EQUAL(proto_decode(longstr, sizeof longstr, &o, err, sizeof err), -1);
    uint8_t manyrecs[] = { PROTO_RECORDS, 0, 0, 0, 0, 0, 0, 0, 1, 0x7F, 0xFF, 0xFF, 0xFF };
    CU_ASSERT_EQUAL(proto_decode(manyrecs, sizeof manyrecs, &o, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "bad records message: record count larger than the frame");
    uint8_t nul[] = { PROTO_ERROR, 0, 0, 0, 2, 'a', 0 };
    CU_ASSERT_EQUAL(proto_decode(nul, sizeof nul, &o, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "bad error message: NUL inside a string");
    /* garbage: every prefix length and a pseudo-random stream must fail cleanly or decode */
    uint8_t junk[512];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 16);
    for (size_t len = 0; len < sizeof junk; len++)
        if (proto_decode(junk, len, &o, err, sizeof err) == 0)
            proto_msg_clear(&o);
}

static void test_proto__mac(void)
{
    uint8_t a[PROTO_NONCE_LEN], b[PROTO_NONCE_LEN], m1[PROTO_MAC_LEN], m2[PROTO_MAC_LEN];
    CU_ASSERT_EQUAL(proto_random(a, sizeof a), 0);
    CU_ASSERT_EQUAL(proto_random(b, sizeof b), 0);
    proto_auth_mac("token", PROTO_LABEL_CTL, a, b, m1);
    proto_auth_mac("token", PROTO_LABEL_CTL, a, b, m2);
    CU_ASSERT(proto_mac_equal(m1, m2));
    proto_auth_mac("tokeN", PROTO_LABEL_CTL, a, b, m2);
    CU_ASSERT(!proto_mac_equal(m1, m2));
    proto_auth_mac("token", PROTO_LABEL_AGENT, a, b, m2);
    CU_ASSERT(!proto_mac_equal(m1, m2));
    /* the binding is concatenated, not mixed in: the same XOR applied to transcript and binding
     * (what a relay could arrange when the binding was XOR-ed into a nonce) changes the MAC */
    uint8_t a2[PROTO_NONCE_LEN], b2[PROTO_NONCE_LEN];
    for (int i = 0; i < PROTO_NONCE_LEN; i++) {
        a2[i] = a[i] ^ 0x5a;
        b2[i] = b[i] ^ 0x5a;
    }
    proto_auth_mac("token", PROTO_LABEL_CTL, a2, b2, m2);
    CU_ASSERT(!proto_mac_equal(m1, m2));
    /* frame tags depend on key, sequence number and every byte */
    uint8_t frame[9] = { 0, 0, 0, 21, PROTO_ACK, 0, 0, 0, 1 }, t1[PROTO_TAG_LEN], t2[PROTO_TAG_LEN];
    proto_frame_tag(m1, 0, frame, sizeof frame, t1);
    proto_frame_tag(m1, 0, frame, sizeof frame, t2);
    CU_ASSERT(proto_tag_equal(t1, t2));
    proto_frame_tag(m1, 1, frame, sizeof frame, t2);
    CU_ASSERT(!proto_tag_equal(t1, t2));
    frame[8] = 2;
    proto_frame_tag(m1, 0, frame, sizeof frame, t2);
    CU_ASSERT(!proto_tag_equal(t1, t2));
    char k1[65], k2[65];
    CU_ASSERT_EQUAL(proto_new_token(k1), 0);
    CU_ASSERT_EQUAL(proto_new_token(k2), 0);
    CU_ASSERT_EQUAL(strlen(k1), 64);
    CU_ASSERT(strcmp(k1, k2) != 0);
}

/* --- the wire over a socketpair ------------------------------------------------------------ */

struct side {
    struct wire *w;
    int ready, closed, msgs;
    char reason[256];
    uint32_t last_stop;
    struct event_base *base;
};

static void on_ready(struct wire *w, void *arg)
{
    struct side *s = arg;
    (void)w;
    s->ready = 1;
}

static void on_msg(struct wire *w, struct proto_msg *m, void *arg)
{
    struct side *s = arg;
    (void)w;
    s->msgs++;
    if (m->type == PROTO_STOP)
        s->last_stop = m->u.stop_deadline_ms;
}

static void on_close(struct wire *w, const char *reason, void *arg)
{
    struct side *s = arg;
    s->closed = 1;
    snprintf(s->reason, sizeof s->reason, "%s", reason);
    wire_free(w);
    s->w = NULL;
}

static void stop_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    event_base_loopbreak(arg);
}

/* Runs the loop until cond() or about `ms` milliseconds. */
static void spin(struct event_base *base, int ms, int (*cond)(void *), void *arg)
{
    for (int i = 0; i < ms / 10 && !(cond && cond(arg)); i++) {
        struct timeval tv = { 0, 10000 };
        event_base_once(base, -1, EV_TIMEOUT, stop_cb, base, &tv);
        event_base_dispatch(base);
    }
}

struct pair {
    struct event_base *base;
    struct side ctl, agent;
    int raw_fd;                 /* the agent end when the test plays the agent by hand */
};

static int both_ready(void *arg)
{
    struct pair *p = arg;
    return (p->ctl.ready && p->agent.ready) || p->ctl.closed || p->agent.closed;
}

static int ctl_closed(void *arg) { return ((struct pair *)arg)->ctl.closed; }

static struct wire *make(struct pair *p, int fd, enum wire_role role, const char *token, struct side *s,
                         uint32_t timeout_ms)
{
    struct bufferevent *bev = bufferevent_socket_new(p->base, fd, BEV_OPT_CLOSE_ON_FREE);
    struct wire_params wp = { .role = role, .token = token, .peer = role == WIRE_AGENT ? "controller" : "agent",
                              .heartbeat_ms = 100, .timeout_ms = timeout_ms, .handshake_ms = 2000,
                              .name = "a1", .capacity = 10, .agent_id = 5 };
    struct wire_callbacks cb = { s, on_ready, on_msg, on_close };
    s->w = wire_new(p->base, bev, &wp, &cb);
    return s->w;
}

static void pair_open(struct pair *p, const char *ctl_token, const char *agent_token)
{
    int fds[2];
    memset(p, 0, sizeof *p);
    p->base = event_base_new();
    CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    evutil_make_socket_nonblocking(fds[0]);
    evutil_make_socket_nonblocking(fds[1]);
    make(p, fds[0], WIRE_CONTROLLER, ctl_token, &p->ctl, 3000);
    if (agent_token) {
        make(p, fds[1], WIRE_AGENT, agent_token, &p->agent, 3000);
        wire_start(p->agent.w);
    } else {
        p->raw_fd = fds[1];
    }
}

static void pair_close(struct pair *p)
{
    wire_free(p->ctl.w);
    wire_free(p->agent.w);
    if (p->raw_fd)
        close(p->raw_fd);
    event_base_free(p->base);
}

static void test_proto__wire_handshake_and_messages(void)
{
    struct pair p;
    pair_open(&p, "s3cret-token", "s3cret-token");
    spin(p.base, 3000, both_ready, &p);
    CU_ASSERT(p.ctl.ready);
    CU_ASSERT(p.agent.ready);
    CU_ASSERT_STRING_EQUAL(wire_hello(p.ctl.w)->name, "a1");
    CU_ASSERT_EQUAL(wire_hello(p.ctl.w)->capacity, 10);
    CU_ASSERT_EQUAL(wire_welcome(p.agent.w)->agent_id, 5);
    int64_t offset;
    uint32_t rtt;
    CU_ASSERT_EQUAL(wire_clock(p.ctl.w, &offset, &rtt), 5);   /* five clock probes, one clock */
    CU_ASSERT(offset > -1000000 && offset < 1000000);
    struct proto_msg m = { .type = PROTO_STOP };
    m.u.stop_deadline_ms = 1234;
    CU_ASSERT_EQUAL(wire_send(p.ctl.w, &m), 0);
    spin(p.base, 300, NULL, NULL);   /* also exchanges a few heartbeats */
    CU_ASSERT_EQUAL(p.agent.msgs, 1);
    CU_ASSERT_EQUAL(p.agent.last_stop, 1234);
    CU_ASSERT(!p.ctl.closed && !p.agent.closed);
    pair_close(&p);
}

static void test_proto__wire_wrong_token(void)
{
    struct pair p;
    pair_open(&p, "right-token", "wrong-token");
    spin(p.base, 3000, both_ready, &p);
    spin(p.base, 100, NULL, NULL);
    CU_ASSERT(!p.ctl.ready);
    CU_ASSERT(!p.agent.ready);
    CU_ASSERT(p.agent.closed);
    /* the agent checks the controller's proof first, so it is the one that notices */
    CU_ASSERT_PTR_NOT_NULL(strstr(p.agent.reason, "authentication failed"));
    pair_close(&p);
}

/* A fake agent that skips the handshake and sends a command, an oversized frame or garbage. */
static void raw_attack(const uint8_t *bytes, size_t len, const char *want)
{
    struct pair p;
    pair_open(&p, "tok", NULL);
    CU_ASSERT_EQUAL((size_t)write(p.raw_fd, bytes, len), len);
    spin(p.base, 3000, ctl_closed, &p);
    CU_ASSERT(p.ctl.closed);
    CU_ASSERT(!p.ctl.ready);
    if (!strstr(p.ctl.reason, want))
        fprintf(stderr, "\n  want: %s\n  got:  %s\n", want, p.ctl.reason);
    CU_ASSERT_PTR_NOT_NULL(strstr(p.ctl.reason, want));
    pair_close(&p);
}

static void test_proto__wire_rejects_oversized_garbage_and_skipped_auth(void)
{
    uint8_t big[] = { 0x00, 0x00, 0x10, 0x01, PROTO_HELLO };   /* 4097 bytes before auth */
    raw_attack(big, sizeof big, "exceeds the limit of 4096");
    uint8_t garbage[] = { 0x00, 0x00, 0x00, 0x05, 0xEE, 0xAB, 0xCD, 0xEF, 0x01 };
    raw_attack(garbage, sizeof garbage, "unknown message type");
    uint8_t http[] = "GET / HTTP/1.1\r\n\r\n";
    raw_attack(http, sizeof http - 1, "exceeds the limit");
    struct proto_buf b = { 0 };
    struct proto_msg m = { .type = PROTO_STOP };
    proto_encode(&b, &m);
    raw_attack(b.data, b.len, "expected hello during the handshake, got stop");
    proto_buf_free(&b);
}

static void test_proto__wire_silent_peer_times_out(void)
{
    struct pair p;
    pair_open(&p, "tok", NULL);
    spin(p.base, 5000, ctl_closed, &p);
    CU_ASSERT(p.ctl.closed);
    CU_ASSERT_PTR_NOT_NULL(strstr(p.ctl.reason, "did not complete the handshake"));
    pair_close(&p);
}


/* Reads one frame from a blocking fd into m; 0 on success. With key, checks and strips the tag. */
static int read_frame(int fd, struct proto_msg *m, const uint8_t *key, uint64_t *seq)
{
    uint8_t f[4096 + 4], want[PROTO_TAG_LEN];
    uint32_t n;
    if (read(fd, f, 4) != 4 || proto_frame_header(f, 4096, &n, err, sizeof err) < 0)
        return -1;
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(fd, f + 4 + got, n - got);
        if (k <= 0)
            return -1;
        got += (size_t)k;
    }
    if (key) {
        n -= PROTO_TAG_LEN;
        proto_frame_tag(key, (*seq)++, f, 4 + n, want);
        if (!proto_tag_equal(want, f + 4 + n))
            return -1;
    }
    return proto_decode(f + 4, n, m, err, sizeof err);
}

/* Writes m; with key, as a tagged frame (the length counts the tag). */
static int write_msg(int fd, const struct proto_msg *m, const uint8_t *key, uint64_t *seq)
{
    struct proto_buf b = { 0 };
    uint8_t tag[PROTO_TAG_LEN];
    int rc = proto_encode(&b, m);
    if (rc == 0 && key) {
        uint32_t n = (uint32_t)b.len - 4 + PROTO_TAG_LEN;
        b.data[0] = (uint8_t)(n >> 24); b.data[1] = (uint8_t)(n >> 16); b.data[2] = (uint8_t)(n >> 8); b.data[3] = (uint8_t)n;
        proto_frame_tag(key, (*seq)++, b.data, b.len, tag);
    }
    rc = rc == 0 && write(fd, b.data, b.len) == (ssize_t)b.len ? 0 : -1;
    if (rc == 0 && key && write(fd, tag, sizeof tag) != (ssize_t)sizeof tag)
        rc = -1;
    proto_buf_free(&b);
    return rc;
}

static int ctl_ready(void *arg) { return ((struct pair *)arg)->ctl.ready; }

/* An agent written from docs/protocol.md alone (plain TCP: binding B is zeros): it authenticates,
 * answers the clock probes with tagged PONGs, gets WELCOME, and then goes silent: the controller declares it
 * gone after its heartbeat timeout. */
static void test_proto__wire_heartbeat_timeout(void)
{
    struct pair p;
    pair_open(&p, "tok", NULL);
    int fd = p.raw_fd;
    int fl = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    struct proto_msg h = { .type = PROTO_HELLO }, c, a = { .type = PROTO_AUTH };
    h.u.hello.version = PROTO_VERSION;
    h.u.hello.name = "hand";
    h.u.hello.capacity = 1;
    memset(h.u.hello.nonce, 7, PROTO_NONCE_LEN);
    uint8_t th[PROTO_MAC_LEN], zero[PROTO_NONCE_LEN] = { 0 }, k_c2a[PROTO_MAC_LEN], k_a2c[PROTO_MAC_LEN];
    uint64_t seq_rx = 0, seq_tx = 0;
    CU_ASSERT_EQUAL_FATAL(write_msg(fd, &h, NULL, NULL), 0);
    spin(p.base, 200, NULL, NULL);
    CU_ASSERT_EQUAL_FATAL(read_frame(fd, &c, NULL, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(c.type, PROTO_CHALLENGE);
    proto_transcript(&h.u.hello, c.u.challenge.version, c.u.challenge.nonce, th);
    proto_auth_mac("tok", PROTO_LABEL_AGENT, th, zero, a.u.auth_proof);
    proto_auth_mac("tok", PROTO_LABEL_KEY_C2A, th, zero, k_c2a);
    proto_auth_mac("tok", PROTO_LABEL_KEY_A2C, th, zero, k_a2c);
    proto_msg_clear(&c);
    CU_ASSERT_EQUAL_FATAL(write_msg(fd, &a, NULL, NULL), 0);
    spin(p.base, 200, NULL, NULL);
    for (int i = 0; i < 5; i++) {
        CU_ASSERT_FATAL(!p.ctl.ready);   /* ready only after the probes and WELCOME */
        CU_ASSERT_EQUAL_FATAL(read_frame(fd, &c, k_c2a, &seq_rx), 0);
        CU_ASSERT_EQUAL_FATAL(c.type, PROTO_PING);
        struct proto_msg pong = { .type = PROTO_PONG };
        pong.u.ping = c.u.ping;
        pong.u.ping.agent_us = c.u.ping.ctl_us + 3000000;   /* this agent's clock is 3 s ahead */
        CU_ASSERT_EQUAL_FATAL(write_msg(fd, &pong, k_a2c, &seq_tx), 0);
        spin(p.base, 100, ctl_ready, &p);
    }
    CU_ASSERT_EQUAL_FATAL(read_frame(fd, &c, k_c2a, &seq_rx), 0);
    CU_ASSERT_EQUAL(c.type, PROTO_WELCOME);
    CU_ASSERT_EQUAL(c.u.welcome.agent_id, 5);
    proto_msg_clear(&c);
    CU_ASSERT_FATAL(p.ctl.ready);
    int64_t offset;
    uint32_t rtt;
    CU_ASSERT_EQUAL(wire_clock(p.ctl.w, &offset, &rtt), 5);
    CU_ASSERT(offset > 2000000 && offset <= 3000000);   /* 3 s minus half the round trip */
    spin(p.base, 6000, ctl_closed, &p);   /* timeout_ms is 3000 in make() */
    CU_ASSERT(p.ctl.closed);
    CU_ASSERT_PTR_NOT_NULL(strstr(p.ctl.reason, "heartbeat timeout"));
    pair_close(&p);
}

/* CONFIG: fields are tagged; an absent one is "" or 0, an unknown or out-of-order one is refused. */
static void test_proto__config_fields(void)
{
    uint8_t only_port[] = { PROTO_CONFIG, 0, 2, 0, 0, 0x0d, 0x3d };
    struct proto_msg o;
    CU_ASSERT_EQUAL_FATAL(proto_decode(only_port, sizeof only_port, &o, err, sizeof err), 0);
    CU_ASSERT_EQUAL(o.u.config.port, 3389);
    CU_ASSERT_STRING_EQUAL(o.u.config.host, "");
    CU_ASSERT_STRING_EQUAL(o.u.config.workload_text, "");
    proto_msg_clear(&o);
    uint8_t unknown[] = { PROTO_CONFIG, 0x7f, 0x00, 0, 0, 0, 1 };
    CU_ASSERT_EQUAL(proto_decode(unknown, sizeof unknown, &o, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown CONFIG field"));
    uint8_t twice[] = { PROTO_CONFIG, 0, 2, 0, 0, 0, 1, 0, 2, 0, 0, 0, 1 };
    CU_ASSERT_EQUAL(proto_decode(twice, sizeof twice, &o, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "out of order"));
    uint8_t big_port[] = { PROTO_CONFIG, 0, 2, 0, 1, 0, 0 };
    CU_ASSERT_EQUAL(proto_decode(big_port, sizeof big_port, &o, err, sizeof err), -1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_proto__roundtrip_control_messages),
        UNIT_TEST(test_proto__records_batch),
        UNIT_TEST(test_proto__health_ext),
        UNIT_TEST(test_proto__health_cap),
        UNIT_TEST(test_proto__logon_and_traffic_rtt),
        UNIT_TEST(test_proto__logon_bad_phase),
        UNIT_TEST(test_proto__agent_share),
        UNIT_TEST(test_proto__records_frame_limit),
        UNIT_TEST(test_proto__refuses_bad_frames),
        UNIT_TEST(test_proto__mac),
        UNIT_TEST(test_proto__wire_handshake_and_messages),
        UNIT_TEST(test_proto__wire_wrong_token),
        UNIT_TEST(test_proto__wire_rejects_oversized_garbage_and_skipped_auth),
        UNIT_TEST(test_proto__wire_silent_peer_times_out),
        UNIT_TEST(test_proto__wire_heartbeat_timeout),
        UNIT_TEST(test_proto__config_fields),
        UNIT_END,
    };
    return unit_run("proto", tests, NULL, NULL);
}

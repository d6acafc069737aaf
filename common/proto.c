/* proto.c -- encoding and bounds-checked decoding of the controller<->agent messages (the MACs
 * are in proto_auth.c). A reader never trusts a length: each get checks what is left
 * and latches `bad`, so decoders read straight through and test once at the end. */
#include "common/proto.h"

#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR 4
#define REC_MIN 9   /* kind + smallest record body (health is bigger; any record is >= 9 bytes) */

const char *proto_type_name(int type)
{
    static const char *const names[] = { "?", "hello", "challenge", "auth", "welcome", "config", "start",
                                         "stop", "heartbeat", "records", "ack", "done", "error", "ping", "pong" };
    return type > 0 && type < PROTO__COUNT ? names[type] : "unknown";
}

/* --- output -------------------------------------------------------------------------------- */

void proto_buf_free(struct proto_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

static void put(struct proto_buf *b, const void *p, size_t n)
{
    /* n == 0 comes with p == NULL for empty fields: memcpy must not see that pointer. */
    if (b->oom || n == 0)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *d = realloc(b->data, cap);
        if (!d) {
            b->oom = 1;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void put_u8(struct proto_buf *b, uint8_t v) { put(b, &v, 1); }

static void put_u16(struct proto_buf *b, uint16_t v)
{
    uint8_t x[2] = { (uint8_t)(v >> 8), (uint8_t)v };
    put(b, x, 2);
}

static void put_u32(struct proto_buf *b, uint32_t v)
{
    uint8_t x[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
    put(b, x, 4);
}

static void put_u64(struct proto_buf *b, uint64_t v)
{
    put_u32(b, (uint32_t)(v >> 32));
    put_u32(b, (uint32_t)v);
}

static void put_str(struct proto_buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    put_u32(b, (uint32_t)n);
    put(b, s, n);
}

static void set_u32_at(struct proto_buf *b, size_t at, uint32_t v)
{
    b->data[at] = (uint8_t)(v >> 24);
    b->data[at + 1] = (uint8_t)(v >> 16);
    b->data[at + 2] = (uint8_t)(v >> 8);
    b->data[at + 3] = (uint8_t)v;
}

static void put_record(struct proto_buf *b, const struct proto_record *r)
{
    put_u8(b, (uint8_t)r->kind);
    switch (r->kind) {
    case PROTO_REC_SAMPLE:
    case PROTO_REC_SAMPLE_AGENT: {
        const struct rec_sample *s = &r->u.sample;
        put_u32(b, s->session); put_u32(b, s->loop); put_u64(b, s->t_us); put_u64(b, (uint64_t)s->value_us);
        put_u8(b, s->ok); put_u8(b, s->is_measure); put_str(b, s->name);
        if (r->kind == PROTO_REC_SAMPLE_AGENT)
            put_u32(b, s->agent_us);
        break;
    }
    case PROTO_REC_SESSION: {
        const struct rec_session *e = &r->u.session;
        put_u32(b, e->session); put_u64(b, e->t_us); put_u8(b, (uint8_t)e->kind);
        put_u64(b, (uint64_t)e->value_us); put_u8(b, (uint8_t)e->reason); put_str(b, e->user); put_str(b, e->detail);
        break;
    }
    case PROTO_REC_TRAFFIC:
    case PROTO_REC_TRAFFIC_RTT: {
        const struct rec_traffic *t = &r->u.traffic;
        put_u32(b, t->session); put_u64(b, t->t_us); put_u64(b, t->bytes_in); put_u64(b, t->bytes_out);
        put_u64(b, t->wire_in); put_u64(b, t->wire_out); put_u32(b, t->rtt_us); put_u32(b, t->frames);
        put_u32(b, t->data_segs_out); put_u32(b, t->retrans); put_u32(b, t->data_segs_in);
        if (r->kind == PROTO_REC_TRAFFIC_RTT)
            put_u32(b, t->min_rtt_us);
        break;
    }
    case PROTO_REC_LOGON: {
        const struct rec_logon *l = &r->u.logon;
        put_u32(b, l->session); put_u64(b, l->t_us);
        for (int i = 0; i < LOGON__PHASES; i++)
            put_u64(b, (uint64_t)l->phase_us[i]);
        break;
    }
    case PROTO_REC_HEALTH:
    case PROTO_REC_HEALTH_EXT:
    case PROTO_REC_HEALTH_CAP:
    case PROTO_REC_HEALTH_SCHED: {
        const struct rec_health *h = &r->u.health;
        put_u64(b, h->t_us); put_u32(b, h->sessions_active); put_u32(b, h->sessions_connecting);
        put_u32(b, h->lag_p50_us); put_u32(b, h->lag_p99_us); put_u32(b, h->lag_max_us);
        put_u32(b, h->cpu_permille); put_u64(b, h->rss_kb);
        if (r->kind != PROTO_REC_HEALTH) {
            put_u32(b, h->ext.sessions); put_u32(b, h->ext.cpu_permille);
            put_u64(b, h->ext.client_rss_kb); put_u64(b, h->ext.client_pss_kb);
            put_u64(b, h->ext.xserver_rss_kb); put_u64(b, h->ext.xserver_pss_kb);
        }
        if (r->kind == PROTO_REC_HEALTH_CAP || r->kind == PROTO_REC_HEALTH_SCHED)
            put_u32(b, h->ext_capacity);
        if (r->kind == PROTO_REC_HEALTH_SCHED) {
            put_u8(b, h->has_sched); put_u32(b, h->loop_cpu_permille); put_u32(b, h->loop_delay_permille);
            put_u32(b, h->delay_permille); put_u32(b, h->loop_wakeups); put_u32(b, h->throttled_permille);
        }
        break;
    }
    }
}

/* Every field, in tag order (canonical: a decoded CONFIG re-encodes to the same bytes). */
static void put_config(struct proto_buf *b, const struct proto_config *c)
{
#define PUT_S(tag, name, max) put_u16(b, tag); put_str(b, c->name);
#define PUT_N(tag, name, max) put_u16(b, tag); put_u32(b, c->name);
    PROTO_CONFIG_FIELDS(PUT_S, PUT_N)
#undef PUT_S
#undef PUT_N
}

static void put_body(struct proto_buf *b, const struct proto_msg *m)
{
    switch (m->type) {
    case PROTO_HELLO:
        put_u32(b, PROTO_MAGIC); put_u32(b, m->u.hello.version); put_str(b, m->u.hello.name);
        put_u32(b, m->u.hello.capacity); put_u32(b, m->u.hello.pid); put(b, m->u.hello.nonce, PROTO_NONCE_LEN);
        put(b, m->u.hello.ticket, PROTO_TICKET_LEN);
        break;
    case PROTO_CHALLENGE:
        put_u32(b, m->u.challenge.version); put(b, m->u.challenge.nonce, PROTO_NONCE_LEN);
        put(b, m->u.challenge.proof, PROTO_MAC_LEN);
        break;
    case PROTO_AUTH:
        put(b, m->u.auth_proof, PROTO_MAC_LEN);
        break;
    case PROTO_WELCOME:
        put_u32(b, m->u.welcome.agent_id); put_u32(b, m->u.welcome.heartbeat_ms); put_u32(b, m->u.welcome.timeout_ms);
        put_u32(b, m->u.welcome.grace_ms); put_u8(b, m->u.welcome.resumed); put_u64(b, m->u.welcome.acked_seq);
        put(b, m->u.welcome.ticket, PROTO_TICKET_LEN);
        break;
    case PROTO_CONFIG: put_config(b, &m->u.config); break;
    case PROTO_PING:
    case PROTO_PONG:
        put_u32(b, m->u.ping.id); put_u64(b, m->u.ping.ctl_us);
        if (m->type == PROTO_PONG)
            put_u64(b, m->u.ping.agent_us);
        break;
    case PROTO_START:
        put_u32(b, m->u.start.index); put_str(b, m->u.start.user); put_str(b, m->u.start.password);
        put_u64(b, m->u.start.seed);
        break;
    case PROTO_STOP: put_u32(b, m->u.stop_deadline_ms); break;
    case PROTO_HEARTBEAT: put_u64(b, m->u.heartbeat_t_us); break;
    case PROTO_RECORDS:
        put_u64(b, m->u.records.seq); put_u32(b, m->u.records.count);
        for (uint32_t i = 0; i < m->u.records.count; i++)
            put_record(b, &m->u.records.recs[i]);
        break;
    case PROTO_ACK: put_u64(b, m->u.ack_seq); break;
    case PROTO_DONE: put_u32(b, m->u.done.ended); put_u32(b, m->u.done.failed); break;
    case PROTO_ERROR: put_str(b, m->u.error); break;
    default: break;
    }
}

int proto_encode(struct proto_buf *b, const struct proto_msg *m)
{
    size_t start = b->len;
    put_u32(b, 0);
    put_u8(b, (uint8_t)m->type);
    put_body(b, m);
    if (b->oom || b->len - start - HDR > PROTO_MAX_FRAME) {
        b->len = start;
        b->oom = 0;
        return -1;
    }
    set_u32_at(b, start, (uint32_t)(b->len - start - HDR));
    return 0;
}

int proto_records_begin(struct proto_buf *b, uint64_t seq)
{
    size_t start = b->len;
    put_u32(b, 0);
    put_u8(b, PROTO_RECORDS);
    put_u64(b, seq);
    put_u32(b, 0);
    if (b->oom) {
        b->len = start;
        b->oom = 0;
        return -1;
    }
    b->records_start = start;
    b->records_count = 0;
    b->records_open = 1;
    return 0;
}

int proto_records_add(struct proto_buf *b, const struct proto_record *r)
{
    size_t before = b->len;
    if (!b->records_open)
        return -1;
    put_record(b, r);
    if (b->oom || b->len - b->records_start - HDR > PROTO_MAX_FRAME) {
        b->len = before;
        b->oom = 0;
        return -1;
    }
    b->records_count++;
    return 0;
}

uint32_t proto_records_open_count(const struct proto_buf *b)
{
    return b->records_open ? b->records_count : 0;
}

void proto_records_end(struct proto_buf *b)
{
    if (!b->records_open)
        return;
    size_t start = b->records_start;
    set_u32_at(b, start + HDR + 1 + 8, b->records_count);
    set_u32_at(b, start, (uint32_t)(b->len - start - HDR));
    b->records_open = 0;
}

/* --- input --------------------------------------------------------------------------------- */

struct rd {
    const uint8_t *p;
    size_t len, off;
    int bad;
    const char *why;
};

static const uint8_t *take(struct rd *r, size_t n, const char *what)
{
    if (r->bad || n > r->len - r->off) {
        if (!r->bad)
            r->why = what;
        r->bad = 1;
        return NULL;
    }
    const uint8_t *p = r->p + r->off;
    r->off += n;
    return p;
}

static uint8_t get_u8(struct rd *r)
{
    const uint8_t *p = take(r, 1, "truncated");
    return p ? p[0] : 0;
}

static uint32_t get_u32(struct rd *r)
{
    const uint8_t *p = take(r, 4, "truncated");
    return p ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3] : 0;
}

static uint64_t get_u64(struct rd *r)
{
    uint64_t hi = get_u32(r);
    return hi << 32 | get_u32(r);
}

static void get_bytes(struct rd *r, void *out, size_t n)
{
    const uint8_t *p = take(r, n, "truncated");
    if (p)
        memcpy(out, p, n);
    else
        memset(out, 0, n);
}

/* Returns a malloc'd NUL-terminated copy, or NULL (bad latched) on a bad length, a NUL inside,
 * or more than max bytes. */
static char *get_str(struct rd *r, size_t max)
{
    uint32_t n = get_u32(r);
    if (!r->bad && n > max) {
        r->bad = 1;
        r->why = "string too long";
    }
    const uint8_t *p = take(r, n, "string runs past the frame");
    if (!p)
        return NULL;
    if (memchr(p, 0, n)) {
        r->bad = 1;
        r->why = "NUL inside a string";
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        r->bad = 1;
        r->why = "out of memory";
        return NULL;
    }
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

static void get_fixed(struct rd *r, char *out, size_t outlen)
{
    char *s = get_str(r, outlen - 1);
    snprintf(out, outlen, "%s", s ? s : "");
    free(s);
}

static void get_record(struct rd *r, struct proto_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->kind = (enum proto_record_kind)get_u8(r);
    switch (rec->kind) {
    case PROTO_REC_SAMPLE:
    case PROTO_REC_SAMPLE_AGENT: {
        struct rec_sample *s = &rec->u.sample;
        s->session = get_u32(r); s->loop = get_u32(r); s->t_us = get_u64(r); s->value_us = (int64_t)get_u64(r);
        s->ok = get_u8(r); s->is_measure = get_u8(r); get_fixed(r, s->name, sizeof s->name);
        if (rec->kind == PROTO_REC_SAMPLE_AGENT) {
            s->has_agent = 1;
            s->agent_us = get_u32(r);
        }
        break;
    }
    case PROTO_REC_SESSION: {
        struct rec_session *e = &rec->u.session;
        e->session = get_u32(r); e->t_us = get_u64(r);
        uint8_t kind = get_u8(r);
        e->value_us = (int64_t)get_u64(r);
        uint8_t reason = get_u8(r);
        get_fixed(r, e->user, sizeof e->user); get_fixed(r, e->detail, sizeof e->detail);
        if (!r->bad && (kind > SESSION_ENDED || reason >= FAIL__COUNT)) {
            r->bad = 1;
            r->why = "bad session event";
        }
        e->kind = (enum session_event_kind)kind;
        e->reason = (enum failure_reason)reason;
        break;
    }
    case PROTO_REC_TRAFFIC:
    case PROTO_REC_TRAFFIC_RTT: {
        struct rec_traffic *t = &rec->u.traffic;
        t->session = get_u32(r); t->t_us = get_u64(r); t->bytes_in = get_u64(r); t->bytes_out = get_u64(r);
        t->wire_in = get_u64(r); t->wire_out = get_u64(r); t->rtt_us = get_u32(r); t->frames = get_u32(r);
        t->data_segs_out = get_u32(r); t->retrans = get_u32(r); t->data_segs_in = get_u32(r);
        if (rec->kind == PROTO_REC_TRAFFIC_RTT)
            t->min_rtt_us = get_u32(r);
        break;
    }
    case PROTO_REC_LOGON: {
        struct rec_logon *l = &rec->u.logon;
        l->session = get_u32(r); l->t_us = get_u64(r);
        for (int i = 0; i < LOGON__PHASES; i++) {
            l->phase_us[i] = (int64_t)get_u64(r);
            if (!r->bad && l->phase_us[i] < -1) {
                r->bad = 1;
                r->why = "bad logon phase";
            }
        }
        break;
    }
    case PROTO_REC_HEALTH:
    case PROTO_REC_HEALTH_EXT:
    case PROTO_REC_HEALTH_CAP:
    case PROTO_REC_HEALTH_SCHED: {
        struct rec_health *h = &rec->u.health;
        h->t_us = get_u64(r); h->sessions_active = get_u32(r); h->sessions_connecting = get_u32(r);
        h->lag_p50_us = get_u32(r); h->lag_p99_us = get_u32(r); h->lag_max_us = get_u32(r);
        h->cpu_permille = get_u32(r); h->rss_kb = get_u64(r);
        if (rec->kind != PROTO_REC_HEALTH) {
            h->ext.sessions = get_u32(r); h->ext.cpu_permille = get_u32(r);
            h->ext.client_rss_kb = get_u64(r); h->ext.client_pss_kb = get_u64(r);
            h->ext.xserver_rss_kb = get_u64(r); h->ext.xserver_pss_kb = get_u64(r);
        }
        if (rec->kind == PROTO_REC_HEALTH_CAP || rec->kind == PROTO_REC_HEALTH_SCHED)
            h->ext_capacity = get_u32(r);
        if (rec->kind == PROTO_REC_HEALTH_SCHED) {
            h->has_sched = get_u8(r); h->loop_cpu_permille = get_u32(r); h->loop_delay_permille = get_u32(r);
            h->delay_permille = get_u32(r); h->loop_wakeups = get_u32(r); h->throttled_permille = get_u32(r);
            if (!r->bad && h->has_sched > 1) {
                r->bad = 1;
                r->why = "bad health record";
            }
        }
        break;
    }
    default:
        if (!r->bad) {
            r->bad = 1;
            r->why = "unknown record kind";
        }
    }
}

static void get_records(struct rd *r, struct proto_records *rs)
{
    rs->seq = get_u64(r);
    uint32_t count = get_u32(r);
    if (r->bad)
        return;
    if (count > (r->len - r->off) / REC_MIN) {
        r->bad = 1;
        r->why = "record count larger than the frame";
        return;
    }
    rs->recs = calloc(count ? count : 1, sizeof *rs->recs);
    if (!rs->recs) {
        r->bad = 1;
        r->why = "out of memory";
        return;
    }
    for (uint32_t i = 0; i < count && !r->bad; i++, rs->count++)
        get_record(r, &rs->recs[i]);
}

static int above(uint64_t v, uint64_t max) { return v > max; }

static void get_config_field(struct rd *r, struct proto_config *c, unsigned tag)
{
    uint32_t v;
    switch (tag) {
#define GET_S(t, name, max) case t: c->name = get_str(r, max); return;
#define GET_N(t, name, max)                                                                         \
    case t:                                                                                         \
        v = get_u32(r);                                                                             \
        if (!r->bad && above(v, max)) { r->bad = 1; r->why = "value out of range in " #name; } \
        c->name = v;                                                                                \
        return;
        PROTO_CONFIG_FIELDS(GET_S, GET_N)
#undef GET_S
#undef GET_N
    default:
        r->bad = 1;
        r->why = "unknown CONFIG field (is the agent older than the controller?)";
    }
}

/* Tagged fields in strictly ascending order to the end of the frame; absent strings become "". */
static void get_config(struct rd *r, struct proto_config *c)
{
    unsigned last = 0;
    while (!r->bad && r->off < r->len) {
        uint16_t tag = (uint16_t)(get_u8(r) << 8);
        tag |= get_u8(r);
        if (!r->bad && tag <= last) {
            r->bad = 1;
            r->why = "CONFIG fields out of order or repeated";
        }
        last = tag;
        if (!r->bad)
            get_config_field(r, c, tag);
    }
#define FILL_S(t, name, max) if (!r->bad && !c->name && !(c->name = calloc(1, 1))) { r->bad = 1; r->why = "out of memory"; }
#define FILL_N(t, name, max)
    PROTO_CONFIG_FIELDS(FILL_S, FILL_N)
#undef FILL_S
#undef FILL_N
}

static void get_body(struct rd *r, struct proto_msg *m)
{
    switch (m->type) {
    case PROTO_HELLO:
        if (get_u32(r) != PROTO_MAGIC && !r->bad) {
            r->bad = 1;
            r->why = "not a sessmax agent (bad magic)";
            return;
        }
        m->u.hello.version = get_u32(r); m->u.hello.name = get_str(r, 64);
        m->u.hello.capacity = get_u32(r); m->u.hello.pid = get_u32(r);
        get_bytes(r, m->u.hello.nonce, PROTO_NONCE_LEN);
        get_bytes(r, m->u.hello.ticket, PROTO_TICKET_LEN);
        break;
    case PROTO_CHALLENGE:
        m->u.challenge.version = get_u32(r);
        get_bytes(r, m->u.challenge.nonce, PROTO_NONCE_LEN);
        get_bytes(r, m->u.challenge.proof, PROTO_MAC_LEN);
        break;
    case PROTO_AUTH: get_bytes(r, m->u.auth_proof, PROTO_MAC_LEN); break;
    case PROTO_WELCOME:
        m->u.welcome.agent_id = get_u32(r); m->u.welcome.heartbeat_ms = get_u32(r); m->u.welcome.timeout_ms = get_u32(r);
        m->u.welcome.grace_ms = get_u32(r); m->u.welcome.resumed = get_u8(r); m->u.welcome.acked_seq = get_u64(r);
        get_bytes(r, m->u.welcome.ticket, PROTO_TICKET_LEN);
        if (!r->bad && m->u.welcome.resumed > 1) {
            r->bad = 1;
            r->why = "bad resumed flag";
        }
        break;
    case PROTO_PING:
    case PROTO_PONG:
        m->u.ping.id = get_u32(r); m->u.ping.ctl_us = get_u64(r);
        if (m->type == PROTO_PONG)
            m->u.ping.agent_us = get_u64(r);
        break;
    case PROTO_CONFIG: get_config(r, &m->u.config); break;
    case PROTO_START:
        m->u.start.index = get_u32(r); m->u.start.user = get_str(r, RESULTS_NAME_LEN - 1);
        m->u.start.password = get_str(r, 512); m->u.start.seed = get_u64(r);
        break;
    case PROTO_STOP: m->u.stop_deadline_ms = get_u32(r); break;
    case PROTO_HEARTBEAT: m->u.heartbeat_t_us = get_u64(r); break;
    case PROTO_RECORDS: get_records(r, &m->u.records); break;
    case PROTO_ACK: m->u.ack_seq = get_u64(r); break;
    case PROTO_DONE: m->u.done.ended = get_u32(r); m->u.done.failed = get_u32(r); break;
    case PROTO_ERROR: m->u.error = get_str(r, PROTO_TEXT_MAX); break;
    default:
        r->bad = 1;
        r->why = "unknown message type";
    }
}

int proto_frame_header(const uint8_t hdr[4], uint32_t max_frame, uint32_t *payload_len, char *err, size_t errlen)
{
    uint32_t n = (uint32_t)hdr[0] << 24 | (uint32_t)hdr[1] << 16 | (uint32_t)hdr[2] << 8 | hdr[3];
    if (n == 0) {
        snprintf(err, errlen, "empty frame");
        return -1;
    }
    if (n > max_frame) {
        snprintf(err, errlen, "frame of %u bytes exceeds the limit of %u", n, max_frame);
        return -1;
    }
    *payload_len = n;
    return 0;
}

int proto_decode(const uint8_t *payload, size_t len, struct proto_msg *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    struct rd r = { payload, len, 0, 0, NULL };
    int type = get_u8(&r);
    m->type = (enum proto_type)type;
    if (!r.bad)
        get_body(&r, m);
    if (!r.bad && r.off != r.len) {
        r.bad = 1;
        r.why = "trailing bytes";
    }
    if (r.bad) {
        snprintf(err, errlen, "bad %s message: %s", proto_type_name(type), r.why ? r.why : "malformed");
        proto_msg_clear(m);
        return -1;
    }
    return 0;
}

static void wipe_free(char *s)
{
    if (s) {
        OPENSSL_cleanse(s, strlen(s));
        free(s);
    }
}

void proto_msg_clear(struct proto_msg *m)
{
    switch (m->type) {
    case PROTO_HELLO: free(m->u.hello.name); break;
    case PROTO_CONFIG: {
        struct proto_config *c = &m->u.config;
#define FREE_S(t, name, max) free(c->name);
#define FREE_N(t, name, max)
        PROTO_CONFIG_FIELDS(FREE_S, FREE_N)
#undef FREE_S
#undef FREE_N
        break;
    }
    case PROTO_START: free(m->u.start.user); wipe_free(m->u.start.password); break;
    case PROTO_RECORDS: free(m->u.records.recs); break;
    case PROTO_ERROR: free(m->u.error); break;
    default: break;
    }
    memset(m, 0, sizeof *m);
}

long proto_parse_stream(const uint8_t *data, size_t len, uint32_t max_frame,
                        int (*fn)(void *ctx, struct proto_msg *msg), void *ctx, char *err, size_t errlen)
{
    size_t off = 0;
    while (len - off >= HDR) {
        uint32_t n;
        if (proto_frame_header(data + off, max_frame, &n, err, errlen) < 0)
            return -1;
        if (len - off - HDR < n)
            break;
        struct proto_msg m;
        if (proto_decode(data + off + HDR, n, &m, err, errlen) < 0)
            return -1;
        int rc = fn ? fn(ctx, &m) : 0;
        proto_msg_clear(&m);
        off += HDR + n;
        if (rc < 0) {
            snprintf(err, errlen, "stopped by the message handler");
            return -1;
        }
    }
    return (long)off;
}

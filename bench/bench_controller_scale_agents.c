/* bench_controller_scale_agents.c -- the synthetic agents of bench_controller_scale (see its
 * header): AGENTS agent links (each its own TCP + TLS connection, HELLO, token proof, pinned to the
 * controller's certificate, token from SESSMAX_TOKEN as remote agents take it) on one libevent
 * loop in one process. An agent answers START as a session does: LAUNCHED, ACTIVE after a logon
 * second, then the task worker's samples (simhost-task-worker: 6 timers and the vsi measure per
 * 30 s loop), a traffic record per session every 5 s and a health record every 2 s, batched every
 * 50 ms like agent/link/link.c. During BURST_S seconds of the steady state every agent also sends
 * extra sample batches as fast as the ACKs allow (<= WINDOW unacknowledged): the committed-rate
 * figure. Burst batches are encoded once per agent and sent again with a new sequence number, and
 * the links use TLS_AES_128_GCM_SHA256, so the load generator costs little next to the
 * controller. After STOP each session logs off within LOGOFF_US (spread, as sessions take their
 * own time to log off), then DONE and the last ACK. */
#include "bench/bench_controller_scale_agents.h"

#include "common/clock.h"
#include "common/proto.h"
#include "common/tls.h"
#include "common/wire.h"

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sysexits.h>
#include <unistd.h>

#define LOOP_US 30000000ull     /* one task-worker loop: 6 timers + the vsi measure */
#define STEPS 7
#define TRAFFIC_US 5000000ull
#define HEALTH_US 2000000ull
#define LOGON_US 1000000ull
#define LOGOFF_US 5000000ull     /* after STOP, each session logs off within this (as sessions do, not at once) */
#define TICK_US 50000           /* batch flush, as agent/link/link.c */
#define RING 4096u              /* batches in flight per agent we can time */
#define SEQ_AT 5                /* a RECORDS frame: u32 length, u8 type, u64 seq, ... */
#define T_AT 9                  /* a sample record: u8 kind, u32 session, u32 loop, u64 t_us, ... */

static const char *const step_name[STEPS] = { "app_start", "file_open", "echo", "zip_high", "zip_low", "cpu", "vsi" };

struct ssess {
    uint32_t index;
    uint64_t due, traffic_due;
    uint8_t step, active, ended;
};

struct sagent {
    struct agents *all;
    struct wire *w;
    char name[32];
    struct ssess *s;
    uint32_t n;
    struct proto_buf b, burst;   /* the open regular batch; the burst batch, encoded once */
    uint32_t burst_at[BURST_BATCH];   /* where each sample of the burst batch starts */
    uint64_t seq, acked, health_due;
    uint64_t sent_us[RING];
    uint32_t count[RING];
    uint8_t is_burst[RING];
    int ready, stopping, done_sent, closed;
    uint32_t ended;
    uint64_t stop_us;
};

struct agents {
    struct event_base *base;
    SSL_CTX *ctx;
    struct sagent a[AGENTS];
    int open;
    uint64_t burst_from, burst_to;
    struct scale_report rep;
};

static void sa_add(struct sagent *a, const struct proto_record *r)
{
    if (!a->b.records_open)
        proto_records_begin(&a->b, ++a->seq);
    if (proto_records_add(&a->b, r) < 0)
        abort();   /* batches are flushed every tick, far below the frame limit */
    a->all->rep.records++;
    a->all->rep.samples += r->kind == PROTO_REC_SAMPLE;
}

/* Times a batch that is about to leave under sequence number a->seq. */
static void sa_sent(struct sagent *a, uint32_t n, int burst)
{
    if (a->seq - a->acked >= RING)
        abort();
    a->sent_us[a->seq % RING] = clock_wall_us();
    a->count[a->seq % RING] = n;
    a->is_burst[a->seq % RING] = (uint8_t)burst;
    a->all->rep.batches++;
    a->all->rep.burst_batches += burst != 0;
}

static void sa_flush(struct sagent *a)
{
    if (!a->b.records_open)
        return;
    uint32_t n = proto_records_open_count(&a->b);
    proto_records_end(&a->b);
    sa_sent(a, n, 0);
    wire_send_raw(a->w, a->b.data, a->b.len);
    a->b.len = 0;
}

static void session_rec(struct sagent *a, uint32_t index, enum session_event_kind kind, int64_t value)
{
    struct proto_record r = { .kind = PROTO_REC_SESSION };
    r.u.session = (struct rec_session){ .session = index, .t_us = clock_wall_us(), .kind = kind, .value_us = value };
    snprintf(r.u.session.user, sizeof r.u.session.user, "u%06u", index + 1);
    sa_add(a, &r);
}

static void sample_rec(struct proto_record *r, uint32_t index, uint32_t loop, int step, int64_t v)
{
    *r = (struct proto_record){ .kind = PROTO_REC_SAMPLE };
    r->u.sample = (struct rec_sample){ .session = index, .loop = loop, .t_us = clock_wall_us(), .value_us = v,
                                       .ok = 1, .is_measure = step == STEPS - 1 };
    memcpy(r->u.sample.name, step_name[step], strlen(step_name[step]) + 1);
}

/* One session's records that are due: ACTIVE after the logon, then one step every loop/7. */
static void session_due(struct sagent *a, struct ssess *s, uint64_t now)
{
    while (s->due <= now) {
        if (!s->active) {
            s->active = 1;
            session_rec(a, s->index, SESSION_ACTIVE, (int64_t)LOGON_US);
        } else {
            struct proto_record r;
            int64_t v = 300000 + (int64_t)((s->index * 7919u + s->step * 104729u) % 900000u);
            sample_rec(&r, s->index, s->step / STEPS, s->step % STEPS, v);
            sa_add(a, &r);
            s->step++;
        }
        s->due += LOOP_US / STEPS;
    }
    if (s->traffic_due <= now) {
        struct proto_record r = { .kind = PROTO_REC_TRAFFIC };
        r.u.traffic = (struct rec_traffic){ .session = s->index, .t_us = clock_wall_us(), .bytes_in = 60000,
                                            .bytes_out = 4000, .wire_in = 64000, .wire_out = 6000, .rtt_us = 300,
                                            .frames = 40 };
        sa_add(a, &r);
        s->traffic_due += TRAFFIC_US;
    }
}

/* The agent's burst batch: BURST_BATCH app_start samples of its sessions, encoded once. */
static int burst_encode(struct sagent *a)
{
    if (proto_records_begin(&a->burst, 0) < 0)
        return -1;
    for (uint32_t i = 0; i < BURST_BATCH; i++) {
        struct proto_record r;
        sample_rec(&r, a->s[i % a->n].index, 1000 + i, 0, 500000 + i);
        a->burst_at[i] = (uint32_t)a->burst.len;
        if (proto_records_add(&a->burst, &r) < 0)
            return -1;
    }
    proto_records_end(&a->burst);
    return 0;
}

static void put_be64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (56 - 8 * i));
}

/* Extra sample batches while the burst lasts, up to WINDOW unacknowledged: the burst batch again
 * under the next sequence number, its samples timed now (so the store sees new times, as from
 * sessions that keep working, not one batch repeated). */
static void burst_fill(struct sagent *a, uint64_t now)
{
    struct agents *all = a->all;
    if (!a->n || now < all->burst_from || now >= all->burst_to || a->stopping)
        return;
    if (!a->burst.len && burst_encode(a) < 0)
        abort();
    while (a->seq - a->acked < WINDOW) {
        sa_flush(a);
        put_be64(a->burst.data + SEQ_AT, ++a->seq);
        uint64_t t = clock_wall_us();
        for (uint32_t i = 0; i < BURST_BATCH; i++)
            put_be64(a->burst.data + a->burst_at[i] + T_AT, t + i * 37u);
        if (!all->rep.burst_t0)
            all->rep.burst_t0 = clock_wall_us();
        sa_sent(a, BURST_BATCH, 1);
        wire_send_raw(a->w, a->burst.data, a->burst.len);
    }
}

/* After STOP: the sessions whose logoff is due log off and end; DONE after the last. */
static void sa_logoff(struct sagent *a, uint64_t now)
{
    for (uint32_t i = 0; i < a->n; i++) {
        struct ssess *s = &a->s[i];
        if (s->ended || now < a->stop_us + (s->index * 2654435761u) % LOGOFF_US)
            continue;
        s->ended = 1;
        a->ended++;
        session_rec(a, s->index, SESSION_LOGOFF, 0);
        session_rec(a, s->index, SESSION_ENDED, 0);
    }
    if (a->ended < a->n)
        return;
    sa_flush(a);
    struct proto_msg d = { .type = PROTO_DONE };
    d.u.done.ended = a->n;
    wire_send(a->w, &d);
    a->done_sent = 1;
}

static void sa_tick(struct sagent *a, uint64_t now)
{
    if (!a->ready || a->closed || a->done_sent)
        return;
    for (uint32_t i = 0; i < a->n && !a->stopping; i++)
        session_due(a, &a->s[i], now);
    if (a->stopping)
        sa_logoff(a, now);
    if (a->done_sent)
        return;
    if (now >= a->health_due) {
        struct proto_record r = { .kind = PROTO_REC_HEALTH };
        r.u.health = (struct rec_health){ .t_us = clock_wall_us(), .sessions_active = a->n - a->ended,
                                          .cpu_permille = 50, .rss_kb = 20000 };
        sa_add(a, &r);
        a->health_due = now + HEALTH_US;
    }
    sa_flush(a);
    burst_fill(a, now);
}

static void sa_ack(struct sagent *a, uint64_t seq)
{
    struct scale_report *rep = &a->all->rep;
    uint64_t now = clock_wall_us();
    for (; a->acked < seq && a->acked < a->seq; a->acked++) {
        uint32_t k = (uint32_t)((a->acked + 1) % RING);
        uint64_t lat = now - a->sent_us[k];
        rep->acked++;
        uint32_t *h = a->is_burst[k] ? rep->bhist : rep->hist;
        h[lat / 1000 < HIST_MS ? lat / 1000 : HIST_MS]++;
        rep->late += !a->is_burst[k] && lat > LATE_US;
        if (lat > LATE_US) {
            rep->late_first = rep->late_first && rep->late_first < a->sent_us[k] ? rep->late_first : a->sent_us[k];
            rep->late_last = rep->late_last > a->sent_us[k] ? rep->late_last : a->sent_us[k];
        }
        if (a->is_burst[k]) {
            rep->burst_late += lat > LATE_US;
            rep->burst_samples += a->count[k];
            rep->burst_t1 = now;
        }
    }
    if (a->done_sent && a->acked >= a->seq)
        wire_close(a->w, "done");
    else
        burst_fill(a, clock_now_us());
}

static void sa_start(struct sagent *a, const struct proto_start *st)
{
    struct agents *all = a->all;
    struct ssess *s = &a->s[a->n++];
    uint64_t now = clock_now_us();
    if (!all->rep.first_start)
        all->rep.first_start = clock_wall_us();
    if (!all->burst_from) {
        all->burst_from = now + (LAUNCH_S + BURST_AT_S) * 1000000ull;
        all->burst_to = all->burst_from + BURST_S * 1000000ull;
    }
    s->index = st->index;
    s->due = now + LOGON_US;
    s->traffic_due = now + (st->seed % TRAFFIC_US);
    all->rep.sessions++;
    session_rec(a, s->index, SESSION_LAUNCHED, 0);
}

static void sa_msg(struct wire *w, struct proto_msg *m, void *arg)
{
    struct sagent *a = arg;
    (void)w;
    if (m->type == PROTO_START && !a->stopping && a->n < PER_AGENT)
        sa_start(a, &m->u.start);
    else if (m->type == PROTO_STOP && !a->stopping) {
        a->stopping = 1;
        a->stop_us = clock_now_us();
        if (!a->all->rep.stop_at)
            a->all->rep.stop_at = clock_wall_us();
    }
    else if (m->type == PROTO_ACK)
        sa_ack(a, m->u.ack_seq);
}

static void sa_ready(struct wire *w, void *arg)
{
    struct sagent *a = arg;
    (void)w;
    a->ready = 1;
    a->all->rep.agents_ready++;
}

static void sa_close(struct wire *w, const char *reason, void *arg)
{
    struct sagent *a = arg;
    if (!(a->done_sent && a->acked >= a->seq)) {
        fprintf(stderr, "bench: agent %s: %s\n", a->name, reason);
        a->all->rep.agents_lost++;
    }
    a->all->rep.dropped += a->seq - a->acked;
    a->closed = 1;
    a->all->rep.last_close = clock_wall_us();
    wire_free(w);
    a->w = NULL;
    if (--a->all->open == 0)
        event_base_loopexit(a->all->base, NULL);
}

static void agents_tick(evutil_socket_t fd, short what, void *arg)
{
    struct agents *all = arg;
    (void)fd;
    (void)what;
    uint64_t now = clock_now_us();
    for (size_t i = 0; i < AGENTS; i++)
        sa_tick(&all->a[i], now);
}

static int agent_connect(struct agents *all, int i, const char *addr, const char *pin,
                         const struct sockaddr *sa, int salen)
{
    struct sagent *a = &all->a[i];
    a->all = all;
    a->s = calloc(PER_AGENT, sizeof *a->s);
    snprintf(a->name, sizeof a->name, "synth-%03d", i);
    struct bufferevent *bev = bufferevent_openssl_socket_new(all->base, -1, SSL_new(all->ctx),
                                                             BUFFEREVENT_SSL_CONNECTING, BEV_OPT_CLOSE_ON_FREE);
    struct wire_params wp = { .role = WIRE_AGENT, .token = getenv("SESSMAX_TOKEN"), .peer = addr,
                              .name = a->name, .capacity = PER_AGENT, .tls_pin = pin };
    struct wire_callbacks cb = { a, sa_ready, sa_msg, sa_close };
    a->w = bev ? wire_new(all->base, bev, &wp, &cb) : NULL;
    if (!a->s || !a->w || bufferevent_socket_connect(bev, sa, salen) < 0)
        return -1;
    all->open++;
    return 0;
}

static uint64_t self_cpu_us(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000u +
           (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

int scale_agents_main(int pin_fd, int rep_fd)
{
    static struct agents all;
    char line[400], addr[100], pin[TLS_FP_LEN], err[200];
    ssize_t k = read(pin_fd, line, sizeof line - 1);
    line[k > 0 ? k : 0] = 0;
    if (sscanf(line, "%99s %119s", addr, pin) != 2)
        return EX_SOFTWARE;   /* the controller did not start: it said why */
    struct sockaddr_storage ss;
    int sslen = sizeof ss;
    all.base = event_base_new();
    all.ctx = tls_client_ctx(err, sizeof err);
    if (!all.base || !all.ctx || evutil_parse_sockaddr_port(addr, (struct sockaddr *)&ss, &sslen) < 0 ||
        SSL_CTX_set_ciphersuites(all.ctx, "TLS_AES_128_GCM_SHA256") != 1)
        return EX_SOFTWARE;
    for (int i = 0; i < AGENTS; i++)
        if (agent_connect(&all, i, addr, pin, (struct sockaddr *)&ss, sslen) < 0)
            return EX_UNAVAILABLE;
    struct event *t = event_new(all.base, -1, EV_PERSIST, agents_tick, &all);
    struct timeval tv = { 0, TICK_US };
    event_add(t, &tv);
    event_base_dispatch(all.base);
    all.rep.cpu_us = self_cpu_us();
    return write(rep_fd, &all.rep, sizeof all.rep) == (ssize_t)sizeof all.rep ? 0 : EX_IOERR;
}

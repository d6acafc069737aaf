/* bench_controller_scale.c -- the controller carrying 100,000 sessions: 200 synthetic agents x
 * 500 sessions over the real agent link, driven by the real `sessmax run` code.
 *
 * The controller is run_execute() on a generated plan (remote agents expected on loopback with
 * TLS, 100,000 sessions ramped over LAUNCH_S, the task-worker workload): listener, TLS 1.3,
 * token proofs, clock probes, tagged frames, ramp and START messages, intake, ledger, live
 * score, batched store commits and ACKs are all the production ones. The agents are WORKERS
 * child processes of this program, each holding AGENTS / WORKERS agent links (each its own TCP +
 * TLS connection, HELLO, proof and identity, pinned to the controller's certificate, token from
 * SESSMAX_TOKEN as remote agents take it). An agent answers START as a session does: LAUNCHED,
 * ACTIVE after a logon second, then the task worker's samples (simhost-task-worker: 6 timers and
 * the vsi measure per 30 s loop), a traffic record per session every 5 s and a health record
 * every 2 s, batched every 50 ms like agent/link.c. During BURST_S seconds of the steady state
 * every agent also streams extra sample batches as fast as the ACKs allow (<= WINDOW unacked):
 * that is the committed-rate figure. STOP ends every session, DONE, the last ACK.
 *
 * Printed: ingest rates, controller CPU and peak RSS (this process; the agents are children),
 * live-score cost, commit time and batch-to-ACK latency, ACKs dropped or late, each with its
 * target. Run: build/bench/bench_controller_scale (about 4 minutes, ~1 GB of disk in /tmp). */
#include "bench/bench_proc.h"
#include "common/clock.h"
#include "common/hostport.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/proto_auth.h"
#include "common/tls.h"
#include "common/wire.h"
#include "controller/run/plan_check.h"
#include "controller/run/run.h"

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <sysexits.h>
#include <unistd.h>

#ifndef AGENTS
#define AGENTS 200
#endif
#ifndef PER_AGENT
#define PER_AGENT 500
#endif
#define WORKERS 8
#ifndef LAUNCH_S
#define LAUNCH_S 100            /* launch window: 1,000 sessions/s */
#endif
#ifndef STEADY_S
#define STEADY_S 60
#endif
#ifndef BURST_AT_S
#define BURST_AT_S 20           /* into the steady state */
#endif
#ifndef BURST_S
#define BURST_S 15
#endif
#define LOOP_US 30000000ull     /* one task-worker loop: 6 timers + the vsi measure */
#define STEPS 7
#define TRAFFIC_US 5000000ull
#define HEALTH_US 2000000ull
#define LOGON_US 1000000ull
#define TICK_US 50000           /* batch flush, as agent/link.c */
#define BURST_BATCH 2000u
#define WINDOW 16u              /* batches unacknowledged per agent while bursting */
#define RING 4096u              /* batches in flight per agent we can time */
#define LATE_US 1000000ull      /* an ACK later than this after its batch left is late */
#define HIST_MS 5000

static const char *const step_name[STEPS] = { "app_start", "file_open", "echo", "zip_high", "zip_low", "cpu", "vsi" };

/* What a worker reports to the controller side when its agents are finished. */
struct report {
    uint32_t agents_ready, agents_lost, sessions;
    uint64_t samples, records, batches, acked, late, dropped;
    uint64_t burst_batches, burst_late;           /* burst batches queue behind WINDOW others: timed apart */
    uint64_t burst_samples, burst_t0, burst_t1;   /* acked burst samples; first sent, last acked (wall µs) */
    uint64_t first_start;                         /* wall µs of the first START */
    uint32_t hist[HIST_MS + 1];                   /* batch -> ACK latency, ms buckets (last: more) */
    uint32_t bhist[HIST_MS + 1];                  /* the same for burst batches */
};

/* --- the synthetic agents (worker processes) ------------------------------------------------- */

struct ssess {
    uint32_t index;
    uint64_t due, traffic_due;
    uint8_t step, active;
};

struct sagent {
    struct worker *wk;
    struct wire *w;
    char name[32];
    struct ssess *s;
    uint32_t n;
    struct proto_buf b;
    uint64_t seq, acked, health_due;
    uint64_t sent_us[RING];
    uint32_t count[RING];
    uint8_t burst[RING];
    int ready, stopping, done_sent, closed;
};

struct worker {
    struct event_base *base;
    SSL_CTX *ctx;
    struct sagent a[AGENTS / WORKERS];
    int open;
    uint64_t burst_from, burst_to;
    struct report rep;
};

static void sa_add(struct sagent *a, const struct proto_record *r)
{
    if (!a->b.records_open)
        proto_records_begin(&a->b, ++a->seq);
    if (proto_records_add(&a->b, r) < 0)
        abort();   /* batches are flushed every tick, far below the frame limit */
    a->wk->rep.records++;
    a->wk->rep.samples += r->kind == PROTO_REC_SAMPLE;
}

static void sa_flush(struct sagent *a, int burst)
{
    if (!a->b.records_open)
        return;
    uint32_t n = proto_records_open_count(&a->b);
    proto_records_end(&a->b);
    if (a->seq - a->acked >= RING)
        abort();
    a->sent_us[a->seq % RING] = clock_wall_us();
    a->count[a->seq % RING] = n;
    a->burst[a->seq % RING] = (uint8_t)burst;
    a->wk->rep.batches++;
    a->wk->rep.burst_batches += burst != 0;
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

static void sample_rec(struct sagent *a, uint32_t index, uint32_t loop, const char *name, int measure, int64_t v)
{
    struct proto_record r = { .kind = PROTO_REC_SAMPLE };
    r.u.sample = (struct rec_sample){ .session = index, .loop = loop, .t_us = clock_wall_us(), .value_us = v,
                                      .ok = 1, .is_measure = (uint8_t)measure };
    snprintf(r.u.sample.name, sizeof r.u.sample.name, "%s", name);
    sa_add(a, &r);
}

/* One session's records that are due: ACTIVE after the logon, then one step every loop/7. */
static void session_due(struct sagent *a, struct ssess *s, uint64_t now)
{
    while (s->due <= now) {
        if (!s->active) {
            s->active = 1;
            session_rec(a, s->index, SESSION_ACTIVE, (int64_t)LOGON_US);
        } else {
            int64_t v = 300000 + (int64_t)((s->index * 7919u + s->step * 104729u) % 900000u);
            sample_rec(a, s->index, s->step / STEPS, step_name[s->step % STEPS], s->step % STEPS == STEPS - 1, v);
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

/* Extra sample batches while the burst lasts, up to WINDOW unacknowledged. */
static void burst_fill(struct sagent *a, uint64_t now)
{
    struct worker *wk = a->wk;
    if (!a->n || now < wk->burst_from || now >= wk->burst_to || a->stopping)
        return;
    while (a->seq - a->acked < WINDOW) {
        sa_flush(a, 0);
        for (uint32_t i = 0; i < BURST_BATCH; i++)
            sample_rec(a, a->s[i % a->n].index, 1000 + i, "app_start", 0, 500000 + i);
        if (!wk->rep.burst_t0)
            wk->rep.burst_t0 = clock_wall_us();
        sa_flush(a, 1);
    }
}

static void sa_tick(struct sagent *a, uint64_t now)
{
    if (!a->ready || a->closed || a->done_sent)
        return;
    for (uint32_t i = 0; i < a->n && !a->stopping; i++)
        session_due(a, &a->s[i], now);
    if (now >= a->health_due) {
        struct proto_record r = { .kind = PROTO_REC_HEALTH };
        r.u.health = (struct rec_health){ .t_us = clock_wall_us(), .sessions_active = a->n, .cpu_permille = 50,
                                          .rss_kb = 20000 };
        sa_add(a, &r);
        a->health_due = now + HEALTH_US;
    }
    sa_flush(a, 0);
    burst_fill(a, now);
}

static void sa_stop(struct sagent *a)
{
    a->stopping = 1;
    for (uint32_t i = 0; i < a->n; i++) {
        session_rec(a, a->s[i].index, SESSION_LOGOFF, 0);
        session_rec(a, a->s[i].index, SESSION_ENDED, 0);
    }
    sa_flush(a, 0);
    struct proto_msg d = { .type = PROTO_DONE };
    d.u.done.ended = a->n;
    wire_send(a->w, &d);
    a->done_sent = 1;
}

static void sa_ack(struct sagent *a, uint64_t seq)
{
    struct report *rep = &a->wk->rep;
    uint64_t now = clock_wall_us();
    for (; a->acked < seq && a->acked < a->seq; a->acked++) {
        uint32_t k = (uint32_t)((a->acked + 1) % RING);
        uint64_t lat = now - a->sent_us[k];
        rep->acked++;
        uint32_t *h = a->burst[k] ? rep->bhist : rep->hist;
        h[lat / 1000 < HIST_MS ? lat / 1000 : HIST_MS]++;
        rep->late += !a->burst[k] && lat > LATE_US;
        if (a->burst[k]) {
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

static void sa_msg(struct wire *w, struct proto_msg *m, void *arg)
{
    struct sagent *a = arg;
    (void)w;
    if (m->type == PROTO_START && !a->stopping) {
        struct ssess *s = &a->s[a->n++];
        uint64_t now = clock_now_us();
        if (!a->wk->rep.first_start)
            a->wk->rep.first_start = clock_wall_us();
        if (!a->wk->burst_from) {
            a->wk->burst_from = now + (LAUNCH_S + BURST_AT_S) * 1000000ull;
            a->wk->burst_to = a->wk->burst_from + BURST_S * 1000000ull;
        }
        s->index = m->u.start.index;
        s->due = now + LOGON_US;
        s->traffic_due = now + (m->u.start.seed % TRAFFIC_US);
        a->wk->rep.sessions++;
        session_rec(a, s->index, SESSION_LAUNCHED, 0);
    } else if (m->type == PROTO_STOP && !a->stopping) {
        sa_stop(a);
    } else if (m->type == PROTO_ACK) {
        sa_ack(a, m->u.ack_seq);
    }
}

static void sa_ready(struct wire *w, void *arg)
{
    struct sagent *a = arg;
    (void)w;
    a->ready = 1;
    a->wk->rep.agents_ready++;
}

static void sa_close(struct wire *w, const char *reason, void *arg)
{
    struct sagent *a = arg;
    if (!(a->done_sent && a->acked >= a->seq)) {
        fprintf(stderr, "bench: agent %s: %s\n", a->name, reason);
        a->wk->rep.agents_lost++;
    }
    a->wk->rep.dropped += a->seq - a->acked;
    a->closed = 1;
    wire_free(w);
    a->w = NULL;
    if (--a->wk->open == 0)
        event_base_loopexit(a->wk->base, NULL);
}

static void worker_tick(evutil_socket_t fd, short what, void *arg)
{
    struct worker *wk = arg;
    (void)fd;
    (void)what;
    uint64_t now = clock_now_us();
    for (size_t i = 0; i < AGENTS / WORKERS; i++)
        sa_tick(&wk->a[i], now);
}

static int worker_main(int id, int pin_fd, int rep_fd)
{
    static struct worker wk;
    char line[400], addr[100], pin[TLS_FP_LEN], err[200];
    ssize_t k = read(pin_fd, line, sizeof line - 1);
    line[k > 0 ? k : 0] = 0;
    if (sscanf(line, "%99s %119s", addr, pin) != 2)
        return EX_SOFTWARE;   /* the controller did not start: it said why */
    struct sockaddr_storage ss;
    int sslen = sizeof ss;
    wk.base = event_base_new();
    wk.ctx = tls_client_ctx(err, sizeof err);
    if (!wk.base || !wk.ctx || evutil_parse_sockaddr_port(addr, (struct sockaddr *)&ss, &sslen) < 0)
        return EX_SOFTWARE;
    for (int i = 0; i < AGENTS / WORKERS; i++) {
        struct sagent *a = &wk.a[i];
        a->wk = &wk;
        a->s = calloc(PER_AGENT, sizeof *a->s);
        snprintf(a->name, sizeof a->name, "synth-%03d", id * (AGENTS / WORKERS) + i);
        struct bufferevent *bev = bufferevent_openssl_socket_new(wk.base, -1, SSL_new(wk.ctx),
                                                                 BUFFEREVENT_SSL_CONNECTING, BEV_OPT_CLOSE_ON_FREE);
        struct wire_params wp = { .role = WIRE_AGENT, .token = getenv("SESSMAX_TOKEN"), .peer = addr,
                                  .name = a->name, .capacity = PER_AGENT, .tls_pin = pin };
        struct wire_callbacks cb = { a, sa_ready, sa_msg, sa_close };
        a->w = bev ? wire_new(wk.base, bev, &wp, &cb) : NULL;
        if (!a->s || !a->w || bufferevent_socket_connect(bev, (struct sockaddr *)&ss, sslen) < 0)
            return EX_UNAVAILABLE;
        wk.open++;
    }
    struct event *t = event_new(wk.base, -1, EV_PERSIST, worker_tick, &wk);
    struct timeval tv = { 0, TICK_US };
    event_add(t, &tv);
    event_base_dispatch(wk.base);
    return write(rep_fd, &wk.rep, sizeof wk.rep) == (ssize_t)sizeof wk.rep ? 0 : EX_IOERR;
}

/* --- the controller side (this process) ------------------------------------------------------- */

struct probe {                   /* CPU and RSS of this process, once a second */
    uint64_t t[4096], cpu[4096];
    size_t n;
    volatile int stop;
};

static uint64_t cpu_us(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000u + (uint64_t)(ru.ru_utime.tv_usec +
                                                                                         ru.ru_stime.tv_usec);
}

static void *probe_main(void *arg)
{
    struct probe *p = arg;
    while (!p->stop && p->n < 4096) {
        p->t[p->n] = clock_wall_us();
        p->cpu[p->n++] = cpu_us();
        usleep(500000);
    }
    return NULL;
}

/* Share of one core this process used between two wall-clock instants. */
static double cpu_share(const struct probe *p, uint64_t from, uint64_t to)
{
    size_t a = 0, b = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->t[i] <= from)
            a = i;
        if (p->t[i] <= to)
            b = i;
    }
    return b > a ? (double)(p->cpu[b] - p->cpu[a]) / (double)(p->t[b] - p->t[a]) : 0;
}

/* The run's console goes to stderr; the line naming the certificate pin is handed to the
 * workers ("ADDR PIN"). */
struct console {
    char addr[64];
    int pin_fd[WORKERS];
    int sent;
};

static ssize_t console_write(void *cookie, const char *buf, size_t len)
{
    struct console *c = cookie;
    fwrite(buf, 1, len, stderr);
    const char *p = memmem(buf, len, "--tls-pin ", 10);
    if (p && !c->sent) {
        char pin[TLS_FP_LEN], line[200];
        if (sscanf(p + 10, "%119s", pin) == 1) {
            int n = snprintf(line, sizeof line, "%s %s\n", c->addr, pin);
            for (int i = 0; i < WORKERS; i++)
                if (write(c->pin_fd[i], line, (size_t)n) != n)
                    fprintf(stderr, "bench: cannot reach worker %d\n", i);
            c->sent = 1;
        }
    }
    return (ssize_t)len;
}

static int write_plan(const char *dir, const char *addr, char *path, size_t len)
{
    const char *src = getenv("SESSMAX_SOURCE_DIR") ? getenv("SESSMAX_SOURCE_DIR") : SESSMAX_SOURCE_DIR;
    snprintf(path, len, "%s/plan.yaml", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "version: 1\nname: bench-100k\ntarget: {host: 127.0.0.1, port: 9, verify: false}\n"
               "credentials: {user: \"u{n:06}\", password_env: SESSMAX_BENCH_PASSWORD}\n"
               "workload: %s/workloads/simhost-task-worker.yaml\nsessions: %d\nlaunch_window: %ds\n"
               "steady_state: %ds\nlogoff_deadline: 30s\n"
               "agents: {expect: %d, listen: \"%s\", tls: true, capacity: %d, wait: 2m}\nresults: %s/bench.db\n",
            src, AGENTS * PER_AGENT, LAUNCH_S, STEADY_S, AGENTS, addr, PER_AGENT, dir);
    return fclose(f);
}

struct totals {
    struct report r;
    uint64_t burst_t0, burst_t1, first_start;
};

static void add_report(struct totals *t, const struct report *w)
{
    t->r.agents_ready += w->agents_ready; t->r.agents_lost += w->agents_lost; t->r.sessions += w->sessions;
    t->r.samples += w->samples; t->r.records += w->records; t->r.batches += w->batches; t->r.acked += w->acked;
    t->r.late += w->late; t->r.dropped += w->dropped; t->r.burst_samples += w->burst_samples;
    t->r.burst_batches += w->burst_batches; t->r.burst_late += w->burst_late;
    for (int i = 0; i <= HIST_MS; i++) {
        t->r.hist[i] += w->hist[i];
        t->r.bhist[i] += w->bhist[i];
    }
    if (w->burst_t0 && (!t->burst_t0 || w->burst_t0 < t->burst_t0))
        t->burst_t0 = w->burst_t0;
    if (w->burst_t1 > t->burst_t1)
        t->burst_t1 = w->burst_t1;
    if (w->first_start && (!t->first_start || w->first_start < t->first_start))
        t->first_start = w->first_start;
}

static double hist_ms(const uint32_t *h, uint64_t n, double q)
{
    uint64_t want = (uint64_t)(q * (double)n), seen = 0;
    for (int i = 0; i <= HIST_MS; i++)
        if ((seen += h[i]) > want || (seen == n && n))
            return i + 1;
    return 0;
}

static uint64_t hist_n(const uint32_t *h)
{
    uint64_t n = 0;
    for (int i = 0; i <= HIST_MS; i++)
        n += h[i];
    return n;
}

/* Batch -> ACK latency. Burst batches wait behind up to WINDOW x BURST_BATCH samples of their
 * agent (in flight = rate x latency), so they are timed apart from the regular batches and the
 * no-late target applies to the regular ones. */
static void print_acks(const struct report *r)
{
    uint64_t n = hist_n(r->hist), bn = hist_n(r->bhist);
    printf("  %-46s p50 %.0f ms, p99 %.0f ms, max %s%.0f ms (%llu batches)\n", "regular batch sent -> ACK received",
           hist_ms(r->hist, n, 0.5), hist_ms(r->hist, n, 0.99), r->hist[HIST_MS] ? "> " : "", hist_ms(r->hist, n, 1.0),
           (unsigned long long)n);
    printf("  %-46s p50 %.0f ms, p99 %.0f ms, max %s%.0f ms (%llu late of %llu batches of %u, %u in flight per agent)\n",
           "burst batch sent -> ACK received", hist_ms(r->bhist, bn, 0.5), hist_ms(r->bhist, bn, 0.99),
           r->bhist[HIST_MS] ? "> " : "", hist_ms(r->bhist, bn, 1.0), (unsigned long long)r->burst_late,
           (unsigned long long)bn, BURST_BATCH, WINDOW);
    printf("  %-46s %llu dropped, %llu late (> %llu ms) of %llu regular   target: none: %s\n", "ACKs",
           (unsigned long long)r->dropped, (unsigned long long)r->late, LATE_US / 1000,
           (unsigned long long)(r->batches - r->burst_batches),
           !r->dropped && !r->late && r->acked == r->batches ? "met" : "NOT met");
}

static void print_figures(const struct totals *t, const struct run_outcome *o, const struct probe *p, long rss_kb,
                          uint64_t end_us)
{
    const struct report *r = &t->r;
    uint64_t ramp_end = t->first_start + LAUNCH_S * 1000000ull;
    double burst_s = (double)(t->burst_t1 - t->burst_t0) / 1e6, burst_rate = burst_s > 0 ? r->burst_samples / burst_s : 0;
    double run_s = (double)(end_us - t->first_start) / 1e6;
    printf("controller at scale: %u synthetic agents x %d sessions over the agent link (TLS 1.3, token proofs, tagged frames),\n"
           "  run by run_execute: ramp over %d s, steady %d s, task-worker samples + traffic + health, burst of %d s\n",
           r->agents_ready, PER_AGENT, LAUNCH_S, STEADY_S, BURST_S);
    printf("  %-46s %u of %d, %u lost\n", "agents connected", r->agents_ready, AGENTS, r->agents_lost);
    printf("  %-46s %u of %d\n", "sessions started", r->sessions, AGENTS * PER_AGENT);
    printf("  %-46s %llu samples, %llu records in %llu batches (%.0f records/s over the run)\n", "sent",
           (unsigned long long)r->samples, (unsigned long long)r->records, (unsigned long long)r->batches,
           run_s > 0 ? r->records / run_s : 0);
    if (!t->burst_t0)   /* every agent kept WINDOW batches unacknowledged all through the burst */
        printf("  %-46s no burst batch could be sent (ACKs too late)   target >= 500000: NOT met\n",
               "committed + acked during the burst");
    else
        printf("  %-46s %12.0f samples/s   target >= 500000: %s\n", "committed + acked during the burst", burst_rate,
               burst_rate >= 500000 ? "met" : "NOT met");
    uint64_t steady_end = t->burst_t0 ? t->burst_t0 : ramp_end + STEADY_S * 1000000ull;
    printf("  %-46s %5.0f %% / %5.0f %% / %5.0f %% of one core%s\n", "controller CPU: ramp / steady / burst",
           100 * cpu_share(p, t->first_start, ramp_end), 100 * cpu_share(p, ramp_end + 2000000, steady_end),
           100 * cpu_share(p, t->burst_t0, t->burst_t1), t->burst_t0 ? "" : " (no burst)");
    printf("  %-46s %9.1f MiB   target <= 1024 MiB: %s\n", "controller peak RSS", rss_kb / 1024.0,
           rss_kb <= 1024 * 1024 ? "met" : "NOT met");
    printf("  %-46s %u runs, %.1f ms each on average, %.1f ms the longest (%.2f %% of the run)\n",
           "live score", o->live_score_runs, o->live_score_runs ? o->live_score_us / 1e3 / o->live_score_runs : 0,
           o->live_score_max_us / 1e3, run_s > 0 ? 100 * o->live_score_us / 1e6 / run_s : 0);
    printf("  %-46s p99 %.0f ms, max %.0f ms (the loop thread held up by anything)\n",
           "controller tick later than due (every 250 ms)", o->tick_lag_p99_us / 1e3, o->tick_lag_max_us / 1e3);
    printf("  %-46s %llu commits, %.1f ms on average, %.1f ms the longest\n", "store commits (every 250 ms)",
           (unsigned long long)o->commits, o->commits ? o->commit_us / 1e3 / o->commits : 0, o->commit_max_us / 1e3);
    print_acks(r);
    printf("  run %s: %s\n", o->status, o->message);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    log_init("bench_controller_scale", LOG_WARN);
    signal(SIGPIPE, SIG_IGN);
    char dir[] = "/tmp/bench_scale_XXXXXX", plan[256], token[65], err[512];
    struct console con = { 0 };
    int rep_fd[WORKERS];
    pid_t pids[WORKERS];
    if (!mkdtemp(dir) || proto_new_token(token) < 0)
        return EX_IOERR;
    snprintf(con.addr, sizeof con.addr, "127.0.0.1:%d", hostport_free_loopback());
    setenv("SESSMAX_TOKEN", token, 1);
    setenv("SESSMAX_BENCH_PASSWORD", "bench-password", 1);
    if (write_plan(dir, con.addr, plan, sizeof plan) < 0)
        return EX_IOERR;
    for (int i = 0; i < WORKERS; i++) {
        int pp[2], rp[2];
        if (pipe(pp) < 0 || pipe(rp) < 0)
            return EX_OSERR;
        if ((pids[i] = fork()) == 0) {
            close(pp[1]);
            close(rp[0]);
            _exit(worker_main(i, pp[0], rp[1]));
        }
        close(pp[0]);
        close(rp[1]);
        con.pin_fd[i] = pp[1];
        rep_fd[i] = rp[0];
    }
    struct plan_checked pc;
    if (plan_check_load(plan, &pc, err, sizeof err) != 0) {
        fprintf(stderr, "bench: %s\n", err);
        return EX_SOFTWARE;
    }
    FILE *out = fopencookie(&con, "w", (cookie_io_functions_t){ .write = console_write });
    setvbuf(out, NULL, _IOLBF, 0);
    static struct probe probe;
    pthread_t th;
    pthread_create(&th, NULL, probe_main, &probe);
    struct run_options ro = { .tty = 0, .out = out };
    struct run_outcome o;
    run_execute(&pc, &ro, &o);
    uint64_t end_us = clock_wall_us();
    probe.stop = 1;
    pthread_join(th, NULL);
    long rss = bench_proc_kb(getpid(), "VmHWM:");
    fclose(out);
    for (int i = 0; i < WORKERS; i++)
        close(con.pin_fd[i]);
    static struct totals tot;
    static struct report w;
    for (int i = 0; i < WORKERS; i++) {
        int st = 0;
        if (read(rep_fd[i], &w, sizeof w) == (ssize_t)sizeof w)
            add_report(&tot, &w);
        waitpid(pids[i], &st, 0);
    }
    plan_check_free(&pc);
    print_figures(&tot, &o, &probe, rss, end_us);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
    return tot.r.dropped || tot.r.late || tot.r.agents_ready != AGENTS ? 1 : 0;
}

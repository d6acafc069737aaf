/* link.c -- `sessmax-agent connect HOST:PORT`: the agent's side of the controller link.
 *
 * Connects (plain TCP or TLS), authenticates with the shared token, then obeys: CONFIG builds the
 * engine for the target and workload, START starts one session, STOP logs everything off. Every
 * result the engine produces is batched into numbered RECORDS frames (flushed every 50 ms or
 * when a batch is full) that wait in the outbox (outbox.h) until the controller ACKs them, once
 * they are in its store; the agent exits 0 only when every batch was acknowledged after DONE.
 *
 * The first link may have to wait: with --controller-wait the agent tries again (dialwait.h) while
 * no controller answers yet -- refused, unreachable, a name not in DNS yet, as when agents and
 * controller start together on Kubernetes -- and exits 69 (unavailable) at the deadline.
 *
 * A broken link is not the end: sessions go on, results keep collecting in the outbox, and the
 * agent reconnects (exponential backoff with jitter) for as long as the controller's grace period
 * (from WELCOME) lasts, proves the token again and shows its resume ticket; the controller's
 * WELCOME says which batch it stored last, and everything after it is sent again. Past the grace
 * period, or when the controller refuses it, the agent drops its sessions and exits 1: it never
 * runs unsupervised for long. */
#include "agent/link/link.h"
#include "agent/link/dialwait.h"
#include "agent/link/link_opts.h"
#include "agent/netem/netem.h"
#include "agent/link/outbox.h"

#include "agent/engine/engine.h"
#include "agent/rdp/kind.h"
#include "agent/x11/kind.h"
#include "common/x11_preset.h"
#include "common/clock.h"
#include "common/hostport.h"
#include "common/log.h"
#include "common/names.h"
#include "common/proto.h"
#include "common/proto_auth.h"
#include "common/tls.h"
#include "common/wire.h"
#include "common/workload.h"
#include "common/workload_drives.h"

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/util.h>
#include <netdb.h>
#include <openssl/crypto.h>
#include <openssl/ssl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <unistd.h>

#define FLUSH_MS 50
#define BATCH_MAX 4000
#define PUMP_MAX (1u << 20)        /* bytes queued on the socket before the outbox waits */
#define RETRY_MIN_MS 250           /* reconnect backoff: 250 ms, 500 ms, ... */
#define RETRY_MAX_MS 8000          /* ... at most 8 s, each +-50 % jitter */

struct link {
    struct event_base *base;
    struct wire *wire;
    struct engine *engine;
    struct workload *wl;
    struct event *flush_ev, *sig_int, *sig_term, *retry_ev, *dial_ev;
    struct dialwait dial;          /* the first link: how long and how often to try */
    int dial_over;                 /* gave up on the first link */
    struct proto_buf batch;
    struct outbox *ob;             /* batches not yet acknowledged */
    uint64_t next_seq;
    int stopping, done_due, done_on_link, config_on_link, exit_code;
    int finishing;                 /* exit 0 as soon as the queued output reached the socket */
    const struct link_opts *o;
    const char *name, *token;
    SSL_CTX *ctx;
    struct sockaddr_storage ss;
    int sslen;
    int welcomed;                  /* a WELCOME came: a broken link can be resumed */
    uint8_t ticket[PROTO_TICKET_LEN];
    uint32_t grace_ms;
    uint64_t lost_us;              /* when the link broke (clock_now_us); 0 while connected */
    unsigned attempts;
    uint64_t produced[PROTO_REC_TRAFFIC_RTT + 1];   /* records the engine produced, by kind */
    uint8_t *started;              /* bitmap of session indexes already started */
    size_t started_len;
    struct netem *netem;           /* the controller's network profile, applied here; NULL: lan */
    int ext_costs;                 /* CONFIG ext_costs: health with external costs as health_ext */
    int ext_capacity;              /* CONFIG ext_capacity: as health_cap, with the capacity */
    int logon_phases;              /* CONFIG logon_phases: send logon records */
    int min_rtt;                   /* CONFIG min_rtt: traffic as traffic_rtt */
    struct x11_client client;      /* CONFIG `client` when it names an external client */
};

static void finish(struct link *l, int code)
{
    l->exit_code = code;
    event_base_loopexit(l->base, NULL);
}

/* Exits 0 once the queued output (DONE, the last frames) was written to the socket: an agent
 * whose results were all acknowledged before STOP (sessions that ended on their own after
 * `loops:`) would otherwise leave the loop with DONE still queued, and look lost. */
static void finish_clean(struct link *l)
{
    l->finishing = 1;
    if (!l->wire || wire_pending_out(l->wire) == 0)
        finish(l, 0);
}

/* --- results -> RECORDS frames --------------------------------------------------------------- */

static void send_done_now(struct link *l);

/* Sends what the outbox holds for this link, up to PUMP_MAX bytes waiting on the socket (the
 * flush timer and each ACK call again); DONE follows the last batch. */
static void pump(struct link *l)
{
    const uint8_t *f;
    size_t n;
    int rc = 1;
    if (!wire_is_ready(l->wire))
        return;
    while (wire_pending_out(l->wire) < PUMP_MAX && (rc = outbox_next(l->ob, &f, &n)) == 1)
        wire_send_raw(l->wire, f, n);
    if (rc < 0) {
        log_error("cannot read results back from the spill file: giving up");
        finish(l, EX_IOERR);
    } else if (rc == 0 && l->done_due && !l->done_on_link) {
        send_done_now(l);
    }
}

static void flush_batch(struct link *l)
{
    if (!l->batch.records_open)
        return;
    proto_records_end(&l->batch);
    if (outbox_push(l->ob, l->next_seq, l->batch.data, l->batch.len) < 0)
        log_ratelimited(LOG_ERROR, "link-keep", "a batch of results could not be kept: it is lost");
    l->batch.len = 0;
    pump(l);
}

static void add_record(struct link *l, const struct proto_record *r)
{
    l->produced[r->kind]++;
    if (!l->batch.records_open && proto_records_begin(&l->batch, ++l->next_seq) < 0)
        goto oom;
    if (proto_records_add(&l->batch, r) < 0) {
        flush_batch(l);
        if (proto_records_begin(&l->batch, ++l->next_seq) < 0 || proto_records_add(&l->batch, r) < 0)
            goto oom;
    }
    if (proto_records_open_count(&l->batch) >= BATCH_MAX)
        flush_batch(l);
    return;
oom:
    log_ratelimited(LOG_ERROR, "link-oom", "out of memory: a result record was dropped");
}

static void sink_sample(void *ctx, const struct rec_sample *s)
{
    struct proto_record r = { .kind = PROTO_REC_SAMPLE, .u.sample = *s };
    add_record(ctx, &r);
}

static void sink_session(void *ctx, const struct rec_session *e)
{
    struct proto_record r = { .kind = PROTO_REC_SESSION, .u.session = *e };
    add_record(ctx, &r);
}

static void sink_traffic(void *ctx, const struct rec_traffic *t)
{
    struct link *l = ctx;
    struct proto_record r = { .kind = l->min_rtt ? PROTO_REC_TRAFFIC_RTT : PROTO_REC_TRAFFIC, .u.traffic = *t };
    add_record(ctx, &r);
}

static void sink_logon(void *ctx, const struct rec_logon *g)
{
    struct link *l = ctx;
    struct proto_record r = { .kind = PROTO_REC_LOGON, .u.logon = *g };
    if (l->logon_phases)
        add_record(ctx, &r);
}

static void sink_health(void *ctx, const struct rec_health *h)
{
    struct link *l = ctx;
    enum proto_record_kind ext = l->ext_capacity ? PROTO_REC_HEALTH_CAP : PROTO_REC_HEALTH_EXT;
    struct proto_record r = { .kind = h->ext.sessions && l->ext_costs ? ext : PROTO_REC_HEALTH, .u.health = *h };
    add_record(ctx, &r);
}

static void flush_cb(evutil_socket_t fd, short what, void *arg)
{
    struct link *l = arg;
    (void)fd;
    (void)what;
    flush_batch(l);
    pump(l);
    if (l->finishing && (!l->wire || wire_pending_out(l->wire) == 0))
        finish(l, 0);
}

/* --- commands -------------------------------------------------------------------------------- */

/* Every session ended after STOP: DONE goes out once every batch before it has. */
static void send_done(struct link *l)
{
    flush_batch(l);
    l->done_due = 1;
    pump(l);
}

static void send_done_now(struct link *l)
{
    struct engine_counts c = { 0 };
    if (l->engine)
        engine_get_counts(l->engine, &c);
    struct proto_msg m = { .type = PROTO_DONE };
    m.u.done.ended = c.done;
    m.u.done.failed = c.failed;
    wire_send(l->wire, &m);
    l->done_on_link = 1;
    log_info("all sessions ended (%u clean, %u failed); waiting for the controller to store %zu batches",
             c.done, c.failed, outbox_frames(l->ob));
    if (outbox_frames(l->ob) == 0)
        finish_clean(l);
}

static void idle_cb(void *arg)
{
    struct link *l = arg;
    if (l->stopping && !l->done_due)
        send_done(l);
}

static int on_config(struct link *l, const struct proto_config *c, char *err, size_t errlen)
{
    if (l->config_on_link++) {
        snprintf(err, errlen, "CONFIG received twice");
        return -1;
    }
    if (l->engine)
        return 0;                  /* sent again on a resumed link: already running it */
    if (c->gateway_host[0]) {
        snprintf(err, errlen, "transport gateway is not supported by this agent's session engine");
        return -1;
    }
    char wlerr[WORKLOAD_ERR_LEN];
    l->wl = workload_load_string(c->workload_name, c->workload_text, strlen(c->workload_text), wlerr, sizeof wlerr);
    if (!l->wl) {
        snprintf(err, errlen, "workload rejected by the agent: %s", wlerr);
        return -1;
    }
    if (c->drives[0] && workload_add_drives_text(l->wl, "the plan's drives", c->drives, wlerr, sizeof wlerr) != 0) {
        snprintf(err, errlen, "drives rejected by the agent: %s", wlerr);
        return -1;
    }
    struct engine_config cfg;
    engine_config_defaults(&cfg);
    cfg.host = c->host;
    cfg.port = c->port;
    cfg.domain = c->domain[0] ? c->domain : NULL;
    cfg.fingerprint = c->no_verify ? NULL : c->fingerprint;
    cfg.no_verify = c->no_verify;
    if (c->security && c->security[0] && engine_security_parse(c->security, &cfg.security) != 0) {
        snprintf(err, errlen, "unknown security layer '%s' (negotiate, tls, nla, rdp)", c->security);
        return -1;
    }
    cfg.width = workload_width(l->wl);
    cfg.height = workload_height(l->wl);
    cfg.bpp = workload_bpp(l->wl);
    cfg.shot_dir = l->o->shot_dir;
    cfg.shot_timers = (int)c->shot_timers;
    cfg.max_loops = c->max_loops;
    cfg.logon_retries = c->logon_retries;
    cfg.config_dir = l->o->config_dir;
    if (l->o->connect_threads)
        cfg.connect_threads = l->o->connect_threads;
    if (c->connect_timeout_ms)
        cfg.connect_timeout_ms = c->connect_timeout_ms;
    cfg.traffic_interval_ms = c->traffic_interval_ms;
    cfg.health_interval_ms = c->health_interval_ms;
    if (c->client && c->client[0]) {
        char cerr[256];
        if (x11_client_from_json(&l->client, c->client, cerr, sizeof cerr) != 0) {
            snprintf(err, errlen, "%s", cerr);
            return -1;
        }
        cfg.client = &l->client;
    }
    l->ext_costs = (int)c->ext_costs;
    l->ext_capacity = (int)c->ext_capacity;
    l->logon_phases = (int)c->logon_phases;
    l->min_rtt = (int)c->min_rtt;
    struct netprofile net;
    char host[64], nerr[512];
    netprofile_lan(&net);
    if (c->network_profile[0] && netprofile_from_json(c->network_profile, &net, nerr, sizeof nerr) != 0) {
        snprintf(err, errlen, "%s", nerr);
        return -1;
    }
    if (netem_apply(&net, &cfg, &l->netem, host, sizeof host, nerr, sizeof nerr) != 0) {
        snprintf(err, errlen, "network %s refused on this agent's host: %s", net.name, nerr);
        return -1;
    }
    cfg.kind = cfg.client ? &x11_session_ops : &rdp_session_ops;
    struct result_sink sink = { l, sink_sample, sink_session, sink_traffic, sink_health, sink_logon };
    l->engine = engine_new(l->base, &cfg, &sink);
    if (!l->engine) {
        snprintf(err, errlen, "the session engine could not start (see the agent's log)");
        return -1;
    }
    engine_set_idle_cb(l->engine, idle_cb, l);
    log_info("target %s:%u, workload %s (%s)", c->host, c->port, workload_name(l->wl), c->workload_name);
    return 0;
}

/* 1 when session `index` was started before (a resumed link sends START again for sessions the
 * controller has not heard of since); else marks it. -1 when out of memory. */
static int seen_before(struct link *l, uint32_t index)
{
    size_t byte = index / 8;
    if (byte >= l->started_len) {
        size_t len = byte + 1024;
        uint8_t *b = realloc(l->started, len);
        if (!b)
            return -1;
        memset(b + l->started_len, 0, len - l->started_len);
        l->started = b;
        l->started_len = len;
    }
    int seen = l->started[byte] >> (index % 8) & 1;
    l->started[byte] |= (uint8_t)(1u << (index % 8));
    return seen;
}

static int on_start(struct link *l, const struct proto_start *s, char *err, size_t errlen)
{
    int seen = seen_before(l, s->index);
    if (seen > 0)
        return 0;
    if (!l->engine || l->stopping || seen < 0) {
        snprintf(err, errlen, "START for session %u %s", s->index, seen < 0 ? "with no memory left" :
                 l->engine ? "after STOP" : "before CONFIG");
        return -1;
    }
    struct engine_session_spec spec = { s->index, s->user, s->password, l->wl, s->seed };
    if (engine_start_session(l->engine, &spec) < 0) {
        struct rec_session r = { .session = s->index, .t_us = clock_wall_us(), .kind = SESSION_FAILED,
                                 .reason = FAIL_INTERNAL };
        snprintf(r.user, sizeof r.user, "%s", s->user);
        snprintf(r.detail, sizeof r.detail, "the agent's engine refused the session");
        sink_session(l, &r);
    }
    return 0;
}

static void on_stop(struct link *l, uint32_t deadline_ms)
{
    if (l->stopping)
        return;
    l->stopping = 1;
    log_info("logoff requested (deadline %u ms)", deadline_ms);
    if (!l->engine || engine_idle(l->engine))
        send_done(l);
    else
        engine_logoff_all(l->engine, deadline_ms);
}

static void on_msg(struct wire *w, struct proto_msg *m, void *arg)
{
    struct link *l = arg;
    char err[600] = "";
    int rc = 0;
    switch (m->type) {
    case PROTO_CONFIG: rc = on_config(l, &m->u.config, err, sizeof err); break;
    case PROTO_START: rc = on_start(l, &m->u.start, err, sizeof err); break;
    case PROTO_STOP: on_stop(l, m->u.stop_deadline_ms); break;
    case PROTO_ACK:
        outbox_ack(l->ob, m->u.ack_seq);
        if (l->done_on_link && outbox_frames(l->ob) == 0)
            finish_clean(l);
        else
            pump(l);
        break;
    default:
        snprintf(err, sizeof err, "unexpected %s message from the controller", proto_type_name(m->type));
        rc = -1;
    }
    if (rc < 0) {
        log_error("%s", err);
        wire_close(w, err);
    }
}

static void on_ready(struct wire *w, void *arg)
{
    struct link *l = arg;
    const struct proto_welcome *wm = wire_welcome(w);
    if (wm->resumed) {
        outbox_ack(l->ob, wm->acked_seq);
        log_warn("link to the controller resumed after %.1f s (attempt %u): it stored every batch up to %llu; "
                 "sending the %zu after it again", (clock_now_us() - l->lost_us) / 1e6, l->attempts,
                 (unsigned long long)wm->acked_seq, outbox_frames(l->ob));
    } else {
        log_info("connected to the controller at %s as agent %u", wire_peer(w), wm->agent_id);
    }
    memcpy(l->ticket, wm->ticket, PROTO_TICKET_LEN);
    l->grace_ms = wm->grace_ms;
    l->welcomed = 1;
    l->lost_us = 0;
    l->attempts = 0;
    l->done_on_link = l->config_on_link = 0;
    outbox_rewind(l->ob);
    pump(l);
}

static int connect_link(struct link *l);

/* The next attempt to get the link back, or the end when the grace period is over. */
static void retry_later(struct link *l)
{
    uint64_t now = clock_now_us(), end = l->lost_us + (uint64_t)l->grace_ms * 1000;
    if (now >= end) {
        log_error("could not get back to the controller within its grace period of %.0f s: dropping %s sessions",
                  l->grace_ms / 1e3, l->engine ? "all" : "no");
        finish(l, 1);
        return;
    }
    uint64_t base = (uint64_t)RETRY_MIN_MS << (l->attempts < 6 ? l->attempts : 6);
    if (base > RETRY_MAX_MS)
        base = RETRY_MAX_MS;
    uint32_t r;
    proto_random((uint8_t *)&r, sizeof r);
    uint64_t ms = base / 2 + r % (base + 1);            /* 50 % to 150 % of the step */
    if (now + ms * 1000 > end)
        ms = (end - now) / 1000;                       /* one last try at the end */
    struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
    evtimer_add(l->retry_ev, &tv);
}

static void retry_cb(evutil_socket_t fd, short what, void *arg)
{
    struct link *l = arg;
    (void)fd;
    (void)what;
    l->attempts++;
    if (connect_link(l) < 0)
        retry_later(l);
}

static void dial_failed(struct link *l, const char *why);

static void on_close(struct wire *w, const char *reason, void *arg)
{
    struct link *l = arg;
    int refused = wire_refused(w), reached = wire_connected(w);
    wire_free(w);
    l->wire = NULL;
    if (l->done_on_link && outbox_frames(l->ob) == 0) {
        finish(l, 0);
        return;
    }
    if (!l->welcomed && !reached) {
        dial_failed(l, reason);    /* no controller answered yet */
        return;
    }
    if (!l->welcomed || !l->grace_ms || refused) {
        log_error("controller link lost: %s; dropping %s sessions", reason, l->engine ? "all" : "no");
        finish(l, 1);
        return;
    }
    if (!l->lost_us) {
        l->lost_us = clock_now_us();
        log_warn("controller link lost: %s; sessions go on, reconnecting for up to %.0f s (%zu batches wait for "
                 "the controller)", reason, l->grace_ms / 1e3, outbox_frames(l->ob));
    }
    retry_later(l);
}

static void signal_cb(evutil_socket_t sig, short what, void *arg)
{
    struct link *l = arg;
    (void)what;
    log_warn("signal %d: leaving the run (the controller will mark this agent's sessions lost)", (int)sig);
    finish(l, 1);
}

/* --- setup ----------------------------------------------------------------------------------- */

/* 0; -1 for text that is not HOST:PORT; 1 for a name that does not resolve (yet). */
static int resolve(const char *addr, struct sockaddr_storage *ss, int *sslen)
{
    char host[256], service[8];
    uint16_t port;
    if (hostport_split(addr, 0, host, sizeof host, &port) != 0)
        return -1;
    snprintf(service, sizeof service, "%u", (unsigned)port);
    if (host[0] == '[') {
        memmove(host, host + 1, strlen(host));
        host[strcspn(host, "]")] = 0;
    }
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res = NULL;
    if (getaddrinfo(host, service, &hints, &res) != 0 || !res)
        return 1;
    memcpy(ss, res->ai_addr, res->ai_addrlen);
    *sslen = (int)res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

/* A new connection to the controller (the first, or one resuming the last link). 0 or -1. */
static int connect_link(struct link *l)
{
    char err[200];
    struct bufferevent *bev;
    if (!l->o->tls) {
        bev = bufferevent_socket_new(l->base, -1, BEV_OPT_CLOSE_ON_FREE);
    } else {
        if (!l->ctx && !(l->ctx = tls_client_ctx(err, sizeof err))) {
            log_error("%s", err);
            return -1;
        }
        SSL *ssl = SSL_new(l->ctx);
        bev = ssl ? bufferevent_openssl_socket_new(l->base, -1, ssl, BUFFEREVENT_SSL_CONNECTING, BEV_OPT_CLOSE_ON_FREE)
                  : NULL;
    }
    struct wire_params wp = { .role = WIRE_AGENT, .token = l->token, .peer = l->o->addr, .name = l->name,
                              .capacity = l->o->capacity, .tls_pin = l->o->insecure ? NULL : l->o->pin,
                              .ticket = l->welcomed ? l->ticket : NULL };
    struct wire_callbacks cb = { l, on_ready, on_msg, on_close };
    l->wire = bev ? wire_new(l->base, bev, &wp, &cb) : NULL;
    if (l->wire && bufferevent_socket_connect(bev, (struct sockaddr *)&l->ss, l->sslen) == 0)
        return 0;
    wire_free(l->wire);
    l->wire = NULL;
    return -1;
}

/* --- the first link: waiting for a controller that does not answer yet ---------------------------- */

/* The first link did not reach a controller: another attempt after the backoff, or exit 69 at the
 * deadline. Called once per attempt (a pending attempt means this one was counted already). */
static void dial_failed(struct link *l, const char *why)
{
    if (l->dial_over || evtimer_pending(l->dial_ev, NULL))
        return;
    uint32_t rnd;
    uint64_t now = clock_now_us();
    proto_random((uint8_t *)&rnd, sizeof rnd);
    int64_t ms = dialwait_next_ms(&l->dial, now, rnd);
    if (ms < 0) {
        log_error("no controller at %s: %s (%u attempt%s; --controller-wait %.0f s)", l->o->addr, why,
                  l->dial.failures, l->dial.failures == 1 ? "" : "s", l->o->wait_us / 1e6);
        l->dial_over = 1;
        finish(l, EX_UNAVAILABLE);
        return;
    }
    if (dialwait_should_log(&l->dial, now))
        log_warn("no controller at %s yet: %s; trying again (attempt %u, %.0f s left)", l->o->addr, why,
                 l->dial.failures + 1, (l->dial.deadline_us - now) / 1e6);
    struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
    evtimer_add(l->dial_ev, &tv);
}

static void dial_cb(evutil_socket_t fd, short what, void *arg)
{
    struct link *l = arg;
    char why[320];
    (void)fd;
    (void)what;
    if (resolve(l->o->addr, &l->ss, &l->sslen) != 0) {
        snprintf(why, sizeof why, "cannot resolve '%s'", l->o->addr);
        dial_failed(l, why);
    } else if (connect_link(l) < 0) {
        dial_failed(l, "cannot open a connection");
    }
}

static int setup_events(struct link *l)
{
    struct timeval tv = { 0, FLUSH_MS * 1000 };
    l->flush_ev = event_new(l->base, -1, EV_PERSIST, flush_cb, l);
    l->retry_ev = evtimer_new(l->base, retry_cb, l);
    l->dial_ev = evtimer_new(l->base, dial_cb, l);
    l->sig_int = evsignal_new(l->base, SIGINT, signal_cb, l);
    l->sig_term = evsignal_new(l->base, SIGTERM, signal_cb, l);
    if (!l->flush_ev || !l->retry_ev || !l->dial_ev || !l->sig_int || !l->sig_term)
        return -1;
    return event_add(l->flush_ev, &tv) == 0 && event_add(l->sig_int, NULL) == 0 && event_add(l->sig_term, NULL) == 0
               ? 0 : -1;
}

static void teardown(struct link *l)
{
    if (l->engine)
        engine_free(l->engine);
    netem_close(l->netem);   /* after the engine: its sessions' sockets live in the namespace */
    workload_free(l->wl);
    wire_free(l->wire);
    outbox_free(l->ob);
    proto_buf_free(&l->batch);
    free(l->started);
    if (l->flush_ev) event_free(l->flush_ev);
    if (l->retry_ev) event_free(l->retry_ev);
    if (l->dial_ev) event_free(l->dial_ev);
    if (l->sig_int) event_free(l->sig_int);
    if (l->sig_term) event_free(l->sig_term);
    if (l->base)
        event_base_free(l->base);
    SSL_CTX_free(l->ctx);
}

int link_main(int argc, char **argv)
{
    struct link l = { 0 };
    struct link_opts o = { 0 };
    int rc = link_opts_parse(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    l.o = &o;
    char *token = link_opts_token(&o), name[64];
    if (!token)
        return EX_CONFIG;
    l.token = token;
    if (resolve(o.addr, &l.ss, &l.sslen) < 0) {
        fprintf(stderr, "sessmax-agent connect: '%s' is not HOST:PORT\n", o.addr);
        rc = EX_USAGE;
        goto out;
    }
    l.name = o.name;
    if (!l.name) {
        char host[64] = "agent", safe[64];
        gethostname(host, sizeof host - 1);
        name_sanitize(host, safe, sizeof safe);   /* the controller takes names of the name set only */
        snprintf(name, sizeof name, "%.*s-%ld", RESULTS_NAME_LEN - 13, safe, (long)getpid());
        l.name = name;
    }
    signal(SIGPIPE, SIG_IGN);
    rc = EX_SOFTWARE;
    l.base = event_base_new();
    l.ob = outbox_new((size_t)o.buffer_mib << 20, o.spill_dir);
    if (!l.base || !l.ob || setup_events(&l) < 0)
        goto out;
    dialwait_init(&l.dial, clock_now_us(), o.wait_us);
    struct timeval now = { 0, 0 };
    evtimer_add(l.dial_ev, &now);   /* the first attempt, on the loop */
    log_info("connecting to %s as '%s' (capacity %u%s)", o.addr, l.name, o.capacity, o.tls ? ", TLS" : "");
    event_base_dispatch(l.base);
    rc = l.exit_code;
    log_info("results produced: %llu samples, %llu session events, %llu logon, %llu traffic and %llu health "
             "records; %zu batches not acknowledged", (unsigned long long)l.produced[PROTO_REC_SAMPLE],
             (unsigned long long)l.produced[PROTO_REC_SESSION], (unsigned long long)l.produced[PROTO_REC_LOGON],
             (unsigned long long)(l.produced[PROTO_REC_TRAFFIC] + l.produced[PROTO_REC_TRAFFIC_RTT]),
             (unsigned long long)(l.produced[PROTO_REC_HEALTH] + l.produced[PROTO_REC_HEALTH_EXT] +
                                   l.produced[PROTO_REC_HEALTH_CAP]), outbox_frames(l.ob));
out:
    teardown(&l);
    OPENSSL_cleanse(token, strlen(token));
    free(token);
    return rc;
}

/* link.c -- `sessmax-agent connect HOST:PORT`: the agent's side of the controller link.
 *
 * Connects (plain TCP or TLS), authenticates with the token from SESSMAX_TOKEN, then obeys:
 * CONFIG builds the engine for the target and workload, START starts one session, STOP logs
 * everything off. Every result the engine produces is batched into numbered RECORDS frames
 * (flushed every 50 ms or when a batch is full); the controller ACKs batches once they are in the
 * store, and the agent exits 0 only when every batch was acknowledged after DONE. If the
 * controller goes away, sessions are dropped and the agent exits 1: it never runs unsupervised. */
#include "agent/link.h"
#include "agent/netem.h"

#include "agent/engine.h"
#include "common/clock.h"
#include "common/hostport.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/tls.h"
#include "common/wire.h"
#include "common/workload.h"

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

struct link {
    struct event_base *base;
    struct wire *wire;
    struct engine *engine;
    struct workload *wl;
    struct event *flush_ev, *sig_int, *sig_term;
    struct proto_buf batch;
    uint64_t next_seq, acked_seq;
    int stopping, done_sent, exit_code;
    int finishing;                 /* exit 0 as soon as the queued output reached the socket */
    const char *shot_dir, *config_dir;
    unsigned connect_threads;
    struct netem *netem;           /* the controller's network profile, applied here; NULL: lan */
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

static void flush_batch(struct link *l)
{
    if (!l->batch.records_open)
        return;
    proto_records_end(&l->batch);
    if (wire_send_raw(l->wire, l->batch.data, l->batch.len) < 0)
        log_ratelimited(LOG_WARN, "link-send", "cannot send results: the link is closed");
    l->batch.len = 0;
}

static void add_record(struct link *l, const struct proto_record *r)
{
    if (!l->wire)
        return;
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
    struct proto_record r = { .kind = PROTO_REC_TRAFFIC, .u.traffic = *t };
    add_record(ctx, &r);
}

static void sink_health(void *ctx, const struct rec_health *h)
{
    struct proto_record r = { .kind = PROTO_REC_HEALTH, .u.health = *h };
    add_record(ctx, &r);
}

static void flush_cb(evutil_socket_t fd, short what, void *arg)
{
    struct link *l = arg;
    (void)fd;
    (void)what;
    flush_batch(l);
    if (l->finishing && (!l->wire || wire_pending_out(l->wire) == 0))
        finish(l, 0);
}

/* --- commands -------------------------------------------------------------------------------- */

static void send_done(struct link *l)
{
    struct engine_counts c;
    engine_get_counts(l->engine, &c);
    flush_batch(l);
    struct proto_msg m = { .type = PROTO_DONE };
    m.u.done.ended = c.done;
    m.u.done.failed = c.failed;
    wire_send(l->wire, &m);
    l->done_sent = 1;
    log_info("all sessions ended (%u clean, %u failed); waiting for the controller to store %llu batches",
             c.done, c.failed, (unsigned long long)(l->next_seq - l->acked_seq));
    if (l->acked_seq >= l->next_seq)
        finish_clean(l);
}

static void idle_cb(void *arg)
{
    struct link *l = arg;
    if (l->stopping && !l->done_sent)
        send_done(l);
}

static int on_config(struct link *l, const struct proto_config *c, char *err, size_t errlen)
{
    if (l->engine) {
        snprintf(err, errlen, "CONFIG received twice");
        return -1;
    }
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
    cfg.shot_dir = l->shot_dir;
    cfg.shot_timers = (int)c->shot_timers;
    cfg.max_loops = c->max_loops;
    cfg.logon_retries = c->logon_retries;
    cfg.config_dir = l->config_dir;
    if (l->connect_threads)
        cfg.connect_threads = l->connect_threads;
    if (c->connect_timeout_ms)
        cfg.connect_timeout_ms = c->connect_timeout_ms;
    cfg.traffic_interval_ms = c->traffic_interval_ms;
    cfg.health_interval_ms = c->health_interval_ms;
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
    struct result_sink sink = { l, sink_sample, sink_session, sink_traffic, sink_health };
    l->engine = engine_new(l->base, &cfg, &sink);
    if (!l->engine) {
        snprintf(err, errlen, "the session engine could not start (see the agent's log)");
        return -1;
    }
    engine_set_idle_cb(l->engine, idle_cb, l);
    log_info("target %s:%u, workload %s (%s)", c->host, c->port, workload_name(l->wl), c->workload_name);
    return 0;
}

static int on_start(struct link *l, const struct proto_start *s, char *err, size_t errlen)
{
    if (!l->engine || l->stopping) {
        snprintf(err, errlen, "START for session %u %s", s->index, l->engine ? "after STOP" : "before CONFIG");
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
    if (!l->engine || engine_idle(l->engine)) {
        if (!l->engine) {
            flush_batch(l);
            struct proto_msg m = { .type = PROTO_DONE };
            wire_send(l->wire, &m);
            l->done_sent = 1;
            if (l->acked_seq >= l->next_seq)
                finish_clean(l);
            return;
        }
        send_done(l);
        return;
    }
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
        if (m->u.ack_seq > l->acked_seq)
            l->acked_seq = m->u.ack_seq;
        if (l->done_sent && l->acked_seq >= l->next_seq)
            finish_clean(l);
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
    (void)arg;
    log_info("connected to the controller at %s as agent %u", wire_peer(w), wire_welcome(w)->agent_id);
}

static void on_close(struct wire *w, const char *reason, void *arg)
{
    struct link *l = arg;
    if (l->done_sent && l->acked_seq >= l->next_seq) {
        finish(l, 0);
    } else {
        log_error("controller link lost: %s; dropping %s sessions", reason, l->engine ? "all" : "no");
        finish(l, 1);
    }
    wire_free(w);
    l->wire = NULL;
}

static void signal_cb(evutil_socket_t sig, short what, void *arg)
{
    struct link *l = arg;
    (void)what;
    log_warn("signal %d: leaving the run (the controller will mark this agent's sessions lost)", (int)sig);
    finish(l, 1);
}

/* --- setup ----------------------------------------------------------------------------------- */

struct link_opts {
    const char *addr, *name, *pin, *token_file;
    unsigned capacity;
    int tls, insecure, token_fd;
};

static const char *usage_text =
    "usage: sessmax-agent connect HOST:PORT [--name NAME] [--capacity N] [--tls [--tls-pin sha256:...|--tls-insecure]]\n"
    "                             [--shot-dir DIR] [--config-dir DIR] [--connect-threads N]\n"
    "                             [--token-file FILE | --token-fd N]\n"
    "The shared token (16-64 characters) comes from --token-file (mode 0600 or stricter), an inherited\n"
    "descriptor --token-fd, or the environment variable SESSMAX_TOKEN -- never the command line.\n";

/* Returns 0, -1 after a usage error (printed), or 1 after printing the help. */
static int parse_opts(int argc, char **argv, struct link_opts *o, struct link *l)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return 1;
        }
        if (!strcmp(a, "--name") && v) o->name = argv[++i];
        else if (!strcmp(a, "--capacity") && v) o->capacity = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(a, "--tls")) o->tls = 1;
        else if (!strcmp(a, "--tls-pin") && v) { o->pin = argv[++i]; o->tls = 1; }
        else if (!strcmp(a, "--tls-insecure")) { o->insecure = 1; o->tls = 1; }
        else if (!strcmp(a, "--shot-dir") && v) l->shot_dir = argv[++i];
        else if (!strcmp(a, "--token-file") && v) o->token_file = argv[++i];
        else if (!strcmp(a, "--token-fd") && v) o->token_fd = atoi(argv[++i]);
        else if (!strcmp(a, "--config-dir") && v) l->config_dir = argv[++i];
        else if (!strcmp(a, "--connect-threads") && v) l->connect_threads = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (a[0] != '-' && !o->addr) o->addr = a;
        else {
            fprintf(stderr, "sessmax-agent connect: unexpected argument '%s'\n%s", a, usage_text);
            return -1;
        }
    }
    if (!o->addr) {
        fprintf(stderr, "sessmax-agent connect: missing HOST:PORT\n%s", usage_text);
        return -1;
    }
    if (o->tls && !o->pin && !o->insecure) {
        fprintf(stderr, "sessmax-agent connect: with --tls give --tls-pin sha256:... (printed by the controller) "
                        "or --tls-insecure\n");
        return -1;
    }
    if (!o->capacity)
        o->capacity = 100;
    return 0;
}

/* Reads the token from fd (up to the maximum length, one trailing newline dropped). */
static char *token_from_fd(int fd, const char *what)
{
    char buf[PROTO_TOKEN_MAX_LEN + 4];   /* the token, "\r\n", NUL, and one byte to see "too long" */
    size_t got = 0;
    ssize_t k;
    while (got < sizeof buf - 1 && (k = read(fd, buf + got, sizeof buf - 1 - got)) > 0)
        got += (size_t)k;
    buf[got] = 0;
    buf[strcspn(buf, "\r\n")] = 0;
    char *t = got < sizeof buf - 1 ? strdup(buf) : NULL;
    if (got >= sizeof buf - 1)
        fprintf(stderr, "sessmax-agent connect: the token in %s is longer than %d characters\n", what,
                PROTO_TOKEN_MAX_LEN);
    OPENSSL_cleanse(buf, sizeof buf);
    return t;
}

static char *token_from_file(const char *path)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) < 0) {
        fprintf(stderr, "sessmax-agent connect: cannot read the token file %s: %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if (st.st_mode & 077) {
        fprintf(stderr, "sessmax-agent connect: %s: the token file must not be readable by others "
                        "(chmod 600 %s)\n", path, path);
        close(fd);
        return NULL;
    }
    char *t = token_from_fd(fd, path);
    close(fd);
    return t;
}

/* The token from --token-file, --token-fd or SESSMAX_TOKEN (removed from our environment so
 * nothing we start sees it), checked against the controller's length limits. NULL after a
 * message. */
static char *get_token(const struct link_opts *o)
{
    char *t = NULL;
    const char *env = getenv("SESSMAX_TOKEN");
    if (o->token_file) {
        t = token_from_file(o->token_file);
    } else if (o->token_fd > 0) {
        t = token_from_fd(o->token_fd, "--token-fd");
        close(o->token_fd);
    } else if (env && env[0]) {
        t = strdup(env);
    } else {
        fprintf(stderr, "sessmax-agent connect: give the controller's agent token in SESSMAX_TOKEN or "
                        "--token-file FILE\n");
    }
    unsetenv("SESSMAX_TOKEN");
    if (t && (strlen(t) < PROTO_TOKEN_MIN_LEN || strlen(t) > PROTO_TOKEN_MAX_LEN)) {
        fprintf(stderr, "sessmax-agent connect: the token must have %d-%d characters (it has %zu)\n",
                PROTO_TOKEN_MIN_LEN, PROTO_TOKEN_MAX_LEN, strlen(t));
        OPENSSL_cleanse(t, strlen(t));
        free(t);
        t = NULL;
    }
    return t;
}

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
        return -1;
    memcpy(ss, res->ai_addr, res->ai_addrlen);
    *sslen = (int)res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

static struct bufferevent *open_bev(struct event_base *base, const struct link_opts *o, SSL_CTX **ctx)
{
    char err[200];
    if (!o->tls)
        return bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE);
    *ctx = tls_client_ctx(err, sizeof err);
    SSL *ssl = *ctx ? SSL_new(*ctx) : NULL;
    if (!ssl) {
        fprintf(stderr, "sessmax-agent connect: %s\n", err);
        return NULL;
    }
    return bufferevent_openssl_socket_new(base, -1, ssl, BUFFEREVENT_SSL_CONNECTING, BEV_OPT_CLOSE_ON_FREE);
}

int link_main(int argc, char **argv)
{
    struct link l = { 0 };
    struct link_opts o = { 0 };
    SSL_CTX *ctx = NULL;
    struct sockaddr_storage ss;
    int sslen = 0, rc = EX_USAGE;
    int parsed = parse_opts(argc, argv, &o, &l);
    if (parsed != 0)
        return parsed > 0 ? 0 : EX_USAGE;
    char *token = get_token(&o);
    if (!token)
        return EX_CONFIG;
    if (resolve(o.addr, &ss, &sslen) < 0) {
        fprintf(stderr, "sessmax-agent connect: cannot resolve '%s' (expected HOST:PORT)\n", o.addr);
        goto out;
    }
    signal(SIGPIPE, SIG_IGN);
    rc = EX_SOFTWARE;
    l.base = event_base_new();
    struct bufferevent *bev = l.base ? open_bev(l.base, &o, &ctx) : NULL;
    if (!bev)
        goto out;
    char name[64];
    if (!o.name) {
        char host[48] = "agent";
        gethostname(host, sizeof host - 1);
        snprintf(name, sizeof name, "%s-%ld", host, (long)getpid());
        o.name = name;
    }
    struct wire_params wp = { .role = WIRE_AGENT, .token = token, .peer = o.addr, .name = o.name,
                              .capacity = o.capacity, .tls_pin = o.insecure ? NULL : o.pin };
    struct wire_callbacks cb = { &l, on_ready, on_msg, on_close };
    l.wire = wire_new(l.base, bev, &wp, &cb);
    if (!l.wire || bufferevent_socket_connect(bev, (struct sockaddr *)&ss, sslen) < 0) {
        fprintf(stderr, "sessmax-agent connect: cannot connect to %s\n", o.addr);
        rc = EX_UNAVAILABLE;
        goto out;
    }
    l.flush_ev = event_new(l.base, -1, EV_PERSIST, flush_cb, &l);
    struct timeval tv = { 0, FLUSH_MS * 1000 };
    event_add(l.flush_ev, &tv);
    l.sig_int = evsignal_new(l.base, SIGINT, signal_cb, &l);
    l.sig_term = evsignal_new(l.base, SIGTERM, signal_cb, &l);
    event_add(l.sig_int, NULL);
    event_add(l.sig_term, NULL);
    log_info("connecting to %s as '%s' (capacity %u%s)", o.addr, o.name, o.capacity, o.tls ? ", TLS" : "");
    event_base_dispatch(l.base);
    rc = l.exit_code;
out:
    if (l.engine)
        engine_free(l.engine);
    netem_close(l.netem);   /* after the engine: its sessions' sockets live in the namespace */
    workload_free(l.wl);
    wire_free(l.wire);
    proto_buf_free(&l.batch);
    if (l.flush_ev) event_free(l.flush_ev);
    if (l.sig_int) event_free(l.sig_int);
    if (l.sig_term) event_free(l.sig_term);
    if (l.base)
        event_base_free(l.base);
    SSL_CTX_free(ctx);
    OPENSSL_cleanse(token, strlen(token));
    free(token);
    return rc;
}

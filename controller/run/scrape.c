/* scrape.c -- scraping the target's exporters on the run's loop (scrape.h). One evhttp
 * connection per request, freed by libevent when the request completes, so a restarted exporter
 * or a broken TLS session never poisons the next scrape. */
#include "controller/run/scrape.h"

#include "common/clock.h"
#include "common/secret_file.h"
#include "common/tls.h"
#include "controller/run/hostmetrics.h"
#include "controller/run/targetload.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/dns.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCRAPE_MAX_BODY (32u << 20)    /* windows_exporter with every collector: a few MB at most */
#define SCRAPE_TIMEOUT_MAX_S 10.0

struct endpoint {
    struct scrape *owner;
    const struct plan_metrics_endpoint *cfg;
    char source[STORE_METRICS_SOURCE_LEN];
    char host[256];
    int port, https;
    char *path;                    /* path and query of the GET */
    char auth[600];                /* "Bearer TOKEN"; "" none */
    SSL_CTX *ctx;                  /* https */
    struct event *timer;
    struct evhttp_connection *conn;   /* the request in flight; NULL none */
    struct timeval timeout;
    enum evhttp_request_error req_err;
    int req_failed;
    cpu_set_t cpus;                /* cfg->cpus parsed */
    struct hostmetrics_reading prev, cur;
    int have_prev;
    int down;                      /* the last scrape failed */
    int warned_down;               /* said so (once per run) */
    int warned_up;                 /* said it answers again (once per run) */
    int warned_empty;              /* warned that it has no exporter metrics */
};

struct scrape {
    struct event_base *base;
    struct evdns_base *dns;
    struct scrape_sink sink;
    struct endpoint ep[PLAN_METRICS_MAX];
    size_t n;
};

static void note(struct endpoint *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct endpoint *e, const char *fmt, ...)
{
    char msg[512], line[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(line, sizeof line, "target.metrics: %s (%s): %s", e->source, e->cfg->url, msg);
    if (e->owner->sink.note)
        e->owner->sink.note(e->owner->sink.ctx, line);
}

static void failed(struct endpoint *e, const char *why)
{
    if (!e->down && !e->warned_down)   /* once per run: a flapping endpoint is not a line a scrape */
        note(e, "%s; its resources are not measured while it does not answer (the run goes on)", why);
    e->warned_down |= !e->down;
    e->down = 1;
    e->have_prev = 0;   /* a gap: the next answer starts the rates afresh */
}

/* The pin, checked on the leaf before the handshake completes (so no request byte is sent to a
 * server that does not hold the pinned certificate). */
static int verify_cb(int ok, X509_STORE_CTX *xs)
{
    (void)ok;
    SSL *ssl = X509_STORE_CTX_get_ex_data(xs, SSL_get_ex_data_X509_STORE_CTX_idx());
    const struct endpoint *e = ssl ? SSL_get_app_data(ssl) : NULL;
    if (!e || X509_STORE_CTX_get_error_depth(xs) != 0)
        return 1;   /* the chain above the leaf is not what a pin checks */
    char fp[TLS_FP_LEN];
    X509 *x = X509_STORE_CTX_get_current_cert(xs);
    if (!x)
        return 0;
    tls_cert_fingerprint(x, fp);
    return tls_fingerprint_equal(fp, e->cfg->fingerprint);
}

static void describe_error(struct endpoint *e, struct evhttp_request *req, char *why, size_t len)
{
    int code = req ? evhttp_request_get_response_code(req) : 0;
    if (code && code != 200) {
        const char *line = evhttp_request_get_response_code_line(req);
        snprintf(why, len, "HTTP %d %s", code, line ? line : "");
        return;
    }
    switch (e->req_failed ? e->req_err : EVREQ_HTTP_EOF) {
    case EVREQ_HTTP_TIMEOUT:
        snprintf(why, len, "no answer within %ld s", (long)e->timeout.tv_sec);
        return;
    case EVREQ_HTTP_DATA_TOO_LONG:
        snprintf(why, len, "the reply is larger than %u MB", SCRAPE_MAX_BODY >> 20);
        return;
    case EVREQ_HTTP_INVALID_HEADER:
        snprintf(why, len, "not an HTTP reply");
        return;
    default:
        break;
    }
    int se = EVUTIL_SOCKET_ERROR();
    if (e->https)
        snprintf(why, len, "cannot connect, or the TLS handshake failed (is the fingerprint the endpoint's?)%s%s",
                 se ? ": " : "", se ? evutil_socket_error_to_string(se) : "");
    else
        snprintf(why, len, "cannot connect%s%s", se ? ": " : " (refused or closed)",
                 se ? evutil_socket_error_to_string(se) : "");
}

static void reading_done(struct endpoint *e)
{
    if (e->cur.kind == HOSTMETRICS_NONE) {
        if (!e->warned_empty)
            note(e, "the reply holds none of node_exporter's or windows_exporter's metrics (%s); nothing is "
                 "stored from it", e->cfg->instance ? "is the instance label right?" : "is this an exporter's /metrics?");
        e->warned_empty = 1;
        return;
    }
    if (e->down && !e->warned_up) {
        note(e, "answers again (later gaps are not reported)");
        e->warned_up = 1;
    }
    e->down = 0;
    if (e->have_prev) {
        struct store_target_metrics row;
        store_target_metrics_clear(&row);
        if (hostmetrics_rates(&e->prev, &e->cur, &row) == 0)
            return;   /* no newer samples (Prometheus has not scraped the host since) */
        row.t_us = clock_wall_us();
        snprintf(row.source, sizeof row.source, "%s", e->source);
        e->owner->sink.row(e->owner->sink.ctx, &row);
    }
    e->prev = e->cur;
    e->have_prev = 1;
}

static void request_cb(struct evhttp_request *req, void *arg)
{
    struct endpoint *e = arg;
    e->conn = NULL;   /* freed by libevent once this returns (evhttp_connection_free_on_completion) */
    if (!req || evhttp_request_get_response_code(req) != 200) {
        char why[256];
        describe_error(e, req, why, sizeof why);
        failed(e, why);
        return;
    }
    struct evbuffer *body = evhttp_request_get_input_buffer(req);
    size_t len = evbuffer_get_length(body);
    const char *text = len ? (const char *)evbuffer_pullup(body, -1) : "";
    struct promtext_stats st;
    hostmetrics_read(&e->cur, text ? text : "", text ? len : 0, clock_now_us() / 1e6, e->cfg->cpus ? &e->cpus : NULL,
                     &st);
    reading_done(e);
}

static void error_cb(enum evhttp_request_error err, void *arg)
{
    struct endpoint *e = arg;
    e->req_err = err;
    e->req_failed = 1;
}

static struct bufferevent *tls_bev(struct endpoint *e, struct event_base *base)
{
    SSL *ssl = SSL_new(e->ctx);
    if (!ssl)
        return NULL;
    SSL_set_app_data(ssl, e);
    SSL_set_tlsext_host_name(ssl, e->host);
    struct bufferevent *bev = bufferevent_openssl_socket_new(base, -1, ssl, BUFFEREVENT_SSL_CONNECTING,
                                                             BEV_OPT_CLOSE_ON_FREE | BEV_OPT_DEFER_CALLBACKS);
    if (!bev) {
        SSL_free(ssl);
        return NULL;
    }
    bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
    return bev;
}

static void scrape_now(struct endpoint *e)
{
    struct scrape *s = e->owner;
    if (e->conn)
        return;   /* the previous one is still in flight (its timeout ends it) */
    struct bufferevent *bev = e->https ? tls_bev(e, s->base) : NULL;
    if (e->https && !bev) {
        failed(e, "cannot set up TLS");
        return;
    }
    e->conn = evhttp_connection_base_bufferevent_new(s->base, s->dns, bev, e->host, (unsigned short)e->port);
    struct evhttp_request *req = e->conn ? evhttp_request_new(request_cb, e) : NULL;
    if (!req) {
        if (e->conn)
            evhttp_connection_free(e->conn);
        else if (bev)
            bufferevent_free(bev);
        e->conn = NULL;
        failed(e, "out of memory");
        return;
    }
    evhttp_connection_set_timeout_tv(e->conn, &e->timeout);
    evhttp_connection_set_max_body_size(e->conn, SCRAPE_MAX_BODY);
    evhttp_connection_free_on_completion(e->conn);
    evhttp_request_set_error_cb(req, error_cb);
    e->req_failed = 0;
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    char host[300];
    snprintf(host, sizeof host, "%s:%d", e->host, e->port);
    evhttp_add_header(h, "Host", host);
    evhttp_add_header(h, "Accept", "text/plain;version=0.0.4");
    evhttp_add_header(h, "User-Agent", "sessmax");
    evhttp_add_header(h, "Connection", "close");
    if (e->auth[0])
        evhttp_add_header(h, "Authorization", e->auth);
    if (evhttp_make_request(e->conn, req, EVHTTP_REQ_GET, e->path) != 0) {
        /* evhttp_make_request freed the request; the connection is ours to free */
        evhttp_connection_free(e->conn);
        e->conn = NULL;
        failed(e, "cannot send the request");
    }
}

static void timer_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    scrape_now(arg);
}

/* host, port, https and the GET's path from the endpoint's URL (plan_metrics checked it). */
static int split_url(struct endpoint *e)
{
    struct evhttp_uri *u = evhttp_uri_parse(e->cfg->url);
    if (!u)
        return -1;
    const char *scheme = evhttp_uri_get_scheme(u), *host = evhttp_uri_get_host(u);
    const char *path = evhttp_uri_get_path(u), *query = evhttp_uri_get_query(u);
    e->https = scheme && !strcmp(scheme, "https");
    e->port = evhttp_uri_get_port(u) > 0 ? evhttp_uri_get_port(u) : e->https ? 443 : 80;
    snprintf(e->host, sizeof e->host, "%s", host ? host : "");
    size_t plen = path ? strlen(path) : 0;
    while (plen && path[plen - 1] == '/')
        plen--;
    char *match = NULL;
    if (e->cfg->instance) {
        char sel[512];
        snprintf(sel, sizeof sel, "{instance=\"%s\"}", e->cfg->instance);
        match = evhttp_uriencode(sel, -1, 0);
    }
    size_t n = plen + (query ? strlen(query) : 0) + (match ? strlen(match) : 0) + 32;
    if ((e->path = malloc(n))) {
        if (match)
            snprintf(e->path, n, "%.*s/federate?match[]=%s", (int)plen, path ? path : "", match);
        else if (!plen)
            snprintf(e->path, n, "/metrics%s%s", query ? "?" : "", query ? query : "");
        else
            snprintf(e->path, n, "%s%s%s", path, query ? "?" : "", query ? query : "");
    }
    free(match);
    evhttp_uri_free(u);
    return e->path && e->host[0] ? 0 : -1;
}

static int endpoint_init(struct scrape *s, struct endpoint *e, const struct plan_metrics_endpoint *cfg, char *err,
                         size_t errlen)
{
    e->owner = s;
    e->cfg = cfg;
    plan_metrics_source(cfg, e->source, sizeof e->source);
    if (cfg->cpus && targetload_parse_cpus(cfg->cpus, &e->cpus) <= 0) {
        snprintf(err, errlen, "target.metrics: bad CPU list '%s'", cfg->cpus);
        return -1;
    }
    if (split_url(e) < 0) {
        snprintf(err, errlen, "target.metrics: cannot use the URL %s", cfg->url);
        return -1;
    }
    if (cfg->token_file) {
        char token[512], why[512];
        if (secret_file_read(cfg->token_file, "token file", token, sizeof token, why, sizeof why) < 0) {
            snprintf(err, errlen, "target.metrics: %s", why);
            return -1;
        }
        snprintf(e->auth, sizeof e->auth, "Bearer %s", token);
        OPENSSL_cleanse(token, sizeof token);
    }
    if (e->https) {
        if (!(e->ctx = SSL_CTX_new(TLS_client_method()))) {
            snprintf(err, errlen, "target.metrics: cannot create a TLS context");
            return -1;
        }
        SSL_CTX_set_min_proto_version(e->ctx, TLS1_2_VERSION);
        SSL_CTX_set_verify(e->ctx, cfg->fingerprint ? SSL_VERIFY_PEER : SSL_VERIFY_NONE,
                           cfg->fingerprint ? verify_cb : NULL);
    }
    double t = (double)cfg->interval_us / 1e6;
    t = t > SCRAPE_TIMEOUT_MAX_S ? SCRAPE_TIMEOUT_MAX_S : t;
    e->timeout = (struct timeval){ (time_t)t, (suseconds_t)((t - (double)(time_t)t) * 1e6) };
    struct timeval every = { (time_t)(cfg->interval_us / 1000000), (suseconds_t)(cfg->interval_us % 1000000) };
    if (!(e->timer = event_new(s->base, -1, EV_PERSIST, timer_cb, e)) || event_add(e->timer, &every) < 0) {
        snprintf(err, errlen, "target.metrics: out of memory");
        return -1;
    }
    return 0;
}

struct scrape *scrape_start(struct event_base *base, const struct plan_metrics *m, const struct scrape_sink *sink,
                            char *err, size_t errlen)
{
    struct scrape *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "target.metrics: out of memory");
        return NULL;
    }
    s->base = base;
    s->sink = *sink;
    s->dns = evdns_base_new(base, EVDNS_BASE_INITIALIZE_NAMESERVERS | EVDNS_BASE_DISABLE_WHEN_INACTIVE);
    if (!s->dns)   /* no resolv.conf: IP literals still work */
        s->dns = evdns_base_new(base, 0);
    for (size_t i = 0; i < m->n; i++, s->n++)
        if (endpoint_init(s, &s->ep[i], &m->ep[i], err, errlen) < 0) {
            s->n++;
            scrape_free(s);
            return NULL;
        }
    for (size_t i = 0; i < s->n; i++)
        scrape_now(&s->ep[i]);
    return s;
}

void scrape_free(struct scrape *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        struct endpoint *e = &s->ep[i];
        if (e->timer)
            event_free(e->timer);
        if (e->conn)
            evhttp_connection_free(e->conn);   /* its request goes with it, its callback not run */
        if (e->ctx)
            SSL_CTX_free(e->ctx);
        OPENSSL_cleanse(e->auth, sizeof e->auth);
        free(e->path);
    }
    if (s->dns)
        evdns_base_free(s->dns, 0);
    free(s);
}

/* web_server.c -- the bounded HTTP server of the live view, `sessmax serve` and the agent's
 * studio (web_server.h).
 *
 * Why a filter bufferevent under every connection: evhttp 2.1 has no connection cap and no hook
 * when an incoming connection goes away. Each connection's bufferevent is made here (evhttp's
 * bevcb) as a pass-through filter whose context is freed exactly when evhttp frees the
 * connection, so `open` is always the true count: at the cap the listener pauses, and a
 * connection older than WEB_SERVER_MAX_AGE_S (a client sending its headers a byte at a time)
 * is shut down from the sweep, which may touch it because its context is still alive. Two
 * catches of the filter: what evhttp queues while writes are off moves on only when flushed
 * (enabling writes does not do it), so every addition to a connection's output schedules a
 * flush; and evhttp takes a response as sent once the filter has passed it on, closing at once
 * when the client asked for `Connection: close` (or on its own errors), so the filter writes to
 * the socket itself and queues below only what the socket would not take. */
#include "common/web_server.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/hostport.h"
#include "common/proto_auth.h"
#include "common/secret_file.h"

#define MAX_HEADERS_BYTES 8192
#define MAX_BODY_BYTES 1024

struct conn {
    struct web_server *s;
    struct bufferevent *bev, *under;
    struct event *flush;   /* made active whenever evhttp adds output */
    uint64_t opened_us;
    struct conn *prev, *next;
};

struct web_server {
    struct event_base *base;
    struct evhttp *http;
    struct evhttp_bound_socket *bound;
    struct event *sweep;
    struct conn *conns;
    int open, paused, closing;
    web_page_fn page;
    void *arg;
    web_post_fn post;               /* NULL: POST refused (405) */
    void *post_arg;
    char token[128];
    char url[512];
};

static void pause_or_resume(struct web_server *s)
{
    struct evconnlistener *l = evhttp_bound_socket_get_listener(s->bound);
    if (!s->paused && s->open >= WEB_SERVER_MAX_CONNS) {
        evconnlistener_disable(l);
        s->paused = 1;
    } else if (s->paused && s->open < WEB_SERVER_MAX_CONNS) {
        evconnlistener_enable(l);
        s->paused = 0;
    }
}

static void conn_gone(void *ctx)
{
    struct conn *c = ctx;
    struct web_server *s = c->s;
    if (c->prev)
        c->prev->next = c->next;
    else
        s->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    s->open--;
    if (c->flush)
        event_free(c->flush);
    free(c);
    if (!s->closing)
        pause_or_resume(s);
}

static void flush_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct conn *c = arg;
    bufferevent_flush(c->bev, EV_WRITE, BEV_NORMAL);   /* holds its own reference to the connection */
}

/* Runs inside evhttp's write; the flush waits for the loop, when evhttp has turned writes on. */
static void output_added(struct evbuffer *b, const struct evbuffer_cb_info *info, void *arg)
{
    (void)b;
    struct conn *c = arg;
    if (info->n_added)
        event_active(c->flush, EV_TIMEOUT, 0);
}

static enum bufferevent_filter_result write_through(struct evbuffer *src, struct evbuffer *dst, ev_ssize_t limit,
                                                    enum bufferevent_flush_mode mode, void *arg)
{
    (void)limit;
    (void)mode;
    struct conn *c = arg;
    evutil_socket_t fd = bufferevent_getfd(c->under);
    if (fd >= 0 && evbuffer_get_length(dst) == 0)
        while (evbuffer_get_length(src) && evbuffer_write(src, fd) > 0)
            ;
    evbuffer_add_buffer(dst, src);
    return BEV_OK;
}

static struct bufferevent *new_conn_bev(struct event_base *base, void *arg)
{
    struct web_server *s = arg;
    struct conn *c = calloc(1, sizeof *c);
    /* no CLOSE_ON_FREE below: evhttp closes the socket itself */
    struct bufferevent *under = c ? bufferevent_socket_new(base, -1, 0) : NULL;
    struct bufferevent *bev = under ? bufferevent_filter_new(under, NULL, write_through, BEV_OPT_CLOSE_ON_FREE,
                                                             conn_gone, c)
                                    : NULL;
    if (!bev) {
        /* evhttp cannot refuse here; a plain bufferevent keeps it working, uncounted */
        if (under)
            bufferevent_free(under);
        free(c);
        return bufferevent_socket_new(base, -1, 0);
    }
    c->s = s;
    c->bev = bev;
    c->under = under;
    c->opened_us = clock_now_us();
    c->next = s->conns;
    if (s->conns)
        s->conns->prev = c;
    s->conns = c;
    s->open++;
    c->flush = event_new(base, -1, 0, flush_cb, c);
    if (!c->flush || evbuffer_add_cb(bufferevent_get_output(bev), output_added, c) == NULL) {
        bufferevent_free(bev);   /* conn_gone unlists and frees c */
        return bufferevent_socket_new(base, -1, 0);
    }
    pause_or_resume(s);
    return bev;
}

static void sweep_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct web_server *s = arg;
    uint64_t now = clock_now_us();
    for (struct conn *c = s->conns; c; c = c->next) {
        evutil_socket_t sock = bufferevent_getfd(c->bev);
        if (now - c->opened_us > WEB_SERVER_MAX_AGE_S * 1000000ull && sock >= 0)
            shutdown(sock, SHUT_RDWR);   /* evhttp sees the end and frees the connection */
    }
}

#define TOKEN_COOKIE "sessmax_token="

static int token_equal(const struct web_server *s, const char *t, size_t len)
{
    size_t n = strlen(s->token);
    return t && len == n && CRYPTO_memcmp(t, s->token, n) == 0;
}

/* The cookie set below: "sessmax_token=..." among the Cookie header's "; "-separated pairs. */
static int cookie_ok(const struct web_server *s, const char *cookies)
{
    for (const char *p = cookies; p && *p; p = strchr(p, ';') ? strchr(p, ';') + 1 : NULL) {
        p += strspn(p, " ");
        if (strncmp(p, TOKEN_COOKIE, strlen(TOKEN_COOKIE)) == 0) {
            const char *v = p + strlen(TOKEN_COOKIE);
            return token_equal(s, v, strcspn(v, ";"));
        }
    }
    return 0;
}

/* The query's token= (then a cookie lets the pages' relative links work), a Bearer header (for
 * Prometheus), or the cookie. */
static int token_ok(const struct web_server *s, struct evhttp_request *req, const struct evkeyvalq *q)
{
    struct evkeyvalq *in = evhttp_request_get_input_headers(req);
    const char *t = evhttp_find_header(q, "token");
    const char *auth = evhttp_find_header(in, "Authorization");
    if (t && token_equal(s, t, strlen(t))) {
        char cookie[256];
        snprintf(cookie, sizeof cookie, TOKEN_COOKIE "%s; Path=/; HttpOnly; SameSite=Strict", s->token);
        evhttp_add_header(evhttp_request_get_output_headers(req), "Set-Cookie", cookie);
        return 1;
    }
    if (auth && strncmp(auth, "Bearer ", 7) == 0)
        return token_equal(s, auth + 7, strlen(auth + 7));
    return cookie_ok(s, evhttp_find_header(in, "Cookie"));
}

static void reply(struct evhttp_request *req, int code, const char *type, char *body, size_t len)
{
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Content-Type", type);
    evhttp_add_header(h, "Cache-Control", "no-store");
    evhttp_add_header(h, "X-Content-Type-Options", "nosniff");
    evhttp_add_header(h, "Content-Security-Policy",
                      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                      "img-src 'self' data:; connect-src 'self'");
    struct evbuffer *b = evbuffer_new();
    if (b && body)
        evbuffer_add(b, body, len);
    evhttp_send_reply(req, code, code == 200 ? "OK" : code == 404 ? "Not Found" : "Error", b);
    if (b)
        evbuffer_free(b);
}

/* A POST (the token already checked): refused without a handler (405), and without the CSRF
 * header carrying the token (403) -- a page of another origin can make a browser send the
 * cookie, never a custom header (that needs a CORS pre-flight this server does not answer). */
static void post(struct web_server *s, struct evhttp_request *req, const char *path)
{
    static char no_post[] = "method not allowed\n", no_guard[] = "missing " WEB_CSRF_HEADER " header\n";
    if (!s->post) {
        reply(req, 405, "text/plain", no_post, sizeof no_post - 1);
        return;
    }
    const char *g = evhttp_find_header(evhttp_request_get_input_headers(req), WEB_CSRF_HEADER);
    if (!g || !token_equal(s, g, strlen(g))) {
        reply(req, 403, "text/plain", no_guard, sizeof no_guard - 1);
        return;
    }
    char msg[256] = "";
    int code = s->post(s->post_arg, path, msg, sizeof msg);
    size_t n = strlen(msg);
    if (n < sizeof msg - 1)
        msg[n++] = '\n';
    reply(req, code, "text/plain", msg, n);
}

static void request_cb(struct evhttp_request *req, void *arg)
{
    struct web_server *s = arg;   /* evhttp answers other methods than GET, HEAD and POST with 501 */
    const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
    const char *path = uri ? evhttp_uri_get_path(uri) : NULL;
    const char *query = uri ? evhttp_uri_get_query(uri) : NULL;
    struct evkeyvalq q;
    TAILQ_INIT(&q);
    if (!path || (query && evhttp_parse_query_str(query, &q) < 0)) {
        reply(req, 400, "text/plain", "bad request\n", 12);
        return;
    }
    if (!token_ok(s, req, &q)) {
        evhttp_clear_headers(&q);
        reply(req, 403, "text/plain", "token missing or wrong: use the URL sessmax printed\n", 52);
        return;
    }
    if (evhttp_request_get_command(req) == EVHTTP_REQ_POST) {
        evhttp_clear_headers(&q);
        post(s, req, path);
        return;
    }
    char *body = NULL;
    size_t len = 0;
    const char *type = "text/plain";
    int code = s->page(s->arg, path, &q, &body, &len, &type);
    evhttp_clear_headers(&q);
    if (!body && code != 200) {
        static char nf[] = "not found\n";
        reply(req, code, "text/plain", nf, sizeof nf - 1);
        return;
    }
    reply(req, code, type, body, len);
    free(body);
}

static int setup(struct web_server *s, const char *host, uint16_t port, char *err, size_t errlen)
{
    evhttp_set_allowed_methods(s->http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD | EVHTTP_REQ_POST);
    evhttp_set_max_headers_size(s->http, MAX_HEADERS_BYTES);
    evhttp_set_max_body_size(s->http, MAX_BODY_BYTES);
    evhttp_set_timeout(s->http, WEB_SERVER_TIMEOUT_S);
    evhttp_set_bevcb(s->http, new_conn_bev, s);
    evhttp_set_gencb(s->http, request_cb, s);
    s->bound = evhttp_bind_socket_with_handle(s->http, host, port);
    if (!s->bound) {
        snprintf(err, errlen, "web: cannot listen on %s:%u: %s", host, port, strerror(errno));
        return -1;
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    evutil_socket_t fd = evhttp_bound_socket_get_fd(s->bound);
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
        port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                              : ((struct sockaddr_in *)&ss)->sin_port);
    int v6 = strchr(host, ':') != NULL;
    snprintf(s->url, sizeof s->url, "http://%s%s%s:%u/?token=%s", v6 ? "[" : "", host, v6 ? "]" : "", port,
             s->token);
    struct timeval tv = { 1, 0 };
    s->sweep = event_new(s->base, -1, EV_PERSIST, sweep_cb, s);
    if (!s->sweep || event_add(s->sweep, &tv) < 0) {
        snprintf(err, errlen, "web: cannot start the connection sweep");
        return -1;
    }
    return 0;
}

struct web_server *web_server_start(struct event_base *base, const char *addr_port, const char *token,
                                    web_page_fn page, void *arg, char *err, size_t errlen)
{
    char host[256];
    uint16_t port = 0;
    if (hostport_split(addr_port, 0, host, sizeof host, &port) < 0) {
        snprintf(err, errlen, "web: '%s' is not ADDR:PORT (for example 127.0.0.1:5665)", addr_port);
        return NULL;
    }
    struct web_server *s = calloc(1, sizeof *s);
    if (!s || !(s->http = evhttp_new(base))) {
        free(s);
        snprintf(err, errlen, "web: out of memory");
        return NULL;
    }
    s->base = base;
    s->page = page;
    s->arg = arg;
    if (token && *token) {
        snprintf(s->token, sizeof s->token, "%s", token);
    } else {
        char t[65];
        if (proto_new_token(t) < 0) {
            snprintf(err, errlen, "web: no random token (getrandom failed)");
            web_server_free(s);
            return NULL;
        }
        snprintf(s->token, sizeof s->token, "%.*s", WEB_TOKEN_LEN, t);
    }
    if (setup(s, host, port, err, errlen) < 0) {
        web_server_free(s);
        return NULL;
    }
    return s;
}

const char *web_server_url(const struct web_server *s) { return s->url; }
const char *web_server_token(const struct web_server *s) { return s->token; }
int web_server_connections(const struct web_server *s) { return s->open; }

void web_server_on_post(struct web_server *s, web_post_fn fn, void *arg)
{
    s->post = fn;
    s->post_arg = arg;
}

void web_server_free(struct web_server *s)
{
    if (!s)
        return;
    if (s->sweep)
        event_free(s->sweep);
    s->closing = 1;
    if (s->http)
        evhttp_free(s->http);   /* frees every connection: conn_gone runs for each */
    OPENSSL_cleanse(s->token, sizeof s->token);
    free(s);
}

int web_token_read_file(const char *path, char *token, size_t len, char *err, size_t errlen)
{
    if (secret_file_read(path, "token file", token, len, err, errlen) < 0)
        return -1;
    if (strlen(token) < 16 || strspn(token, "0123456789abcdefABCDEF-_") != strlen(token)) {
        snprintf(err, errlen, "%s: a web token is 16 or more of 0-9, a-f, '-', '_'", path);
        return -1;
    }
    return 0;
}

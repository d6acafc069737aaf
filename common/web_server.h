/* web_server.h -- the small HTTP server of `sessmax run --web`, `sessmax serve` and
 * `sessmax-agent studio`, on libevent's evhttp and the caller's event loop. It lives in common/
 * because both the controller and the agent serve pages with the same token rules. Built so
 * that a browser or a scraper can never slow the run it watches: loopback unless told
 * otherwise, every request needs the token (query `token=`, or `Authorization: Bearer`), at
 * most WEB_SERVER_MAX_CONNS connections at once (the listener pauses at the cap), request
 * headers and bodies bounded, a connection idle for WEB_SERVER_TIMEOUT_S seconds or open for
 * WEB_SERVER_MAX_AGE_S seconds is closed; GET and HEAD, and POST only where the owner set a
 * handler (web_server_on_post) and only with the CSRF header. Responses are built in memory (a
 * few hundred KB at most) and handed to evhttp whole. */
#ifndef SESSMAX_COMMON_WEB_SERVER_H
#define SESSMAX_COMMON_WEB_SERVER_H

#include <stddef.h>

struct event_base;
struct evhttp_request;
struct evkeyvalq;

#define WEB_SERVER_MAX_CONNS 32
#define WEB_SERVER_TIMEOUT_S 10
#define WEB_SERVER_MAX_AGE_S 60
#define WEB_TOKEN_LEN 32            /* hex characters of a generated token */

struct web_server;

/* A page: writes the body for `path` (query already checked for the token) to *body (malloc'd)
 * with its content type; returns the HTTP status (200, 404, ...). */
typedef int (*web_page_fn)(void *arg, const char *path, const struct evkeyvalq *query, char **body,
                           size_t *len, const char **content_type);

/* An action: does what POST `path` asks, writes one line for the reply into msg; returns the
 * HTTP status (200, 404, 409, ...). */
typedef int (*web_post_fn)(void *arg, const char *path, char *msg, size_t len);
/* The header a POST must carry, set to the token (a CSRF guard: the cookie alone is not enough). */
#define WEB_CSRF_HEADER "X-Sessmax-Token"

/* Listens on ADDR:PORT ("127.0.0.1:0" picks a free port) with `token` (NULL: a random one).
 * NULL with a one-line reason in err on failure. */
struct web_server *web_server_start(struct event_base *base, const char *addr_port, const char *token,
                                    web_page_fn page, void *arg, char *err, size_t errlen);
/* The URL to open: http://HOST:PORT/?token=... */
const char *web_server_url(const struct web_server *s);
const char *web_server_token(const struct web_server *s);
/* Serves POST with `fn` (NULL: POST is refused with 405, the default). */
void web_server_on_post(struct web_server *s, web_post_fn fn, void *arg);
/* Connections open now (tests and benches). */
int web_server_connections(const struct web_server *s);
void web_server_free(struct web_server *s);

/* Reads a token from a file that only its owner may read (0600 or stricter); 0, or -1 with err. */
int web_token_read_file(const char *path, char *token, size_t len, char *err, size_t errlen);

#endif

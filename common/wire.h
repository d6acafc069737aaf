/* wire.h -- one authenticated, heartbeated controller<->agent connection on a libevent loop.
 *
 * A wire wraps a bufferevent (plain TCP, or TLS from tls.h) and does the parts both sides share:
 * frame splitting with a size limit (small until authenticated), the versioned hello, the HMAC
 * challenge-response over the handshake transcript th and the TLS channel binding B (RFC 9266
 * exporter; zeros on plain TCP), a MAC tag on every frame after AUTH in both directions (keys
 * derived from token, th and B; per-direction sequence numbers), the controller's clock probes,
 * heartbeats both ways with a silence timeout, and a single close notification.
 *
 *   agent                          controller
 *   HELLO(version, name, cap, Na, ticket) -->
 *                                <-- CHALLENGE(Nc, HMAC(token, "ctl" | th | B))
 *   AUTH(HMAC(token, "agent" | th | B)) -->
 *                 ...every frame from here on carries a tag...
 *                                <-- PING x N  /  PONG x N -->   clock probes, one after another
 *                                <-- WELCOME(agent id, heartbeat, timeout, grace, resume)  => both ready
 *
 * Threading: everything on the loop thread of the event_base. */
#ifndef SESSMAX_WIRE_H
#define SESSMAX_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "common/proto.h"

struct bufferevent;
struct event_base;
struct wire;

enum wire_role { WIRE_CONTROLLER, WIRE_AGENT };

struct wire_params {
    enum wire_role role;
    const char *token;             /* shared secret (copied, wiped on free) */
    const char *peer;              /* label for messages: "127.0.0.1:4242" */
    uint32_t heartbeat_ms;         /* send a heartbeat this often; default 1000 */
    uint32_t timeout_ms;           /* peer silent this long = gone; default 15000 */
    uint32_t handshake_ms;         /* authentication must finish within; default 10000 */
    uint32_t auth_ms;              /* controller: the agent must prove the token (AUTH) within;
                                    * default handshake_ms */
    uint32_t max_frame;            /* after authentication; default PROTO_MAX_FRAME */
    /* agent side */
    const char *name;
    uint32_t capacity;
    const char *tls_pin;           /* TLS: the controller's certificate fingerprint; NULL: no check */
    const uint8_t *ticket;         /* resume the link this ticket names (PROTO_TICKET_LEN); NULL: new */
    /* controller side */
    uint32_t agent_id;
    uint32_t grace_ms;             /* told to the agent in WELCOME */
    uint32_t pings;                /* clock probes before ready; default 5 */
    /* The agent proved the token: fill in (or keep) the WELCOME (agent id, resume fields) or
     * refuse with a reason (return -1). Optional; gets the callbacks' arg. */
    int (*admit)(struct wire *w, struct proto_welcome *wm, char *why, size_t whylen, void *arg);
    /* Optional, controller side: the agent's HELLO arrived (nothing is proven yet). */
    void (*hello)(struct wire *w, const struct proto_hello *h, void *arg);
    /* Optional, controller side: the agent proved the token (clock probes and admit follow). */
    void (*authenticated)(struct wire *w, void *arg);
};

struct wire_callbacks {
    void *arg;
    /* Authenticated (controller: the agent proved the token, the clock probes are done and
     * WELCOME was sent; agent: WELCOME arrived). */
    void (*on_ready)(struct wire *w, void *arg);
    /* Every message after the handshake except heartbeats. The message is cleared afterwards. */
    void (*on_msg)(struct wire *w, struct proto_msg *m, void *arg);
    /* Called once when the connection ends for any reason (reason is one line). The owner may
     * call wire_free() from inside it. */
    void (*on_close)(struct wire *w, const char *reason, void *arg);
};

/* Takes ownership of bev (freed with the wire). The agent side sends HELLO as soon as the
 * bufferevent is connected (call wire_new before or after connecting). NULL on failure. */
struct wire *wire_new(struct event_base *base, struct bufferevent *bev, const struct wire_params *p,
                      const struct wire_callbacks *cb);
/* Agent side on a socket that is already connected (a socketpair): sends HELLO now. With a
 * connecting bufferevent the CONNECTED event does this. */
void wire_start(struct wire *w);
/* Accepts NULL. Safe inside any callback of this wire. */
void wire_free(struct wire *w);
/* From now on the callbacks get `arg` (a resumed link handed to the agent it continues; safe
 * inside the admit callback). */
void wire_rebind(struct wire *w, void *arg);
/* 1 when the link ended because the authenticated peer sent ERROR (a refusal to believe, not a
 * broken connection). */
int wire_refused(const struct wire *w);
/* 1 once the connection itself was made (TCP, and the TLS handshake when there is TLS), whatever
 * happened after; 0 for a connection that was refused, unreachable or timed out. */
int wire_connected(const struct wire *w);

/* Queues one message. 0, or -1 if it cannot be encoded or the wire is closed. */
int wire_send(struct wire *w, const struct proto_msg *m);
/* Queues already-encoded complete frames (e.g. a proto_buf of RECORDS). */
int wire_send_raw(struct wire *w, const uint8_t *data, size_t len);
/* Sends ERROR(text) (if possible) and closes after the output drains; on_close gets `text`. */
void wire_close(struct wire *w, const char *text);

int wire_is_ready(const struct wire *w);
/* Bytes queued for sending and not yet written to the socket. */
size_t wire_pending_out(const struct wire *w);
/* The peer's hello (controller side, after ready): name, capacity, pid. */
const struct proto_hello *wire_hello(const struct wire *w);
const char *wire_peer(const struct wire *w);
/* The WELCOME the agent received (agent side) or sent (controller side), after ready. */
const struct proto_welcome *wire_welcome(const struct wire *w);
/* Controller side, after ready: the agent's clock minus ours and the round trip, from the probe
 * with the smallest round trip. Returns the number of probes answered (0: unknown). */
unsigned wire_clock(const struct wire *w, int64_t *offset_us, uint32_t *rtt_us);

#endif

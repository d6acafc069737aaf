/* agentpool.c -- listener, local agent processes and the wires to every agent, and agents that
 * come back on a new link within the grace period (see agentpool.h). */
#include "controller/run/agentpool.h"

#include "common/clock.h"
#include "common/log.h"
#include "common/tls.h"
#include "common/wire.h"
#include "controller/run/agentgate.h"
#include "controller/run/agentspawn.h"
#include "controller/run/run_limits.h"

#include <errno.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <netinet/in.h>
#include <openssl/crypto.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A connection must prove the token within this (a TLS handshake and one round trip more). */
#define AUTH_MS 3000

struct agentpool {
    struct event_base *base;
    struct agentpool_config cfg;
    struct agentpool_events ev;
    struct evconnlistener *listener;
    SSL_CTX *ssl_ctx;
    char fingerprint[TLS_FP_LEN];
    char address[160];
    struct agentgate gate;                          /* connections not (yet) agents */
    struct agentpool_agent *ready[RUN_MAX_AGENTS];  /* by slot */
    size_t nready;
    pid_t children[RUN_MAX_AGENTS];
    size_t nchildren;
    uint32_t next_id;
    char *token;
};

static void pending_remove(struct agentpool *p, struct agentpool_agent *a) { agentgate_remove(&p->gate, a); }

static int is_child(const struct agentpool *p, uint32_t pid)
{
    for (size_t i = 0; i < p->nchildren; i++)
        if (p->children[i] == (pid_t)pid)
            return 1;
    return 0;
}

static int ticket_blank(const uint8_t t[PROTO_TICKET_LEN])
{
    uint8_t any = 0;
    for (size_t i = 0; i < PROTO_TICKET_LEN; i++)
        any |= t[i];
    return !any;
}

static struct agentpool_agent *by_ticket(struct agentpool *p, const uint8_t t[PROTO_TICKET_LEN])
{
    for (size_t i = 0; i < p->nready; i++)
        if (CRYPTO_memcmp(p->ready[i]->ticket, t, PROTO_TICKET_LEN) == 0)
            return p->ready[i];
    return NULL;
}

/* The link of pending connection `a` continues agent `old`: its wire, slot and numbering. */
static void take_over(struct agentpool_agent *a, struct agentpool_agent *old, struct wire *w,
                      struct proto_welcome *wm)
{
    struct agentpool *p = a->pool;
    if (old->wire) {   /* the old link is broken, but its silence timeout has not run out yet */
        struct wire *ow = old->wire;
        old->wire = NULL;
        wire_free(ow);
    }
    wm->agent_id = old->id;
    wm->resumed = 1;
    wm->acked_seq = old->last_seq;
    memcpy(old->ticket, wm->ticket, PROTO_TICKET_LEN);
    snprintf(old->host, sizeof old->host, "%s", a->host);
    pending_remove(p, a);
    free(a);
    wire_rebind(w, old);
    old->wire = w;
    old->resuming = 1;
}

/* After the agent proved the token: a new agent, or one resuming the link its ticket names. */
static int agent_admit(struct wire *w, struct proto_welcome *wm, char *why, size_t whylen, void *arg)
{
    struct agentpool_agent *a = arg, *old;
    struct agentpool *p = a->pool;
    const struct proto_hello *h = wire_hello(w);
    if (is_child(p, h->pid))
        wm->grace_ms = 0;             /* a local agent that loses its loopback link is gone */
    if (ticket_blank(h->ticket)) {
        memcpy(a->ticket, wm->ticket, PROTO_TICKET_LEN);
        a->id = wm->agent_id;
        return 0;
    }
    if (!(old = by_ticket(p, h->ticket))) {
        snprintf(why, whylen, "resume refused: this controller does not know that agent's link (another run, "
                              "or the controller was restarted)");
        return -1;
    }
    if (old->state == AGENTPOOL_AGENT_LOST) {
        snprintf(why, whylen, "resume refused: agent %s is recorded as lost (%s)", old->name, old->away_reason);
        return -1;
    }
    if (p->ev.commit && p->ev.commit(p->ev.arg) < 0) {
        snprintf(why, whylen, "resume refused: the controller cannot commit results");
        return -1;
    }
    take_over(a, old, w, wm);
    return 0;
}

/* A resumed link is ready: the agent is back with everything it had. */
static void agent_back(struct agentpool_agent *a, struct wire *w)
{
    struct agentpool *p = a->pool;
    a->resuming = 0;
    a->resumes++;
    if (a->grace_ev)
        event_del(a->grace_ev);
    wire_clock(w, &a->clock_offset_us, &a->rtt_us);
    double away = a->state == AGENTPOOL_AGENT_AWAY ? (clock_now_us() - a->away_since_us) / 1e6 : 0;
    if (a->state == AGENTPOOL_AGENT_AWAY)
        a->state = AGENTPOOL_AGENT_READY;
    log_info("agent %s resumed its link from %s after %.1f s (batches stored up to %llu)", a->name, a->host, away,
             (unsigned long long)a->last_seq);
    if (p->ev.back)
        p->ev.back(a, p->ev.arg);
}

static void agent_ready(struct wire *w, void *arg)
{
    struct agentpool_agent *a = arg;
    struct agentpool *p = a->pool;
    const struct proto_hello *h = wire_hello(w);
    if (a->resuming) {
        agent_back(a, w);
        return;
    }
    if (p->nready >= p->cfg.count || p->nready >= RUN_MAX_AGENTS) {
        wire_close(w, "this run already has all the agents it expects");
        return;
    }
    pending_remove(p, a);
    snprintf(a->name, sizeof a->name, "%s", h->name ? h->name : "agent");
    a->capacity = h->capacity ? h->capacity : 1;
    if (p->cfg.capacity && p->cfg.capacity < a->capacity)
        a->capacity = p->cfg.capacity;
    a->declared = a->capacity;
    if (is_child(p, h->pid))
        a->pid = (pid_t)h->pid;
    wire_clock(w, &a->clock_offset_us, &a->rtt_us);
    a->slot = (uint32_t)p->nready;
    a->state = AGENTPOOL_AGENT_READY;
    p->ready[p->nready++] = a;
    log_debug("agent %s ready from %s (capacity %u)", a->name, a->host, a->capacity);
    if (p->ev.ready)
        p->ev.ready(a, p->ev.arg);
}

static void agent_msg(struct wire *w, struct proto_msg *m, void *arg)
{
    struct agentpool_agent *a = arg;
    struct agentpool *p = a->pool;
    char t[160];
    switch (m->type) {
    case PROTO_RECORDS:
        if (m->u.records.seq <= a->last_seq) {   /* sent again after a resume: stored already */
            a->dup_batches++;
            return;
        }
        if (m->u.records.seq != a->last_seq + 1) {
            snprintf(t, sizeof t, "records batch %llu out of order (expected %llu)",
                     (unsigned long long)m->u.records.seq, (unsigned long long)a->last_seq + 1);
            a->broken = 1;
            wire_close(w, t);
            return;
        }
        a->last_seq = m->u.records.seq;
        a->records += m->u.records.count;
        if (p->ev.records)
            p->ev.records(a, &m->u.records, p->ev.arg);
        break;
    case PROTO_DONE:
        if (a->state == AGENTPOOL_AGENT_READY) {
            a->state = AGENTPOOL_AGENT_DONE;
            if (p->ev.done)
                p->ev.done(a, &m->u.done, p->ev.arg);
        } else {
            agentpool_ack(a);   /* DONE again on a resumed link: everything is stored */
        }
        break;
    default:
        snprintf(t, sizeof t, "unexpected %s message from an agent", proto_type_name(m->type));
        a->broken = 1;
        wire_close(w, t);
    }
}

static void grace_over(evutil_socket_t fd, short what, void *arg)
{
    struct agentpool_agent *a = arg;
    struct agentpool *p = a->pool;
    (void)fd;
    (void)what;
    if (a->state != AGENTPOOL_AGENT_AWAY)
        return;
    char reason[300];
    snprintf(reason, sizeof reason, "link lost (%s) and not back within the grace period of %.0f s", a->away_reason,
             p->cfg.grace_ms / 1e3);
    snprintf(a->away_reason, sizeof a->away_reason, "not back within the grace period");
    a->state = AGENTPOOL_AGENT_LOST;
    log_warn("agent %s lost: %s", a->name, reason);
    if (p->ev.lost)
        p->ev.lost(a, reason, p->ev.arg);
}

/* A ready remote agent's link broke: it may come back within the grace period. */
static int go_away(struct agentpool_agent *a, const char *reason)
{
    struct agentpool *p = a->pool;
    if (!p->cfg.grace_ms || a->pid || a->broken)
        return -1;
    if (!a->grace_ev && !(a->grace_ev = evtimer_new(p->base, grace_over, a)))
        return -1;
    struct timeval tv = { p->cfg.grace_ms / 1000, (suseconds_t)(p->cfg.grace_ms % 1000) * 1000 };
    if (evtimer_add(a->grace_ev, &tv) < 0)
        return -1;
    a->state = AGENTPOOL_AGENT_AWAY;
    a->away_since_us = clock_now_us();
    snprintf(a->away_reason, sizeof a->away_reason, "%s", reason);
    log_warn("agent %s lost its link: %s; waiting up to %.0f s for it to come back", a->name, reason,
             p->cfg.grace_ms / 1e3);
    if (p->ev.away)
        p->ev.away(a, reason, p->ev.arg);
    return 0;
}

static void agent_close(struct wire *w, const char *reason, void *arg)
{
    struct agentpool_agent *a = arg;
    struct agentpool *p = a->pool;
    wire_free(w);
    a->wire = NULL;
    if (a->slot == UINT32_MAX) {
        log_ratelimited(LOG_WARN, "pool-refused", "agent connection from %s refused: %s", a->host, reason);
        pending_remove(p, a);
        free(a);
        return;
    }
    if (a->state == AGENTPOOL_AGENT_READY && go_away(a, reason) < 0) {
        a->state = AGENTPOOL_AGENT_LOST;
        snprintf(a->away_reason, sizeof a->away_reason, "%s", reason);
        log_warn("agent %s lost: %s", a->name, reason);
        if (p->ev.lost)
            p->ev.lost(a, reason, p->ev.arg);
    }
}

/* A connection that had not authenticated gives way to a newcomer (agentgate.h). */
static void evict(struct agentpool *p, struct agentpool_agent *a, const char *newcomer)
{
    log_ratelimited(LOG_WARN, "pool-evict", "agent connection from %s closed before it authenticated, for one "
                    "from %s (%zu connections are still authenticating)", a->host, newcomer,
                    agentgate_count(&p->gate));
    agentgate_remove(&p->gate, a);
    wire_free(a->wire);
    free(a);
}

/* The agent's HELLO shows the resume ticket of an agent of this run: its link never gives way to
 * newcomers while it proves the token. */
static void agent_hello(struct wire *w, const struct proto_hello *h, void *arg)
{
    struct agentpool_agent *a = arg, *old;
    (void)w;
    if (!ticket_blank(h->ticket) && (old = by_ticket(a->pool, h->ticket)) && old->state != AGENTPOOL_AGENT_LOST)
        agentgate_keep(&a->pool->gate, a);
}

static void agent_authenticated(struct wire *w, void *arg)
{
    struct agentpool_agent *a = arg;
    (void)w;
    agentgate_keep(&a->pool->gate, a);
}

/* "ADDR:PORT" of a peer into host, and ADDR alone into addr. */
static void peer_name(const struct sockaddr *sa, char *host, size_t hostlen, char *addr, size_t addrlen)
{
    snprintf(host, hostlen, "?");
    snprintf(addr, addrlen, "?");
    if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6)
        return;
    char ip[INET6_ADDRSTRLEN] = "?";
    const void *in = sa->sa_family == AF_INET ? (const void *)&((const struct sockaddr_in *)sa)->sin_addr
                                              : (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr;
    uint16_t port = ntohs(sa->sa_family == AF_INET ? ((const struct sockaddr_in *)sa)->sin_port
                                                   : ((const struct sockaddr_in6 *)sa)->sin6_port);
    evutil_inet_ntop(sa->sa_family, in, ip, sizeof ip);
    snprintf(host, hostlen, "%s:%u", ip, port);
    snprintf(addr, addrlen, "%s", ip);
}

static void accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int salen, void *arg)
{
    struct agentpool *p = arg;
    (void)l;
    (void)salen;
    char host[128], addr[AGENTGATE_ADDR_LEN];
    peer_name(sa, host, sizeof host, addr, sizeof addr);
    struct agentpool_agent *victim;
    while ((victim = agentgate_victim(&p->gate, addr)))
        evict(p, victim, host);
    struct agentpool_agent *a = calloc(1, sizeof *a);
    struct bufferevent *bev = NULL;
    if (a && p->ssl_ctx) {
        SSL *ssl = SSL_new(p->ssl_ctx);
        bev = ssl ? bufferevent_openssl_socket_new(p->base, fd, ssl, BUFFEREVENT_SSL_ACCEPTING, BEV_OPT_CLOSE_ON_FREE) : NULL;
    } else if (a) {
        bev = bufferevent_socket_new(p->base, fd, BEV_OPT_CLOSE_ON_FREE);
    }
    if (!bev) {
        free(a);
        evutil_closesocket(fd);
        log_ratelimited(LOG_WARN, "pool-full", "agent connection from %s dropped: no memory", host);
        return;
    }
    a->pool = p;
    a->slot = UINT32_MAX;
    snprintf(a->host, sizeof a->host, "%s", host);
    struct wire_params wp = { .role = WIRE_CONTROLLER, .token = p->token, .peer = host,
                              .timeout_ms = p->cfg.timeout_ms, .auth_ms = AUTH_MS, .agent_id = ++p->next_id,
                              .grace_ms = p->cfg.grace_ms, .admit = agent_admit, .hello = agent_hello,
                              .authenticated = agent_authenticated };
    struct wire_callbacks cb = { a, agent_ready, agent_msg, agent_close };
    a->wire = wire_new(p->base, bev, &wp, &cb);
    if (!a->wire || agentgate_add(&p->gate, a, addr, clock_now_us()) < 0) {
        wire_free(a->wire);
        free(a);
    }
}

static int spawn_locals(struct agentpool *p, char *err, size_t errlen)
{
    struct agentspawn_opts o = { p->cfg.agent_bin, p->address, p->token, p->ssl_ctx ? p->fingerprint : NULL,
                                 p->cfg.cpus, p->cfg.agent_log, p->cfg.shot_dir, p->cfg.password_env,
                                 p->cfg.capacity };
    return agentspawn_start(&o, p->cfg.count, p->children, &p->nchildren, RUN_MAX_AGENTS, err, errlen);
}

static int open_listener(struct agentpool *p, char *err, size_t errlen)
{
    struct sockaddr_storage ss;
    int sslen = sizeof ss;
    const char *addr = p->cfg.local ? "127.0.0.1:0" : p->cfg.listen;
    memset(&ss, 0, sizeof ss);
    if (p->cfg.local) {   /* libevent's parser refuses port 0: any free loopback port */
        struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
        sin->sin_family = AF_INET;
        sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        sslen = sizeof *sin;
    } else if (evutil_parse_sockaddr_port(addr, (struct sockaddr *)&ss, &sslen) < 0) {
        snprintf(err, errlen, "agents listen address '%s' is not ADDR:PORT with a numeric address", addr);
        return -1;
    }
    p->listener = evconnlistener_new_bind(p->base, accept_cb, p, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE |
                                          LEV_OPT_CLOSE_ON_EXEC, 64, (struct sockaddr *)&ss, sslen);
    if (!p->listener) {
        snprintf(err, errlen, "cannot listen for agents on %s: %s", addr, strerror(errno));
        return -1;
    }
    struct sockaddr_storage bound;
    socklen_t blen = sizeof bound;
    getsockname(evconnlistener_get_fd(p->listener), (struct sockaddr *)&bound, &blen);
    char ip[INET6_ADDRSTRLEN] = "?";
    uint16_t port;
    if (bound.ss_family == AF_INET6) {
        evutil_inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&bound)->sin6_addr, ip, sizeof ip);
        port = ntohs(((struct sockaddr_in6 *)&bound)->sin6_port);
        snprintf(p->address, sizeof p->address, "[%s]:%u", ip, port);
    } else {
        evutil_inet_ntop(AF_INET, &((struct sockaddr_in *)&bound)->sin_addr, ip, sizeof ip);
        port = ntohs(((struct sockaddr_in *)&bound)->sin_port);
        snprintf(p->address, sizeof p->address, "%s:%u", ip, port);
    }
    return 0;
}

struct agentpool *agentpool_new(struct event_base *base, const struct agentpool_config *cfg, const struct agentpool_events *ev,
                      char *err, size_t errlen)
{
    struct agentpool *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    p->base = base;
    p->cfg = *cfg;
    agentgate_init(&p->gate, cfg->local ? 0 : AGENTGATE_PER_ADDRESS);   /* local agents all come from loopback */
    p->ev = *ev;
    p->token = strdup(cfg->token);
    p->cfg.token = NULL;
    if (cfg->tls && !(p->ssl_ctx = cfg->tls_cert ? tls_server_ctx_files(cfg->tls_cert, cfg->tls_key, p->fingerprint,
                                                                          err, errlen)
                                                 : tls_server_ctx(p->fingerprint, err, errlen)))
        goto fail;
    if (!p->token || open_listener(p, err, errlen) < 0)
        goto fail;
    if (cfg->local && spawn_locals(p, err, errlen) < 0)
        goto fail;
    return p;
fail:
    agentpool_free(p);
    return NULL;
}

void agentpool_free(struct agentpool *p)
{
    if (!p)
        return;
    for (struct agentpool_agent *a; (a = agentgate_at(&p->gate, 0));) {
        agentgate_remove(&p->gate, a);
        wire_free(a->wire);
        free(a);
    }
    for (size_t i = 0; i < p->nready; i++) {
        wire_free(p->ready[i]->wire);
        if (p->ready[i]->grace_ev)
            event_free(p->ready[i]->grace_ev);
        free(p->ready[i]);
    }
    if (p->listener)
        evconnlistener_free(p->listener);
    agentspawn_reap(p->children, &p->nchildren);
    SSL_CTX_free(p->ssl_ctx);
    if (p->token) {
        memset(p->token, 0, strlen(p->token));
        free(p->token);
    }
    free(p);
}

size_t agentpool_count(const struct agentpool *p) { return p->nready; }
struct agentpool_agent *agentpool_agent(struct agentpool *p, size_t slot) { return slot < p->nready ? p->ready[slot] : NULL; }
const char *agentpool_tls_fingerprint(const struct agentpool *p) { return p->ssl_ctx ? p->fingerprint : ""; }
const char *agentpool_address(const struct agentpool *p) { return p->address; }

void agentpool_close_listener(struct agentpool *p)
{
    if (p->listener) {
        evconnlistener_free(p->listener);
        p->listener = NULL;
    }
}

int agentpool_send(struct agentpool_agent *a, const struct proto_msg *m)
{
    return a->wire ? wire_send(a->wire, m) : -1;
}

void agentpool_ack(struct agentpool_agent *a)
{
    struct proto_msg m = { .type = PROTO_ACK };
    m.u.ack_seq = a->last_seq;
    if (a->wire && a->last_seq)
        wire_send(a->wire, &m);
}

void agentpool_drop(struct agentpool_agent *a, const char *reason)
{
    a->broken = 1;
    if (a->state == AGENTPOOL_AGENT_AWAY) {   /* no link to close: lost now */
        struct agentpool *p = a->pool;
        event_del(a->grace_ev);
        a->state = AGENTPOOL_AGENT_LOST;
        log_warn("agent %s lost: %s (its link had broken: %s)", a->name, reason, a->away_reason);
        if (p->ev.lost)
            p->ev.lost(a, reason, p->ev.arg);
        return;
    }
    if (a->wire)
        wire_close(a->wire, reason);
}

/* agentpool.c -- listener, local agent processes and the wires to every agent (see agentpool.h). */
#include "controller/run/agentpool.h"

#include "common/log.h"
#include "common/tls.h"
#include "common/wire.h"
#include "controller/run/run_limits.h"

#include <errno.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXEC_FAILED 127   /* a child that could not exec, as the shell reports it */

#define MAX_CONNS 1024

struct agentpool {
    struct event_base *base;
    struct agentpool_config cfg;
    struct agentpool_events ev;
    struct evconnlistener *listener;
    SSL_CTX *ssl_ctx;
    char fingerprint[TLS_FP_LEN];
    char address[160];
    struct agentpool_agent *conns[MAX_CONNS];   /* pending and ready */
    size_t nconns;
    struct agentpool_agent *ready[MAX_CONNS];   /* by slot */
    size_t nready;
    pid_t children[RUN_MAX_AGENTS];
    size_t nchildren;
    uint32_t next_id;
    char *token;
};

static void agent_ready(struct wire *w, void *arg)
{
    struct agentpool_agent *a = arg;
    struct agentpool *p = a->pool;
    const struct proto_hello *h = wire_hello(w);
    if (p->nready >= p->cfg.count) {
        wire_close(w, "this run already has all the agents it expects");
        return;
    }
    snprintf(a->name, sizeof a->name, "%s", h->name ? h->name : "agent");
    a->capacity = h->capacity ? h->capacity : 1;
    if (p->cfg.capacity && p->cfg.capacity < a->capacity)
        a->capacity = p->cfg.capacity;
    for (size_t i = 0; i < p->nchildren; i++)
        if (p->children[i] == (pid_t)h->pid)
            a->pid = (pid_t)h->pid;
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
        if (m->u.records.seq != a->last_seq + 1) {
            snprintf(t, sizeof t, "records batch %llu out of order (expected %llu)",
                     (unsigned long long)m->u.records.seq, (unsigned long long)a->last_seq + 1);
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
        }
        break;
    default:
        snprintf(t, sizeof t, "unexpected %s message from an agent", proto_type_name(m->type));
        wire_close(w, t);
    }
}

static void agent_close(struct wire *w, const char *reason, void *arg)
{
    struct agentpool_agent *a = arg;
    struct agentpool *p = a->pool;
    wire_free(w);
    a->wire = NULL;
    if (a->slot == UINT32_MAX) {
        log_warn("agent connection from %s refused: %s", a->host, reason);
        return;
    }
    if (a->state == AGENTPOOL_AGENT_READY) {
        a->state = AGENTPOOL_AGENT_LOST;
        log_warn("agent %s lost: %s", a->name, reason);
        if (p->ev.lost)
            p->ev.lost(a, reason, p->ev.arg);
    }
}

static void accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int salen, void *arg)
{
    struct agentpool *p = arg;
    (void)l;
    char host[128] = "?";
    if (sa->sa_family == AF_INET || sa->sa_family == AF_INET6) {
        char ip[INET6_ADDRSTRLEN] = "?";
        const void *addr = sa->sa_family == AF_INET ? (const void *)&((struct sockaddr_in *)sa)->sin_addr
                                                     : (const void *)&((struct sockaddr_in6 *)sa)->sin6_addr;
        uint16_t port = ntohs(sa->sa_family == AF_INET ? ((struct sockaddr_in *)sa)->sin_port
                                                       : ((struct sockaddr_in6 *)sa)->sin6_port);
        evutil_inet_ntop(sa->sa_family, addr, ip, sizeof ip);
        snprintf(host, sizeof host, "%s:%u", ip, port);
    }
    (void)salen;
    struct agentpool_agent *a = p->nconns < MAX_CONNS ? calloc(1, sizeof *a) : NULL;
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
        log_warn("agent connection from %s dropped (no memory or too many connections)", host);
        return;
    }
    a->pool = p;
    a->slot = UINT32_MAX;
    snprintf(a->host, sizeof a->host, "%s", host);
    struct wire_params wp = { .role = WIRE_CONTROLLER, .token = p->token, .peer = host,
                              .timeout_ms = p->cfg.timeout_ms, .agent_id = ++p->next_id };
    struct wire_callbacks cb = { a, agent_ready, agent_msg, agent_close };
    a->wire = wire_new(p->base, bev, &wp, &cb);
    if (!a->wire) {
        free(a);
        return;
    }
    p->conns[p->nconns++] = a;
}

int agentpool_parse_cpus(const char *text, unsigned char *mask, size_t masklen)
{
    memset(mask, 0, masklen);
    const char *s = text;
    while (*s) {
        char *end;
        long lo = strtol(s, &end, 10), hi = lo;
        if (end == s)
            return -1;
        if (*end == '-') {
            s = end + 1;
            hi = strtol(s, &end, 10);
            if (end == s)
                return -1;
        }
        if (lo < 0 || hi < lo || (size_t)hi >= masklen)
            return -1;
        for (long c = lo; c <= hi; c++)
            mask[c] = 1;
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return 0;
}

static void default_agent_bin(char *out, size_t outlen)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(out, outlen, "sessmax-agent");
        return;
    }
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = 0;
    snprintf(out, outlen, "%s/sessmax-agent", self);
}

static void child_exec(const struct agentpool *p, const char *bin, const char *name, const char *cap)
{
    setpgid(0, 0);   /* a terminal's Ctrl-C reaches the controller only; it logs the agents off */
    if (p->cfg.cpus) {
        unsigned char mask[CPU_SETSIZE];
        cpu_set_t set;
        CPU_ZERO(&set);
        if (agentpool_parse_cpus(p->cfg.cpus, mask, sizeof mask) == 0) {
            for (int c = 0; c < CPU_SETSIZE; c++)
                if (mask[c])
                    CPU_SET(c, &set);
            if (sched_setaffinity(0, sizeof set, &set) < 0)
                fprintf(stderr, "sessmax-agent %s: cannot pin to CPUs %s: %s\n", name, p->cfg.cpus, strerror(errno));
        }
    }
    if (p->cfg.agent_log) {
        int fd = open(p->cfg.agent_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd >= 0)
            dup2(fd, 2);
    }
    setenv("SESSMAX_TOKEN", p->token, 1);
    char *argv[12] = { (char *)bin, "connect", (char *)p->address, "--name", (char *)name, "--capacity",
                       (char *)cap };
    int argc = 7;
    if (p->ssl_ctx) {
        argv[argc++] = "--tls-pin";
        argv[argc++] = (char *)p->fingerprint;
    }
    if (p->cfg.shot_dir) {
        argv[argc++] = "--shot-dir";
        argv[argc++] = (char *)p->cfg.shot_dir;
    }
    argv[argc] = NULL;
    execv(bin, argv);
    fprintf(stderr, "sessmax: cannot start %s: %s\n", bin, strerror(errno));
    _exit(EXEC_FAILED);
}

static int spawn_locals(struct agentpool *p, char *err, size_t errlen)
{
    char bin[PATH_MAX + 16], cap[16];
    if (p->cfg.agent_bin)
        snprintf(bin, sizeof bin, "%s", p->cfg.agent_bin);
    else
        default_agent_bin(bin, sizeof bin);
    if (access(bin, X_OK) != 0) {
        snprintf(err, errlen, "cannot run the agent %s: %s (set SESSMAX_AGENT_BIN)", bin, strerror(errno));
        return -1;
    }
    snprintf(cap, sizeof cap, "%u", p->cfg.capacity ? p->cfg.capacity : 100000);
    for (uint32_t i = 0; i < p->cfg.count && p->nchildren < RUN_MAX_AGENTS; i++) {
        char name[32];
        snprintf(name, sizeof name, "local-%u", i + 1);
        pid_t pid = fork();
        if (pid < 0) {
            snprintf(err, errlen, "cannot start local agent %u: %s", i + 1, strerror(errno));
            return -1;
        }
        if (pid == 0)
            child_exec(p, bin, name, cap);
        p->children[p->nchildren++] = pid;
    }
    return 0;
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
    p->ev = *ev;
    p->token = strdup(cfg->token);
    p->cfg.token = NULL;
    if (cfg->tls && !(p->ssl_ctx = tls_server_ctx(p->fingerprint, err, errlen)))
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

static void reap(struct agentpool *p)
{
    for (int round = 0; round < 30 && p->nchildren; round++) {
        for (size_t i = 0; i < p->nchildren;) {
            pid_t r = waitpid(p->children[i], NULL, WNOHANG);
            if (r == p->children[i] || (r < 0 && errno == ECHILD))
                p->children[i] = p->children[--p->nchildren];
            else
                i++;
        }
        if (round == 0)
            for (size_t i = 0; i < p->nchildren; i++)
                kill(p->children[i], SIGTERM);
        if (p->nchildren)
            usleep(100000);
    }
    for (size_t i = 0; i < p->nchildren; i++) {
        kill(p->children[i], SIGKILL);
        waitpid(p->children[i], NULL, 0);
    }
    p->nchildren = 0;
}

void agentpool_free(struct agentpool *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nconns; i++) {
        wire_free(p->conns[i]->wire);
        free(p->conns[i]);
    }
    if (p->listener)
        evconnlistener_free(p->listener);
    reap(p);
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
    if (a->wire)
        wire_close(a->wire, reason);
}

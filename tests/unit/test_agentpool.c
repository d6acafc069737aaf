/* test_agentpool.c -- the controller's agent listener: junk connections (more than a thousand,
 * some holding garbage, some held open and silent) never lock a real agent out: the oldest
 * connection that has not authenticated gives way to a newcomer, one address cannot push out
 * another's, and a link that showed a resume ticket of this run is never pushed out. */
#include "unit.h"

#include "common/proto.h"
#include "common/wire.h"
#include "controller/run/agentpool.h"

#include <arpa/inet.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define TOKEN "agentpool-test-token-0123456789"

static int ready_count;
static int agent_ready;
static int agent_gone;   /* the agent's wire closed (and freed itself) */

static void on_pool_ready(struct agentpool_agent *a, void *arg) { (void)a; (void)arg; ready_count++; }
static void on_agent_ready(struct wire *w, void *arg) { (void)w; (void)arg; agent_ready = 1; }
static void on_agent_msg(struct wire *w, struct proto_msg *m, void *arg) { (void)w; (void)m; (void)arg; }
static void on_agent_close(struct wire *w, const char *reason, void *arg)
{
    (void)arg;
    fprintf(stderr, "agent closed: %s\n", reason);
    agent_gone = 1;
    wire_free(w);
}

static void spin(struct event_base *base, int ms)
{
    struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
    event_base_loopexit(base, &tv);
    event_base_dispatch(base);
}

static uint16_t free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof sin;
    bind(fd, (struct sockaddr *)&sin, sizeof sin);
    getsockname(fd, (struct sockaddr *)&sin, &len);
    close(fd);
    return ntohs(sin.sin_port);
}

/* A connection from source address `from` (127.0.0.X). */
static int junk_from(uint16_t port, const char *bytes, const char *from)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    struct sockaddr_in src = { .sin_family = AF_INET };
    inet_pton(AF_INET, from, &src.sin_addr);
    if (bind(fd, (struct sockaddr *)&src, sizeof src) < 0 || connect(fd, (struct sockaddr *)&sin, sizeof sin) < 0) {
        close(fd);
        return -1;
    }
    if (bytes && write(fd, bytes, strlen(bytes)) < 0)
        fprintf(stderr, "write failed\n");
    return fd;
}

static int junk(uint16_t port, const char *bytes) { return junk_from(port, bytes, "127.0.0.1"); }

/* 1 when the controller closed fd (EOF or reset), after reading what it sent. */
static int closed_by_peer(int fd)
{
    char buf[4096];
    struct pollfd pf = { .fd = fd, .events = POLLIN };
    while (poll(&pf, 1, 0) == 1) {
        ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n <= 0)
            return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
    }
    return 0;
}

static struct agentpool *pool_open(struct event_base *base, uint16_t port, char *listen, size_t len)
{
    char err[256];
    snprintf(listen, len, "127.0.0.1:%u", port);
    struct agentpool_config cfg = { .count = 2, .listen = listen, .token = TOKEN, .timeout_ms = 5000,
                                    .grace_ms = 30000 };
    static struct agentpool_events ev = { .ready = on_pool_ready };
    struct agentpool *p = agentpool_new(base, &cfg, &ev, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    return p;
}

/* A real agent on a new connection; returns its wire once ready (NULL if it is not). */
static struct wire *real_agent(struct event_base *base, uint16_t port, const char *listen, const uint8_t *ticket)
{
    int sv = junk(port, NULL);
    CU_ASSERT_FATAL(sv >= 0);
    evutil_make_socket_nonblocking(sv);
    struct bufferevent *bev = bufferevent_socket_new(base, sv, BEV_OPT_CLOSE_ON_FREE);
    struct wire_params wp = { .role = WIRE_AGENT, .token = TOKEN, .peer = listen, .name = "real", .capacity = 1,
                              .ticket = ticket };
    struct wire_callbacks cb = { NULL, on_agent_ready, on_agent_msg, on_agent_close };
    struct wire *w = wire_new(base, bev, &wp, &cb);
    agent_ready = agent_gone = 0;
    wire_start(w);
    for (int i = 0; i < 100 && !agent_ready && !agent_gone; i++)
        spin(base, 20);
    if (!agent_ready && !agent_gone)
        wire_free(w);
    return agent_ready ? w : NULL;
}

#define FLOOD 600

static void test_agentpool__junk_connections_do_not_lock_out_agents(void)
{
    struct event_base *base = event_base_new();
    char listen[64], err[256];
    uint16_t port = free_port();
    snprintf(listen, sizeof listen, "127.0.0.1:%u", port);
    struct agentpool_config cfg = { .count = 1, .listen = listen, .token = TOKEN, .timeout_ms = 5000 };
    struct agentpool_events ev = { .ready = on_pool_ready };
    struct agentpool *p = agentpool_new(base, &cfg, &ev, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    int made = 0;
    for (int round = 0; round < 44; round++) {   /* 44 x 25 = 1100 connections in total */
        int fds[25];
        for (int i = 0; i < 25; i++) {
            fds[i] = junk(port, i % 3 == 0 ? "GET / HTTP/1.0\r\n\r\n" : i % 3 == 1 ? "\x00\x00\x00\x02\x01" : NULL);
            made += fds[i] >= 0;
        }
        spin(base, 20);
        for (int i = 0; i < 25; i++)
            if (fds[i] >= 0)
                close(fds[i]);
        spin(base, 20);
    }
    CU_ASSERT_EQUAL(made, 1100);
    /* a real agent is still accepted */
    int sv = junk(port, NULL);
    CU_ASSERT_FATAL(sv >= 0);
    evutil_make_socket_nonblocking(sv);
    struct bufferevent *bev = bufferevent_socket_new(base, sv, BEV_OPT_CLOSE_ON_FREE);
    struct wire_params wp = { .role = WIRE_AGENT, .token = TOKEN, .peer = listen, .name = "real", .capacity = 1 };
    struct wire_callbacks cb = { NULL, on_agent_ready, on_agent_msg, on_agent_close };
    struct wire *w = wire_new(base, bev, &wp, &cb);
    wire_start(w);
    for (int i = 0; i < 100 && !(agent_ready && ready_count); i++)
        spin(base, 20);
    CU_ASSERT(agent_ready);
    CU_ASSERT_EQUAL(ready_count, 1);
    CU_ASSERT_EQUAL(agentpool_count(p), 1);
    wire_free(w);
    agentpool_free(p);
    event_base_free(base);
}

/* 600 silent connections held open (more than the 256 that may be authenticating at once): a
 * real agent still gets in, and the flood is cut down to the per-address cap. */
static void test_agentpool__held_flood_gives_way_to_an_agent(void)
{
    struct event_base *base = event_base_new();
    char listen[64];
    uint16_t port = free_port();
    struct agentpool *p = pool_open(base, port, listen, sizeof listen);
    static int fds[FLOOD];
    for (int i = 0; i < FLOOD; i++) {
        fds[i] = junk(port, NULL);
        if (i % 50 == 49)
            spin(base, 10);
    }
    spin(base, 50);
    ready_count = 0;
    struct wire *w = real_agent(base, port, listen, NULL);
    CU_ASSERT_PTR_NOT_NULL(w);
    CU_ASSERT_EQUAL(ready_count, 1);
    int open = 0;
    for (int i = 0; i < FLOOD; i++)
        open += fds[i] >= 0 && !closed_by_peer(fds[i]);
    CU_ASSERT(open <= 64);   /* AGENTGATE_PER_ADDRESS: the newest of the flood */
    for (int i = 0; i < FLOOD; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    wire_free(w);
    agentpool_free(p);
    event_base_free(base);
}

/* A connection from 127.0.0.2 is not pushed out by a flood from 127.0.0.1. */
static void test_agentpool__one_address_cannot_push_out_another(void)
{
    struct event_base *base = event_base_new();
    char listen[64];
    uint16_t port = free_port();
    struct agentpool *p = pool_open(base, port, listen, sizeof listen);
    int other = junk_from(port, NULL, "127.0.0.2");
    CU_ASSERT_FATAL(other >= 0);
    spin(base, 20);
    static int fds[FLOOD];
    for (int i = 0; i < FLOOD; i++) {
        fds[i] = junk(port, NULL);
        if (i % 50 == 49)
            spin(base, 10);
    }
    spin(base, 50);
    CU_ASSERT(!closed_by_peer(other));
    for (int i = 0; i < FLOOD; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    close(other);
    agentpool_free(p);
    event_base_free(base);
}

/* An agent whose link broke comes back with its ticket while a flood from its own address goes on:
 * once its HELLO shows the ticket, its connection is never the one that gives way. */
static void test_agentpool__resuming_link_is_never_pushed_out(void)
{
    struct event_base *base = event_base_new();
    char listen[64];
    uint16_t port = free_port();
    struct agentpool *p = pool_open(base, port, listen, sizeof listen);
    struct wire *w = real_agent(base, port, listen, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    uint8_t ticket[PROTO_TICKET_LEN];
    memcpy(ticket, wire_welcome(w)->ticket, sizeof ticket);
    wire_free(w);   /* the link breaks */
    for (int i = 0; i < 20 && agentpool_agent(p, 0)->state != AGENTPOOL_AGENT_AWAY; i++)
        spin(base, 20);
    CU_ASSERT_EQUAL_FATAL(agentpool_agent(p, 0)->state, AGENTPOOL_AGENT_AWAY);
    /* the resuming agent's HELLO, by hand, so that the flood can come between HELLO and AUTH */
    int r = junk(port, NULL);
    struct proto_msg m = { .type = PROTO_HELLO };
    m.u.hello = (struct proto_hello){ .version = PROTO_VERSION, .name = "real", .capacity = 1 };
    memcpy(m.u.hello.ticket, ticket, sizeof ticket);
    struct proto_buf b = { 0 };
    CU_ASSERT_EQUAL_FATAL(proto_encode(&b, &m), 0);
    CU_ASSERT_EQUAL_FATAL(write(r, b.data, b.len), (ssize_t)b.len);
    proto_buf_free(&b);
    spin(base, 50);
    static int fds[FLOOD];
    for (int i = 0; i < FLOOD; i++) {
        fds[i] = junk(port, NULL);
        if (i % 50 == 49)
            spin(base, 10);
    }
    spin(base, 50);
    CU_ASSERT(!closed_by_peer(r));
    /* and the agent itself comes back through the flood */
    ready_count = 0;
    w = real_agent(base, port, listen, ticket);
    CU_ASSERT_PTR_NOT_NULL(w);
    CU_ASSERT_EQUAL(agentpool_agent(p, 0)->state, AGENTPOOL_AGENT_READY);
    CU_ASSERT_EQUAL(agentpool_agent(p, 0)->resumes, 1);
    for (int i = 0; i < FLOOD; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    close(r);
    wire_free(w);
    agentpool_free(p);
    event_base_free(base);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_agentpool__junk_connections_do_not_lock_out_agents),
        UNIT_TEST(test_agentpool__held_flood_gives_way_to_an_agent),
        UNIT_TEST(test_agentpool__one_address_cannot_push_out_another),
        UNIT_TEST(test_agentpool__resuming_link_is_never_pushed_out),
        UNIT_END,
    };
    return unit_run("agentpool", tests, NULL, NULL);
}

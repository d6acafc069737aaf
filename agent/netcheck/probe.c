/* probe.c -- echo and bulk clients of `sessmax-agent netcheck` (see probe.h). */
#include "agent/netcheck/probe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "agent/netem/netem.h"
#include "common/clock.h"

#define PING_BYTES 64

static int dial(const char *host, uint16_t port, char mode)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
    if (inet_pton(AF_INET, host, &a.sin_addr) != 1)
        return -1;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct timeval tv = { 20, 0 };
    int one = 1;
    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0 || send(fd, &mode, 1, MSG_NOSIGNAL) != 1) {
        close(fd);
        return -1;
    }
    return fd;
}

/* ---------------------------------------------------------------- echo sessions */

struct echo_sess {
    int fd;
    uint64_t next_us;
    uint8_t in[PING_BYTES];
    size_t have;
};

struct echo_job {
    const struct netem *n;
    const char *host;
    uint16_t port;
    unsigned sessions, interval_ms;
    double seconds;
    struct netcheck_echo_result *out;
    size_t cap;
    char *err;
    size_t errlen;
    int rc;
};

/* Connects every session in parallel (sequential connects would take sessions x RTT) and sends
 * the echo mode byte; sessions that fail keep fd -1. */
static void dial_all(struct echo_job *j, struct echo_sess *ss)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(j->port) };
    struct pollfd *pf = calloc(j->sessions, sizeof *pf);
    int one = 1;
    if (!pf || inet_pton(AF_INET, j->host, &a.sin_addr) != 1) {
        free(pf);
        return;
    }
    for (unsigned i = 0; i < j->sessions; i++) {
        ss[i].fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (ss[i].fd >= 0) {
            setsockopt(ss[i].fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            if (connect(ss[i].fd, (struct sockaddr *)&a, sizeof a) != 0 && errno != EINPROGRESS) {
                close(ss[i].fd);
                ss[i].fd = -1;
            }
        }
        pf[i] = (struct pollfd){ ss[i].fd, POLLOUT, 0 };
    }
    uint64_t deadline = clock_now_us() + 20000000;
    for (unsigned pending = j->sessions; pending && clock_now_us() < deadline;) {
        if (poll(pf, j->sessions, 100) < 0 && errno != EINTR)
            break;
        pending = 0;
        for (unsigned i = 0; i < j->sessions; i++) {
            if (pf[i].fd < 0)
                continue;
            if (!pf[i].revents) {
                pending++;
                continue;
            }
            int soerr = 0;
            socklen_t len = sizeof soerr;
            char mode = 'P';
            getsockopt(pf[i].fd, SOL_SOCKET, SO_ERROR, &soerr, &len);
            if (soerr || send(pf[i].fd, &mode, 1, MSG_NOSIGNAL) != 1) {
                close(ss[i].fd);
                ss[i].fd = -1;
            }
            pf[i].fd = -1;   /* done with this one */
        }
    }
    for (unsigned i = 0; i < j->sessions; i++)
        if (pf[i].fd >= 0) {   /* never connected */
            close(ss[i].fd);
            ss[i].fd = -1;
        }
    free(pf);
}

static void echo_read(struct echo_job *j, struct echo_sess *s)
{
    for (;;) {
        ssize_t r = recv(s->fd, s->in + s->have, PING_BYTES - s->have, MSG_DONTWAIT);
        if (r <= 0)
            return;
        s->have += (size_t)r;
        if (s->have < PING_BYTES)
            continue;
        uint64_t sent;
        memcpy(&sent, s->in, sizeof sent);
        if (j->out->count < j->cap)
            j->out->rtt_us[j->out->count++] = clock_now_us() - sent;
        s->have = 0;
    }
}

static void echo_loop(struct echo_job *j, struct echo_sess *ss, int ep)
{
    uint64_t end = clock_now_us() + (uint64_t)(j->seconds * 1e6);
    struct epoll_event evs[64];
    for (;;) {
        uint64_t now = clock_now_us(), next = end;
        if (now >= end)
            break;
        for (unsigned i = 0; i < j->sessions; i++) {
            if (ss[i].fd < 0)
                continue;
            if (ss[i].next_us <= now) {
                uint8_t ping[PING_BYTES] = { 0 };
                memcpy(ping, &now, sizeof now);
                send(ss[i].fd, ping, sizeof ping, MSG_NOSIGNAL | MSG_DONTWAIT);
                ss[i].next_us += (uint64_t)j->interval_ms * 1000;
            }
            if (ss[i].next_us < next)
                next = ss[i].next_us;
        }
        int timeout = next > now ? (int)((next - now + 999) / 1000) : 0;
        int n = epoll_wait(ep, evs, 64, timeout);
        for (int k = 0; k < n; k++)
            echo_read(j, &ss[evs[k].data.u32]);
    }
}

static void *echo_main(void *arg)
{
    struct echo_job *j = arg;
    struct echo_sess *ss = calloc(j->sessions, sizeof *ss);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct sched_param sp = { .sched_priority = 1 };   /* the instrument: time pings promptly */
    pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
    j->rc = -1;
    if (!ss || ep < 0 || netem_enter(j->n) != 0) {
        snprintf(j->err, j->errlen, "netcheck: cannot set up the echo sessions");
        goto done;
    }
    dial_all(j, ss);
    uint64_t start = clock_now_us() + 200000;   /* every session connected: pings start together */
    for (unsigned i = 0; i < j->sessions; i++) {
        if (ss[i].fd < 0)
            continue;
        j->out->sessions_connected++;
        ss[i].next_us = start + (uint64_t)j->interval_ms * 1000 * i / j->sessions;
        struct epoll_event ev = { .events = EPOLLIN, .data.u32 = i };
        epoll_ctl(ep, EPOLL_CTL_ADD, ss[i].fd, &ev);
    }
    echo_loop(j, ss, ep);
    double srtt = 0;
    unsigned m = 0;
    for (unsigned i = 0; i < j->sessions; i++) {
        struct tcp_info ti;
        socklen_t len = sizeof ti;
        if (ss[i].fd >= 0 && getsockopt(ss[i].fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0) {
            srtt += ti.tcpi_rtt / 1e3;
            m++;
        }
        if (ss[i].fd >= 0)
            close(ss[i].fd);
    }
    j->out->tcp_srtt_ms = m ? srtt / m : 0;
    j->rc = 0;
done:
    if (ep >= 0)
        close(ep);
    free(ss);
    return NULL;
}

int netcheck_echo(const struct netem *n, const char *host, uint16_t port, unsigned sessions, unsigned interval_ms,
                  double seconds, struct netcheck_echo_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct echo_job j = { n, host, port, sessions, interval_ms, seconds, out, 0, err, errlen, -1 };
    j.cap = (size_t)(sessions * (seconds * 1000.0 / interval_ms + 2));
    out->rtt_us = malloc(j.cap * sizeof *out->rtt_us);
    pthread_t t;
    if (!out->rtt_us || pthread_create(&t, NULL, echo_main, &j) != 0) {
        snprintf(err, errlen, "netcheck: out of memory or threads");
        return -1;
    }
    pthread_join(t, NULL);
    return j.rc;
}

/* ---------------------------------------------------------------- bulk readers */

struct bulk_job {
    const struct netem *n;
    const char *host;
    uint16_t port;
    double seconds;
    uint64_t bytes, t_end_us;
    int ok;
};

static void *bulk_main(void *arg)
{
    struct bulk_job *b = arg;
    if (netem_enter(b->n) != 0)
        return NULL;
    int fd = dial(b->host, b->port, 'B');
    if (fd < 0)
        return NULL;
    uint32_t ms = htonl((uint32_t)(b->seconds * 1000));
    char buf[16384];
    if (send(fd, &ms, sizeof ms, MSG_NOSIGNAL) == (ssize_t)sizeof ms) {
        ssize_t r;
        while ((r = recv(fd, buf, sizeof buf, 0)) > 0)
            b->bytes += (uint64_t)r;
        b->ok = r == 0;
    }
    b->t_end_us = clock_now_us();
    close(fd);
    return NULL;
}

int netcheck_bulk(const struct netem *n, const char *host, uint16_t port, unsigned conns, double seconds,
                  struct netcheck_bulk_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct bulk_job *jobs = calloc(conns, sizeof *jobs);
    pthread_t *ts = calloc(conns, sizeof *ts);
    if (!jobs || !ts) {
        free(jobs);
        free(ts);
        snprintf(err, errlen, "netcheck: out of memory");
        return -1;
    }
    uint64_t t0 = clock_now_us(), last = t0;
    for (unsigned i = 0; i < conns; i++) {
        jobs[i] = (struct bulk_job){ n, host, port, seconds, 0, 0, 0 };
        if (pthread_create(&ts[i], NULL, bulk_main, &jobs[i]) != 0)
            ts[i] = 0;
    }
    for (unsigned i = 0; i < conns; i++) {
        if (!ts[i])
            continue;
        pthread_join(ts[i], NULL);
        out->bytes += jobs[i].bytes;
        out->conns_ok += (unsigned)jobs[i].ok;
        if (jobs[i].t_end_us > last)
            last = jobs[i].t_end_us;
    }
    out->seconds = (double)(last - t0) / 1e6;
    free(jobs);
    free(ts);
    return out->conns_ok ? 0 : -1;
}

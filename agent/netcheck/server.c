/* server.c -- echo and bulk server of `sessmax-agent netcheck` (see server.h). */
#include "agent/netcheck/server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"

struct netcheck_server {
    int lfd, echo_ep;
    pthread_t acceptor, echo;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned running;              /* connection threads alive */
    int stop;
    struct netcheck_bulk_totals totals;
};

struct conn {
    struct netcheck_server *s;
    int fd;
};

/* The echo thread: one epoll set for every echo connection (a thread each would make the
 * instrument, not the link, the bottleneck at hundreds of sessions). */
static void *echo_main(void *arg)
{
    struct netcheck_server *s = arg;
    struct epoll_event evs[64];
    char buf[4096];
    /* the instrument, not the link under test: answer at once even on a loaded machine */
    struct sched_param sp = { .sched_priority = 1 };
    pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
    for (;;) {
        int n = epoll_wait(s->echo_ep, evs, 64, 100);
        pthread_mutex_lock(&s->mu);
        int stop = s->stop;
        pthread_mutex_unlock(&s->mu);
        if (stop)
            break;
        for (int i = 0; i < n; i++) {
            int fd = evs[i].data.fd;
            ssize_t r = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
            if (r > 0 && send(fd, buf, (size_t)r, MSG_NOSIGNAL | MSG_DONTWAIT) == r)
                continue;
            if (r < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            epoll_ctl(s->echo_ep, EPOLL_CTL_DEL, fd, NULL);   /* closed, or a short send: give up */
            close(fd);
        }
    }
    return NULL;
}

/* Sends for the number of milliseconds the client asked, then records TCP_INFO and closes. */
static void bulk(struct netcheck_server *s, int fd)
{
    static const char chunk[16384];
    uint32_t ms_be;
    if (recv(fd, &ms_be, sizeof ms_be, MSG_WAITALL) != (ssize_t)sizeof ms_be)
        return;
    uint64_t end = clock_now_us() + (uint64_t)ntohl(ms_be) * 1000;
    struct timeval tv = { 0, 200000 };
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    while (clock_now_us() < end)
        if (send(fd, chunk, sizeof chunk, MSG_NOSIGNAL) < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            return;
    struct tcp_info ti;
    socklen_t len = sizeof ti;
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
        return;
    pthread_mutex_lock(&s->mu);
    s->totals.segs_out += ti.tcpi_segs_out;
    s->totals.retrans += ti.tcpi_total_retrans;
    s->totals.bytes_acked += ti.tcpi_bytes_acked;
    s->totals.conns++;
    pthread_mutex_unlock(&s->mu);
}

static void *conn_main(void *arg)
{
    struct conn *c = arg;
    int one = 1;
    char mode = 0;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (recv(c->fd, &mode, 1, MSG_WAITALL) == 1 && mode == 'P') {
        struct epoll_event ev = { .events = EPOLLIN, .data.fd = c->fd };
        if (epoll_ctl(c->s->echo_ep, EPOLL_CTL_ADD, c->fd, &ev) == 0)
            c->fd = -1;   /* the echo thread owns it now */
    } else if (mode == 'B') {
        bulk(c->s, c->fd);
    }
    if (c->fd >= 0)
        close(c->fd);
    pthread_mutex_lock(&c->s->mu);
    c->s->running--;
    pthread_cond_broadcast(&c->s->cv);
    pthread_mutex_unlock(&c->s->mu);
    free(c);
    return NULL;
}

static void *accept_main(void *arg)
{
    struct netcheck_server *s = arg;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (;;) {
        struct pollfd pf = { s->lfd, POLLIN, 0 };
        if (poll(&pf, 1, 100) < 0 && errno != EINTR)
            break;
        pthread_mutex_lock(&s->mu);
        int stop = s->stop;
        pthread_mutex_unlock(&s->mu);
        if (stop)
            break;
        if (!(pf.revents & POLLIN))
            continue;
        int fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);
        struct conn *c = fd >= 0 ? malloc(sizeof *c) : NULL;
        if (!c) {
            if (fd >= 0)
                close(fd);
            continue;
        }
        *c = (struct conn){ s, fd };
        pthread_t t;
        pthread_mutex_lock(&s->mu);
        s->running++;
        pthread_mutex_unlock(&s->mu);
        if (pthread_create(&t, &attr, conn_main, c) != 0) {
            close(fd);
            free(c);
            pthread_mutex_lock(&s->mu);
            s->running--;
            pthread_mutex_unlock(&s->mu);
        }
    }
    pthread_attr_destroy(&attr);
    return NULL;
}

struct netcheck_server *netcheck_server_start(uint16_t *port)
{
    struct netcheck_server *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t alen = sizeof a;
    s->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    s->echo_ep = epoll_create1(EPOLL_CLOEXEC);
    if (s->echo_ep < 0 || pthread_create(&s->echo, NULL, echo_main, s) != 0) {
        log_error("netcheck: cannot start the echo thread: %s", strerror(errno));
        if (s->lfd >= 0)
            close(s->lfd);
        if (s->echo_ep >= 0)
            close(s->echo_ep);
        free(s);
        return NULL;
    }
    if (s->lfd < 0 || bind(s->lfd, (struct sockaddr *)&a, sizeof a) != 0 || listen(s->lfd, 1024) != 0 ||
        getsockname(s->lfd, (struct sockaddr *)&a, &alen) != 0 || pthread_create(&s->acceptor, NULL, accept_main, s)) {
        log_error("netcheck: cannot listen on 127.0.0.1: %s", strerror(errno));
        if (s->lfd >= 0)
            close(s->lfd);
        pthread_mutex_lock(&s->mu);
        s->stop = 1;
        pthread_mutex_unlock(&s->mu);
        pthread_join(s->echo, NULL);
        close(s->echo_ep);
        free(s);
        return NULL;
    }
    *port = ntohs(a.sin_port);
    return s;
}

void netcheck_server_totals(struct netcheck_server *s, struct netcheck_bulk_totals *out)
{
    pthread_mutex_lock(&s->mu);
    *out = s->totals;
    pthread_mutex_unlock(&s->mu);
}

void netcheck_server_stop(struct netcheck_server *s)
{
    pthread_mutex_lock(&s->mu);
    s->stop = 1;
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->acceptor, NULL);
    pthread_join(s->echo, NULL);
    close(s->lfd);
    close(s->echo_ep);   /* echo connections still registered were closed by their clients */
    pthread_mutex_lock(&s->mu);
    while (s->running)
        pthread_cond_wait(&s->cv, &s->mu);
    pthread_mutex_unlock(&s->mu);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

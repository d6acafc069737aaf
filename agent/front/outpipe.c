/* outpipe.c -- stdout and stderr through pipes that a writer thread drains (see outpipe.h).
 * A write(2) to a file can sleep for seconds when the disk is busy (ext4 waiting for its
 * journal, dirty-page throttling); on the loop thread that sleep is loop lag for every session.
 * With the pipe in between, the loop only ever copies into the pipe's buffer. */
#include "agent/front/outpipe.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define OUTPIPE_MAX 2
#define OUTPIPE_SIZE (1 << 20)      /* the pipe's buffer: seconds of records at 1,000 sessions */

struct outpipe {
    int n;
    int fd[OUTPIPE_MAX];            /* the redirected descriptors (1, 2) */
    int real[OUTPIPE_MAX];          /* where they pointed before */
    int rd[OUTPIPE_MAX];            /* the pipes' read ends */
    int stop_fd;
    pthread_t thread;
};

static void write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return;                 /* the file is gone: nothing sensible left to do */
        p += k;
        n -= (size_t)k;
    }
}

/* Copies what the pipe holds; 0 at its end (or when empty and non-blocking). */
static int pump(struct outpipe *o, int i)
{
    char buf[65536];
    ssize_t k = read(o->rd[i], buf, sizeof buf);
    if (k < 0 && errno == EINTR)
        return 1;
    if (k <= 0)
        return 0;
    write_all(o->real[i], buf, (size_t)k);
    return 1;
}

static void *writer_main(void *arg)
{
    struct outpipe *o = arg;
    struct pollfd pf[OUTPIPE_MAX + 1];
    int open_n = o->n;
    for (int i = 0; i < o->n; i++)
        pf[i] = (struct pollfd){ .fd = o->rd[i], .events = POLLIN };
    pf[o->n] = (struct pollfd){ .fd = o->stop_fd, .events = POLLIN };
    while (open_n > 0) {
        if (poll(pf, (nfds_t)o->n + 1, -1) < 0 && errno != EINTR)
            break;
        if (pf[o->n].revents)
            break;
        for (int i = 0; i < o->n; i++) {
            if (pf[i].fd >= 0 && pf[i].revents && !pump(o, i)) {
                pf[i].fd = -1;      /* its end: every write end is closed */
                open_n--;
            }
        }
    }
    /* stopping: what is left in the pipes goes out; a child still holding a write end does
     * not keep us waiting */
    for (int i = 0; i < o->n; i++) {
        fcntl(o->rd[i], F_SETFL, fcntl(o->rd[i], F_GETFL) | O_NONBLOCK);
        while (pump(o, i))
            ;
    }
    return NULL;
}

static void undo(struct outpipe *o)
{
    for (int i = 0; i < o->n; i++) {
        dup2(o->real[i], o->fd[i]);
        close(o->real[i]);
        close(o->rd[i]);
    }
    if (o->stop_fd >= 0)
        close(o->stop_fd);
    free(o);
}

struct outpipe *outpipe_start(void)
{
    struct outpipe *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->stop_fd = eventfd(0, EFD_CLOEXEC);
    if (o->stop_fd < 0) {
        free(o);
        return NULL;
    }
    fflush(stdout);
    fflush(stderr);
    static const int fds[OUTPIPE_MAX] = { 1, 2 };
    for (int i = 0; i < OUTPIPE_MAX; i++) {
        int p[2];
        if (isatty(fds[i]) || fcntl(fds[i], F_GETFD) < 0)
            continue;               /* a terminal keeps up; a closed descriptor stays closed */
        int real = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
        if (real < 0 || pipe2(p, O_CLOEXEC) != 0) {
            if (real >= 0)
                close(real);
            continue;
        }
        fcntl(p[1], F_SETPIPE_SZ, OUTPIPE_SIZE);   /* best effort: the default is 64 KiB */
        if (dup2(p[1], fds[i]) < 0) {
            close(real);
            close(p[0]);
            close(p[1]);
            continue;
        }
        close(p[1]);
        o->fd[o->n] = fds[i];
        o->real[o->n] = real;
        o->rd[o->n] = p[0];
        o->n++;
    }
    if (!o->n || pthread_create(&o->thread, NULL, writer_main, o) != 0) {
        undo(o);
        return NULL;
    }
    return o;
}

void outpipe_stop(struct outpipe *o)
{
    if (!o)
        return;
    fflush(stdout);
    fflush(stderr);
    /* the descriptors point at the files again: later writes go straight there, and the pipes'
     * write ends close (the writer then sees their end, or the stop below) */
    for (int i = 0; i < o->n; i++)
        dup2(o->real[i], o->fd[i]);
    uint64_t one = 1;
    if (write(o->stop_fd, &one, sizeof one) < 0)
        perror("outpipe: stop");
    pthread_join(o->thread, NULL);
    undo(o);
}

/* traffic.c -- TCP_INFO of another process's sockets, held through its pidfd (traffic.h). */
#include "agent/x11/traffic.h"

#include <dirent.h>
#include <linux/kcmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "agent/driver/netstats.h"

static void add(struct rec_traffic *t, const struct rec_traffic *one, uint64_t *most_in)
{
    t->wire_in += one->wire_in;
    t->wire_out += one->wire_out;
    t->data_segs_out += one->data_segs_out;
    t->retrans += one->retrans;
    t->data_segs_in += one->data_segs_in;
    if (one->wire_in >= *most_in) {
        *most_in = one->wire_in;
        t->rtt_us = one->rtt_us;
    }
}

void x11_traffic_init(struct x11_traffic *t)
{
    memset(t, 0, sizeof *t);
}

void x11_traffic_close(struct x11_traffic *t)
{
    for (size_t i = 0; i < t->n; i++)
        close(t->mine[i]);
    t->n = 0;
}

/* Keeps a duplicate of the client's descriptor fd when it is a TCP socket. */
static void hold(struct x11_traffic *t, int pidfd, int fd, int *borrowed)
{
    struct rec_traffic probe = { 0 };
    int mine = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
    if (mine < 0)
        return;
    ++*borrowed;
    if (t->n == X11_TRAFFIC_MAX_SOCKETS || netstats_tcp(mine, &probe) != 0) {
        close(mine);
        return;
    }
    t->mine[t->n] = mine;
    t->theirs[t->n++] = fd;
}

/* Lists /proc/PID/fd and holds every TCP socket there. 0, or -1 (as x11_traffic_read). */
static int search(struct x11_traffic *t, pid_t pid, int pidfd)
{
    char dir[64], path[320], link[64];
    snprintf(dir, sizeof dir, "/proc/%d/fd", (int)pid);
    t->searches++;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int borrowed = 0, sockets = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ssize_t n = readlink(path, link, sizeof link - 1);
        if (n <= 0)
            continue;
        link[n] = '\0';
        if (strncmp(link, "socket:[", 8) != 0)
            continue;
        sockets++;
        hold(t, pidfd, atoi(e->d_name), &borrowed);
    }
    closedir(d);
    return sockets && !borrowed ? -1 : 0;
}

/* Reads every socket held; -1 as soon as one is no longer the client's or does not answer. */
static int read_held(const struct x11_traffic *t, pid_t pid, struct rec_traffic *out)
{
    struct rec_traffic sum = { 0 };
    uint64_t most_in = 0;
    pid_t self = getpid();
    for (size_t i = 0; i < t->n; i++) {
        struct rec_traffic one = { 0 };
        if (syscall(SYS_kcmp, self, pid, KCMP_FILE, t->mine[i], t->theirs[i]) != 0 ||
            netstats_tcp(t->mine[i], &one) != 0)
            return -1;
        add(&sum, &one, &most_in);
    }
    add(out, &sum, &(uint64_t){ 0 });
    return 0;
}

int x11_traffic_read(struct x11_traffic *t, pid_t pid, int pidfd, struct rec_traffic *out)
{
    if (t->n && read_held(t, pid, out) == 0)
        return (int)t->n;
    x11_traffic_close(t);
    if (search(t, pid, pidfd) != 0)
        return -1;
    if (t->n && read_held(t, pid, out) == 0)
        return (int)t->n;
    x11_traffic_close(t);
    return 0;
}

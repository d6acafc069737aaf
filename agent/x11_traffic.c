/* x11_traffic.c -- TCP_INFO of another process's sockets, through its pidfd (x11_traffic.h). */
#include "agent/x11_traffic.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "agent/netstats.h"

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

int x11_traffic_sample(pid_t pid, int pidfd, struct rec_traffic *t)
{
    char dir[64], path[320], link[64];
    snprintf(dir, sizeof dir, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int found = 0, borrowed = 0, sockets = 0;
    uint64_t most_in = 0;
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
        struct rec_traffic one = { 0 };
        int fd = atoi(e->d_name);
        int mine = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
        if (mine < 0)
            continue;
        borrowed++;
        if (netstats_tcp(mine, &one) == 0) {
            add(t, &one, &most_in);
            found++;
        }
        close(mine);
    }
    closedir(d);
    return sockets && !borrowed ? -1 : found;
}

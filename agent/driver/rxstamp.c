/* rxstamp.c -- the kernel's receive time of a socket's first unread buffer (see rxstamp.h). */
#include "agent/driver/rxstamp.h"

#include <string.h>
#include <sys/socket.h>
#include <time.h>

int rxstamp_enable(int fd)
{
    int on = 1;
    return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
}

uint64_t rxstamp_from_age(uint64_t now_us, int64_t age_us)
{
    if (age_us <= 0)
        return now_us;
    return (uint64_t)age_us >= now_us ? 0 : now_us - (uint64_t)age_us;
}

uint64_t rxstamp_ready_us(int fd, uint64_t now_us)
{
    char byte;
    union {
        char buf[CMSG_SPACE(sizeof(struct timespec))];
        struct cmsghdr align;
    } ctl;
    struct iovec iov = { &byte, 1 };
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof ctl.buf };
    if (fd < 0 || recvmsg(fd, &msg, MSG_PEEK | MSG_DONTWAIT) <= 0)
        return now_us;
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_TIMESTAMPNS)
            continue;
        struct timespec ts;
        memcpy(&ts, CMSG_DATA(c), sizeof ts);
        int64_t age_ns = ((int64_t)wall.tv_sec - (int64_t)ts.tv_sec) * 1000000000 + (wall.tv_nsec - ts.tv_nsec);
        return rxstamp_from_age(now_us, age_ns / 1000);
    }
    return now_us;
}

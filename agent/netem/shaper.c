/* shaper.c -- the emulator's forwarding thread (see shaper.h).
 *
 * Each direction has a FIFO of packets with their departure times; since a line never reorders,
 * departure times are non-decreasing and a ring buffer is enough. The thread sleeps in ppoll()
 * until the earliest departure or a readable TUN fd, with a 1 ns timer slack so hrtimers wake it
 * on time. Packets are read straight into the ring's free slot (no copy). */
#include "agent/netem/shaper.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "agent/netem/line.h"
#include "common/log.h"

#define RING_SLOTS 16384u          /* per direction: 600 ms at 300 Mbit/s of full-size packets */
#define SLOT_BYTES 1536u
#define READ_BATCH 64
#define LATE_BUCKETS 2000          /* 0..999 us by 1 us, then 1 ms .. 100 ms by 100 us */

struct slot {
    uint64_t at_ns;
    uint32_t len;
    uint8_t data[SLOT_BYTES];
};

struct ring {
    struct slot *slots;
    uint32_t head, tail;           /* head: next to send; tail: next free */
};

struct dir {
    int in_fd, out_fd;
    struct netem_line line;
    struct ring q;
    uint64_t pkts, bytes;
};

struct netem_shaper {
    struct dir up, down;
    int wake_fd;
    pthread_t thread;
    pthread_mutex_t mu;            /* guards the counters and the histogram for snapshots */
    uint32_t late[LATE_BUCKETS];
    uint64_t late_max_us, overflow;
    uint8_t sink[SLOT_BYTES];      /* reads that find the ring full */
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint32_t ring_len(const struct ring *r)
{
    return r->tail - r->head;
}

static void note_late(struct netem_shaper *s, uint64_t late_ns)
{
    uint64_t us = late_ns / 1000;
    uint32_t b = us < 1000 ? (uint32_t)us : 1000 + (uint32_t)((us - 1000) / 100);
    s->late[b < LATE_BUCKETS ? b : LATE_BUCKETS - 1]++;
    if (us > s->late_max_us)
        s->late_max_us = us;
}

/* Sends every packet of d that is due; returns the next departure time or UINT64_MAX. */
static uint64_t flush(struct netem_shaper *s, struct dir *d, uint64_t now)
{
    while (ring_len(&d->q)) {
        struct slot *sl = &d->q.slots[d->q.head % RING_SLOTS];
        if (sl->at_ns > now)
            return sl->at_ns;
        if (write(d->out_fd, sl->data, sl->len) == (ssize_t)sl->len) {
            d->pkts++;
            d->bytes += sl->len;
        }
        note_late(s, now - sl->at_ns);
        d->q.head++;
    }
    return UINT64_MAX;
}

/* Reads up to READ_BATCH packets of d and queues those the line admits. */
static void intake(struct netem_shaper *s, struct dir *d)
{
    for (int i = 0; i < READ_BATCH; i++) {
        int full = ring_len(&d->q) >= RING_SLOTS;
        struct slot *sl = &d->q.slots[d->q.tail % RING_SLOTS];
        ssize_t n = read(d->in_fd, full ? s->sink : sl->data, SLOT_BYTES);
        if (n <= 0)
            return;
        if (full) {
            s->overflow++;
            continue;
        }
        uint64_t at = netem_line_admit(&d->line, now_ns(), (uint32_t)n);
        if (at == NETEM_LINE_DROP)
            continue;
        sl->at_ns = at;
        sl->len = (uint32_t)n;
        d->q.tail++;
    }
}

static void *shaper_main(void *arg)
{
    struct netem_shaper *s = arg;
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    /* Kernel netem runs in softirq context, ahead of every user thread; the nearest a user-space
     * emulator gets is the lowest real-time priority (it sleeps in ppoll between packets, and
     * the kernel's RT throttling keeps 5 % for others). Without CAP_SYS_NICE it stays SCHED_OTHER. */
    struct sched_param sp = { .sched_priority = 1 };
    if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) != 0)
        log_info("network emulator: no real-time priority for the shaper (needs CAP_SYS_NICE)");
    struct pollfd pf[3] = { { s->up.in_fd, POLLIN, 0 }, { s->down.in_fd, POLLIN, 0 }, { s->wake_fd, POLLIN, 0 } };
    for (;;) {
        pthread_mutex_lock(&s->mu);
        uint64_t now = now_ns();
        uint64_t a = flush(s, &s->up, now), b = flush(s, &s->down, now);
        pthread_mutex_unlock(&s->mu);
        uint64_t next = a < b ? a : b;
        struct timespec ts, *tp = NULL;
        if (next != UINT64_MAX) {
            uint64_t wait = next > now ? next - now : 0;
            ts.tv_sec = (time_t)(wait / 1000000000ull);
            ts.tv_nsec = (long)(wait % 1000000000ull);
            tp = &ts;
        }
        int n = ppoll(pf, 3, tp, NULL);
        if (n < 0 && errno != EINTR)
            break;
        if (n <= 0)
            continue;
        if (pf[2].revents)
            break;
        pthread_mutex_lock(&s->mu);
        if (pf[0].revents & POLLIN)
            intake(s, &s->up);
        if (pf[1].revents & POLLIN)
            intake(s, &s->down);
        pthread_mutex_unlock(&s->mu);
        if ((pf[0].revents | pf[1].revents) & (POLLERR | POLLHUP | POLLNVAL)) {
            log_error("network emulator: a TUN device went away; stopping the emulator");
            break;
        }
    }
    return NULL;
}

static void close_all(struct netem_shaper *s)
{
    free(s->up.q.slots);
    free(s->down.q.slots);
    if (s->up.in_fd >= 0)
        close(s->up.in_fd);
    if (s->down.in_fd >= 0)
        close(s->down.in_fd);
    if (s->wake_fd >= 0)
        close(s->wake_fd);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

struct netem_shaper *netem_shaper_start(int fd_ns, int fd_host, const struct netprofile *p, uint64_t seed)
{
    struct netem_shaper *s = calloc(1, sizeof *s);
    if (!s) {
        close(fd_ns);
        close(fd_host);
        return NULL;
    }
    pthread_mutex_init(&s->mu, NULL);
    s->up.in_fd = s->down.out_fd = fd_ns;
    s->down.in_fd = s->up.out_fd = fd_host;
    s->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    uint64_t half = (uint64_t)p->rtt_us * 500;   /* ns, one way */
    netem_line_init(&s->up.line, half, (uint64_t)p->jitter_us * 1000, p->loss, p->rate_up_bps, p->queue_pkts,
                    seed * 2 + 1);
    netem_line_init(&s->down.line, p->rtt_us * 1000ull - half, (uint64_t)p->jitter_us * 1000, p->loss,
                    p->rate_down_bps, p->queue_pkts, seed * 2 + 3);
    s->up.q.slots = malloc(RING_SLOTS * sizeof(struct slot));
    s->down.q.slots = malloc(RING_SLOTS * sizeof(struct slot));
    if (s->wake_fd < 0 || !s->up.q.slots || !s->down.q.slots || pthread_create(&s->thread, NULL, shaper_main, s)) {
        log_error("network emulator: cannot start its thread: %s", strerror(errno));
        close_all(s);
        return NULL;
    }
    return s;
}

static uint64_t late_pct(const uint32_t *h, uint64_t total, double q)
{
    uint64_t want = (uint64_t)(q * (double)total), acc = 0;
    for (uint32_t b = 0; b < LATE_BUCKETS; b++) {
        acc += h[b];
        if (acc > want)
            return b < 1000 ? b : 1000 + (uint64_t)(b - 1000) * 100;
    }
    return 0;
}

void netem_shaper_stats(struct netem_shaper *s, struct netem_stats *o)
{
    memset(o, 0, sizeof *o);
    pthread_mutex_lock(&s->mu);
    o->pkts_up = s->up.pkts;
    o->pkts_down = s->down.pkts;
    o->bytes_up = s->up.bytes;
    o->bytes_down = s->down.bytes;
    o->lost_up = s->up.line.lost;
    o->lost_down = s->down.line.lost;
    o->qdrop_up = s->up.line.queue_drops;
    o->qdrop_down = s->down.line.queue_drops;
    o->overflow = s->overflow;
    uint64_t total = 0;
    for (uint32_t b = 0; b < LATE_BUCKETS; b++)
        total += s->late[b];
    o->late_p50_us = late_pct(s->late, total, 0.50);
    o->late_p99_us = late_pct(s->late, total, 0.99);
    o->late_max_us = s->late_max_us;
    pthread_mutex_unlock(&s->mu);
    clockid_t cid;
    struct timespec ts;
    if (pthread_getcpuclockid(s->thread, &cid) == 0 && clock_gettime(cid, &ts) == 0)
        o->cpu_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void netem_shaper_stop(struct netem_shaper *s)
{
    if (!s)
        return;
    uint64_t one = 1;
    if (write(s->wake_fd, &one, sizeof one) < 0)
        log_warn("network emulator: cannot wake its thread: %s", strerror(errno));
    pthread_join(s->thread, NULL);
    close_all(s);
}

/* looplag.c -- timer lateness of the agent's loop: per-interval samples (exact percentiles over
 * a bounded buffer) plus a log-bucketed histogram (eight buckets an octave) for the run as a whole. */
#include "agent/engine/looplag.h"

#include <event2/event.h>
#include <stdlib.h>
#include <string.h>

#include "agent/engine/loopwatch.h"
#include "common/clock.h"

#define LOOPLAG_MAX_SAMPLES 4096
#define LOOPLAG_SUB 8        /* histogram buckets per octave: see bucket_of() */
#define LOOPLAG_BUCKETS (30 * LOOPLAG_SUB)

struct looplag {
    struct event *ev;
    uint64_t period_us;
    uint64_t due_us;
    uint32_t n, max_us;
    uint32_t samples[LOOPLAG_MAX_SAMPLES];
    uint64_t hist[LOOPLAG_BUCKETS];
    uint64_t hist_n;
    uint32_t total_max_us;
};

/* Eighth-octave buckets: values below 16 µs exactly, then 16,18,20,..,30, 32,36,..,60, 64,72,..
 * (each bucket 1/8 of its octave wide); bucket_floor(b) <= v < bucket_floor(b + 1). */
static unsigned bucket_of(uint32_t v)
{
    if (v < 2 * LOOPLAG_SUB)
        return v;
    unsigned msb = 31u - (unsigned)__builtin_clz(v);
    unsigned sub = (v >> (msb - 3)) & (LOOPLAG_SUB - 1);
    return (msb - 2) * LOOPLAG_SUB + sub;
}

static uint64_t bucket_floor(unsigned b)
{
    if (b < 2 * LOOPLAG_SUB)
        return b;
    unsigned msb = b / LOOPLAG_SUB + 2;
    return ((uint64_t)1 << msb) | ((uint64_t)(b % LOOPLAG_SUB) << (msb - 3));
}

static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct looplag *l = arg;
    uint64_t now = clock_now_us();
    uint32_t late_us = now > l->due_us ? (uint32_t)(now - l->due_us) : 0;
    looplag_record(l, late_us);
    loopwatch_tick(late_us);
    l->due_us = now + l->period_us;
    struct timeval tv = { (time_t)(l->period_us / 1000000), (suseconds_t)(l->period_us % 1000000) };
    event_add(l->ev, &tv);
}

struct looplag *looplag_new(struct event_base *base, uint32_t period_ms)
{
    struct looplag *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->period_us = (uint64_t)(period_ms ? period_ms : 20) * 1000;
    if (base) {
        l->ev = evtimer_new(base, tick_cb, l);
        if (!l->ev) {
            free(l);
            return NULL;
        }
        l->due_us = clock_now_us() + l->period_us;
        struct timeval tv = { (time_t)(l->period_us / 1000000),
                              (suseconds_t)(l->period_us % 1000000) };
        event_add(l->ev, &tv);
    }
    return l;
}

void looplag_record(struct looplag *l, uint32_t late_us)
{
    if (l->n < LOOPLAG_MAX_SAMPLES)
        l->samples[l->n++] = late_us;
    else
        l->samples[(l->hist_n * 2654435761u) % LOOPLAG_MAX_SAMPLES] = late_us; /* keep a spread */
    if (late_us > l->max_us)
        l->max_us = late_us;
    if (late_us > l->total_max_us)
        l->total_max_us = late_us;
    l->hist[bucket_of(late_us)]++;
    l->hist_n++;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* nearest rank: the smallest value with at least p% of samples <= it */
static uint32_t rank(uint32_t n, unsigned pct)
{
    uint64_t r = ((uint64_t)n * pct + 99) / 100;
    return r ? (uint32_t)r - 1 : 0;
}

uint32_t looplag_take(struct looplag *l, uint32_t *p50_us, uint32_t *p99_us, uint32_t *max_us)
{
    uint32_t n = l->n;
    *p50_us = *p99_us = *max_us = 0;
    if (n) {
        qsort(l->samples, n, sizeof l->samples[0], cmp_u32);
        *p50_us = l->samples[rank(n, 50)];
        *p99_us = l->samples[rank(n, 99)];
        *max_us = l->max_us;
    }
    l->n = 0;
    l->max_us = 0;
    return n;
}

/* The top of the percentile's bucket, never above the largest sample: never below the true
 * percentile, and at most an eighth of it above. */
static uint32_t hist_pct(const struct looplag *l, unsigned pct)
{
    uint64_t want = (l->hist_n * pct + 99) / 100, seen = 0;
    for (unsigned b = 0; b < LOOPLAG_BUCKETS; b++) {
        seen += l->hist[b];
        if (seen >= want && want) {
            uint64_t top = bucket_floor(b + 1) - 1;
            return top < l->total_max_us ? (uint32_t)top : l->total_max_us;
        }
    }
    return 0;
}

void looplag_total(const struct looplag *l, uint32_t *p50_us, uint32_t *p99_us, uint32_t *max_us)
{
    *p50_us = hist_pct(l, 50);
    *p99_us = hist_pct(l, 99);
    *max_us = l->total_max_us;
}

void looplag_free(struct looplag *l)
{
    if (!l)
        return;
    if (l->ev)
        event_free(l->ev);
    free(l);
}

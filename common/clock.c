/* clock.c -- monotonic and wall-clock microseconds. */
#include "common/clock.h"

#include <stdio.h>
#include <time.h>

static uint64_t timespec_us(const struct timespec *ts)
{
    return (uint64_t)ts->tv_sec * 1000000u + (uint64_t)ts->tv_nsec / 1000u;
}

uint64_t clock_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return timespec_us(&ts);
}

uint64_t clock_wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return timespec_us(&ts);
}

const char *clock_format_iso(uint64_t wall_us, char *buf, unsigned buflen)
{
    time_t secs = (time_t)(wall_us / 1000000u);
    struct tm tm;
    gmtime_r(&secs, &tm);
    strftime(buf, buflen, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

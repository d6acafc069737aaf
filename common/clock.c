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

const char *clock_format_utc(uint64_t wall_us, const char *fmt, char *buf, size_t len)
{
    time_t secs = (time_t)(wall_us / 1000000u);
    struct tm tm;
    if (!len)
        return NULL;
    if (!gmtime_r(&secs, &tm) || !strftime(buf, len, fmt, &tm)) {
        buf[0] = '\0';
        return NULL;
    }
    return buf;
}

/* clock.h -- time in microseconds: CLOCK_MONOTONIC for every measured duration, the wall clock
 * only for labels (run start, report dates). Every duration in sessmax is named with its unit. */
#ifndef SESSMAX_CLOCK_H
#define SESSMAX_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* Monotonic microseconds since an arbitrary origin (boot). Thread-safe, never goes back. */
uint64_t clock_now_us(void);

/* Wall-clock microseconds since the Unix epoch. Thread-safe; can jump. */
uint64_t clock_wall_us(void);

/* Formats wall-clock microseconds as UTC with strftime's fmt (e.g. "%Y-%m-%d %H:%M") into buf of
 * len bytes. Returns buf, or NULL (buf then empty) when the text does not fit. Thread-safe. */
const char *clock_format_utc(uint64_t wall_us, const char *fmt, char *buf, size_t len);

#endif

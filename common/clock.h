/* clock.h -- time in microseconds: CLOCK_MONOTONIC for every measured duration, the wall clock
 * only for labels (run start, report dates). Every duration in sessmax is named with its unit. */
#ifndef SESSMAX_CLOCK_H
#define SESSMAX_CLOCK_H

#include <stdint.h>

/* Monotonic microseconds since an arbitrary origin (boot). Thread-safe, never goes back. */
uint64_t clock_now_us(void);

/* Wall-clock microseconds since the Unix epoch. Thread-safe; can jump. */
uint64_t clock_wall_us(void);

/* Formats wall-clock microseconds as ISO 8601 UTC ("2026-11-30T02:45:22Z") into buf. */
const char *clock_format_iso(uint64_t wall_us, char *buf, unsigned buflen);

#endif

/* ab.h -- `sessmax compare DB RUN_A RUN_B --ab`: per timer, the ok samples of two runs (typically
 * single-user runs of N loops) compared with controller/score/abstat.h: n, medians, difference
 * B - A with its 95 % bootstrap interval, Mann-Whitney p and a plain verdict. */
#ifndef SESSMAX_AB_H
#define SESSMAX_AB_H

#include <stdint.h>
#include <stdio.h>

#include "db/store.h"

/* A regression limit: B's median may exceed A's by at most `seconds` (if >= 0) and by at most
 * `percent` of A's median (if >= 0); a timer over a limit with a significant difference fails. */
struct ab_limit {
    double seconds, percent;
};

/* "2s", "500ms" (a duration) or "10%" -> limit. Returns 0, or -1. */
int ab_parse_limit(const char *text, struct ab_limit *out);

/* Writes the table for every timer (not measure) with samples in both runs, or only for timer
 * `only` (the plan's focus) when not NULL. Returns the number of timers over the limit (NULL:
 * none checked), or -1 when no timer is in both runs. */
int ab_write(const struct store_samples *a, const struct store_samples *b, int64_t run_a, int64_t run_b,
             const struct ab_limit *limit, const char *only, FILE *o);

/* For the copy timers (runs' copy_timers rows): throughput at the median of A and of B, and
 * their ratio, after the table. Returns how many were shown (0: none), or -1 out of memory. */
int ab_write_copies(const struct store_samples *a, const struct store_samples *b,
                    const struct store_copy_row *copies, size_t ncopies, FILE *o);

#endif

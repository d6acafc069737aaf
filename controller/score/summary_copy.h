/* summary_copy.h -- copy timers (a workload timer's `copy:`): throughput beside the time, and
 * the classic copy table (one row per direction, one column per size: median seconds and MB/s)
 * that `score`, the report and `compare` show. MB = 2^20 bytes, as simhost prints it. */
#ifndef SESSMAX_SUMMARY_COPY_H
#define SESSMAX_SUMMARY_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "db/store.h"

struct summary;
struct summary_timer;

/* Marks the summary's timers named in rows as copy timers and computes their throughput. */
void summary_copy_apply(const struct store_copy_row *rows, size_t n, struct summary *s);

/* MB/s for bytes moved in ms milliseconds; NaN when ms is not positive or not finite. */
double summary_copy_mbps(uint64_t bytes, double ms);

/* "10 MB", "300 MB", "512 KB", "1.5 GB": a size the way the table heads it. */
void summary_copy_size_text(uint64_t bytes, char *out, size_t len);

/* The distinct sizes of s's copy timers, ascending; returns how many (at most max). */
size_t summary_copy_sizes(const struct summary *s, uint64_t *sizes, size_t max);

/* The copy timer of s moving `bytes` in that direction, or NULL. */
const struct summary_timer *summary_copy_cell(const struct summary *s, int to_client, uint64_t bytes);

/* The table as text (nothing when s has no copy timer):
 *   copies (median of ok samples; MB = 2^20 bytes)   10 MB                 300 MB
 *   client -> server                                  1.88 s    5.3 MB/s    49.70 s    6.0 MB/s */
void summary_copy_print(FILE *o, const struct summary *s);

#endif

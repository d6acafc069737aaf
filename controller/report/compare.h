/* compare.h -- the side-by-side table of runs (or of groups of runs by transport, platform,
 * network and client): smax, baseline, a percentile per timer, kbit/s per session, measured RTT p50 and
 * retransmission rate, stuck sessions. Pure over summaries; rendered as aligned text, CSV or
 * Markdown. */
#ifndef SESSMAX_COMPARE_H
#define SESSMAX_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "controller/score/summary.h"

enum compare_by { COMPARE_BY_TRANSPORT = 1, COMPARE_BY_PLATFORM = 2, COMPARE_BY_NETWORK = 4, COMPARE_BY_CLIENT = 8 };
enum compare_format { COMPARE_TEXT, COMPARE_CSV, COMPARE_MARKDOWN };

/* Parses "transport,platform,network,client" (any subset) into a mask; -1 on an unknown key. */
int compare_parse_by(const char *text, unsigned *mask);
/* "text" | "csv" | "markdown" (or "md"); -1 when unknown. */
int compare_parse_format(const char *text);

/* Writes the table. by = 0: one row per run; otherwise one row per group (runs with equal
 * labels), figures averaged over the group's runs, smax over the runs where it was reached.
 * Returns 0, or -1 on allocation or write failure. */
int compare_write(const struct summary *runs, size_t n, unsigned by, enum compare_format fmt, FILE *out);

/* The per-timer percentile of the table. compare_write uses p50 when grouping by network alone
 * (the LAN-vs-WAN table: what latency does to a typical action) and p95 otherwise. */
enum compare_stat { COMPARE_P50, COMPARE_P95, COMPARE_P99 };
/* "p50" | "p95" | "p99"; -1 when unknown. */
int compare_parse_stat(const char *text);
int compare_write_stat(const struct summary *runs, size_t n, unsigned by, enum compare_stat stat,
                       enum compare_format fmt, FILE *out);

#endif

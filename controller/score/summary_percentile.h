/* summary_percentile.h -- the nearest-rank percentile every figure of a summary uses (logon
 * times, agent lag, per-timer response times), so they all rank alike. */
#ifndef SESSMAX_SUMMARY_PERCENTILE_H
#define SESSMAX_SUMMARY_PERCENTILE_H

#include <stddef.h>

/* Nearest rank: the position of percentile p (0..100) among n > 0 sorted values. */
size_t summary_percentile_at(size_t n, double p);
/* Percentile of sorted values (nearest-rank, p in 0..100); NaN when n == 0. */
double summary_percentile(const double *sorted, size_t n, double p);

#endif

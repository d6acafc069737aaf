/* abstat.h -- statistics for single-user A/B diagnosis (`sessmax compare DB A B --ab`): medians,
 * the difference of medians B - A with a percentile-bootstrap confidence interval, and the
 * two-sided Mann-Whitney U test (exact without ties for small samples, normal approximation with
 * tie and continuity correction otherwise). Pure functions; deterministic (seeded bootstrap). */
#ifndef SESSMAX_ABSTAT_H
#define SESSMAX_ABSTAT_H

#include <stddef.h>
#include <stdint.h>

#define ABSTAT_BOOT_ITERS 10000
#define ABSTAT_EXACT_MAX 20          /* exact U distribution when both n <= this and no ties */

/* Median of x[0..n-1] (x is not modified); NaN for n == 0. */
double abstat_median(const double *x, size_t n);

/* U of sample a (pairs a > b count 1, ties 1/2) and the two-sided p-value. p = 1 when a side is
 * empty. */
double abstat_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u_a);

/* Percentile bootstrap of median(b) - median(a): `iters` resamples of each side with the given
 * seed; [lo, hi] at `level` (e.g. 0.95). Returns 0, or -1 (empty side or out of memory). */
int abstat_bootstrap_diff(const double *a, size_t na, const double *b, size_t nb, unsigned iters,
                          uint64_t seed, double level, double *lo, double *hi);

struct abstat_result {
    size_t na, nb;
    double median_a, median_b, diff;  /* diff = median_b - median_a */
    double ci_lo, ci_hi;              /* 95 % bootstrap interval of diff */
    double u, p;                      /* Mann-Whitney U of a, two-sided p */
    int significant;                  /* p < 0.05 and the interval excludes 0 */
};

/* Everything above for one timer. Returns 0, or -1 when a side is empty. */
int abstat_compare(const double *a, size_t na, const double *b, size_t nb, struct abstat_result *r);

/* "B slower by 8.2 s, 95 % CI 7.5-9.0 s, p < 0.001" / "B faster by ..." / "no significant
 * difference (p = 0.41)". Values in seconds. */
void abstat_verdict(const struct abstat_result *r, char *buf, size_t len);

#endif

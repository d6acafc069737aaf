/* abstat.c -- medians, bootstrap interval and Mann-Whitney U for A/B diagnosis (abstat.h). */
#include "controller/score/abstat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_d(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median_sorted(const double *s, size_t n)
{
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

double abstat_median(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return NAN;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_d);
    double m = median_sorted(s, n);
    free(s);
    return m;
}

/* Number of arrangements of m a's and n b's with U = u, for every u (counts[0..m*n]). */
static double *u_counts(size_t m, size_t n)
{
    size_t w = m * n + 1;
    double *prev = calloc((n + 1) * w, sizeof *prev), *cur = calloc((n + 1) * w, sizeof *cur);
    if (!prev || !cur) {
        free(prev);
        free(cur);
        return NULL;
    }
    for (size_t j = 0; j <= n; j++)
        prev[j * w] = 1;                          /* 0 a's: U = 0, one arrangement */
    for (size_t i = 1; i <= m; i++) {
        memset(cur, 0, (n + 1) * w * sizeof *cur);
        cur[0] = 1;                               /* 0 b's */
        for (size_t j = 1; j <= n; j++)
            for (size_t u = 0; u <= i * j; u++)   /* last element a (beats j b's) or b */
                cur[j * w + u] = (u >= j ? prev[j * w + u - j] : 0) + cur[(j - 1) * w + u];
        double *t = prev;
        prev = cur;
        cur = t;
    }
    double *out = malloc(w * sizeof *out);
    if (out)
        memcpy(out, prev + n * w, w * sizeof *out);
    free(prev);
    free(cur);
    return out;
}

static double exact_p(double u, size_t na, size_t nb)
{
    double *c = u_counts(na, nb), tot = 0, tail = 0, mean = na * nb / 2.0;
    if (!c)
        return NAN;
    for (size_t k = 0; k <= na * nb; k++) {
        tot += c[k];
        if (fabs((double)k - mean) >= fabs(u - mean) - 1e-9)
            tail += c[k];
    }
    free(c);
    return tail / tot;
}

double abstat_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u_a)
{
    size_t n = na + nb;
    *u_a = 0;
    if (na == 0 || nb == 0)
        return 1.0;
    struct item { double v; int side; } *all = malloc(n * sizeof *all);
    if (!all)
        return NAN;
    for (size_t i = 0; i < na; i++)
        all[i] = (struct item){ a[i], 0 };
    for (size_t i = 0; i < nb; i++)
        all[na + i] = (struct item){ b[i], 1 };
    qsort(all, n, sizeof *all, cmp_d);            /* sorts by v (first member) */
    double rank_a = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && all[j].v == all[i].v)
            j++;
        double t = (double)(j - i), rank = (double)(i + j + 1) / 2.0;   /* mean of ranks i+1..j */
        for (size_t k = i; k < j; k++)
            if (all[k].side == 0)
                rank_a += rank;
        ties += t * t * t - t;
        i = j;
    }
    free(all);
    double u = rank_a - (double)na * (na + 1) / 2.0, mean = (double)na * nb / 2.0;
    *u_a = u;
    if (ties == 0 && na <= ABSTAT_EXACT_MAX && nb <= ABSTAT_EXACT_MAX)
        return exact_p(u, na, nb);
    double var = (double)na * nb / 12.0 * ((n + 1) - ties / ((double)n * (n - 1)));
    if (var <= 0)
        return 1.0;                               /* every value tied */
    double z = (fabs(u - mean) - 0.5) / sqrt(var);
    if (z < 0)
        z = 0;
    double p = erfc(z / sqrt(2.0));
    return p > 1 ? 1 : p;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double resample_median(const double *x, size_t n, double *tmp, uint64_t *s)
{
    for (size_t i = 0; i < n; i++)
        tmp[i] = x[splitmix(s) % n];
    qsort(tmp, n, sizeof *tmp, cmp_d);
    return median_sorted(tmp, n);
}

int abstat_bootstrap_diff(const double *a, size_t na, const double *b, size_t nb, unsigned iters,
                          uint64_t seed, double level, double *lo, double *hi)
{
    if (na == 0 || nb == 0 || iters == 0)
        return -1;
    double *d = malloc(iters * sizeof *d), *tmp = malloc((na > nb ? na : nb) * sizeof *tmp);
    if (!d || !tmp) {
        free(d);
        free(tmp);
        return -1;
    }
    uint64_t s = seed;
    for (unsigned i = 0; i < iters; i++) {
        double ma = resample_median(a, na, tmp, &s);
        d[i] = resample_median(b, nb, tmp, &s) - ma;
    }
    qsort(d, iters, sizeof *d, cmp_d);
    double tail = (1.0 - level) / 2.0;
    size_t il = (size_t)floor(tail * (iters - 1) + 0.5), ih = (size_t)floor((1.0 - tail) * (iters - 1) + 0.5);
    *lo = d[il];
    *hi = d[ih];
    free(d);
    free(tmp);
    return 0;
}

int abstat_compare(const double *a, size_t na, const double *b, size_t nb, struct abstat_result *r)
{
    memset(r, 0, sizeof *r);
    r->na = na;
    r->nb = nb;
    if (na == 0 || nb == 0)
        return -1;
    r->median_a = abstat_median(a, na);
    r->median_b = abstat_median(b, nb);
    r->diff = r->median_b - r->median_a;
    if (abstat_bootstrap_diff(a, na, b, nb, ABSTAT_BOOT_ITERS, 0x5e55a4ab, 0.95, &r->ci_lo, &r->ci_hi) != 0)
        return -1;
    r->p = abstat_mann_whitney(a, na, b, nb, &r->u);
    r->significant = r->p < 0.05 && (r->ci_lo > 0 || r->ci_hi < 0);
    return 0;
}

static void fmt_p(double p, char *buf, size_t len)
{
    if (p < 0.001)
        snprintf(buf, len, "p < 0.001");
    else
        snprintf(buf, len, "p = %.3f", p);
}

void abstat_verdict(const struct abstat_result *r, char *buf, size_t len)
{
    char p[32];
    fmt_p(r->p, p, sizeof p);
    if (!r->significant) {
        snprintf(buf, len, "no significant difference (%s)", p);
        return;
    }
    double lo = fabs(r->diff > 0 ? r->ci_lo : r->ci_hi), hi = fabs(r->diff > 0 ? r->ci_hi : r->ci_lo);
    snprintf(buf, len, "B %s by %.3g s, 95 %% CI %.3g-%.3g s, %s", r->diff > 0 ? "slower" : "faster",
             fabs(r->diff), lo, hi, p);
}

/* summary_percentile.c -- nearest-rank percentiles of sorted values (see summary_percentile.h). */
#include "controller/score/summary_percentile.h"

#include <math.h>

size_t summary_percentile_at(size_t n, double p)
{
    double rank = ceil(p / 100.0 * (double)n - 1e-9);
    size_t k = rank < 1 ? 0 : (size_t)rank - 1;
    return k < n ? k : n - 1;
}

double summary_percentile(const double *sorted, size_t n, double p)
{
    return n ? sorted[summary_percentile_at(n, p)] : NAN;
}

/* trend.h -- the nightly regression judgement, shared by `sessmax trend` and the dashboard: each
 * run of a cell (the runs sharing transport, platform, network and client) is compared with the
 * trailing median of the previous N runs of that cell that have the figure.
 *
 *   smax      regressed when the run reached smax and it is below median x (1 - tolerance);
 *             improved when above median x (1 + tolerance). A run that never reached smax counts
 *             with its lower bound (the highest active count: "> N"): it can improve on the
 *             median or stay within it, but a lower bound below the median proves nothing
 *             ("unknown"), and a series of such runs gives the median a later run must reach.
 *   baseline  regressed when above median x (1 + tolerance) (slower), improved when below
 *             median x (1 - tolerance).
 *   a run     regressed when either figure regressed; else improved when either improved.
 *
 * Fewer than min(TREND_MIN_HISTORY, N) earlier runs with the figure: "short" (not judged). A run
 * without a score (NaN) is "unknown" and is left out of later medians. Pure. */
#ifndef SESSMAX_TREND_H
#define SESSMAX_TREND_H

#include <stddef.h>
#include <stdint.h>

#include "controller/score/summary.h"

#define TREND_MIN_HISTORY 3
#define TREND_CELL_LEN 400

struct trend_point {
    int64_t run;
    uint64_t started_us;
    double smax;          /* reached: smax; not reached: the highest active count; NaN: no score */
    int reached;
    double baseline_ms;   /* NaN: none */
};

enum trend_mark { TREND_SHORT, TREND_WITHIN, TREND_REGRESSED, TREND_IMPROVED, TREND_UNKNOWN };

struct trend_judgement {
    enum trend_mark smax, baseline, overall;
    size_t smax_history, baseline_history;        /* earlier runs behind each median */
    double smax_median, smax_delta_pct;           /* NaN when not judged */
    double baseline_median, baseline_delta_pct;
};

/* Judges point i of a cell's series p[0..i] (oldest first) against the previous `last` points
 * with the figure. tolerance is a fraction (0.1 = 10 %). */
void trend_judge(const struct trend_point *p, size_t i, size_t last, double tolerance, struct trend_judgement *out);

/* "10%" or "10" (percent) into 0.10; -1 unless 0 <= value < 100. */
int trend_parse_tolerance(const char *text, double *fraction);

/* The point of a scored run. */
void trend_point_of(const struct summary *s, struct trend_point *p);

/* The cell of a run: "transport / platform / network / client". */
void trend_cell_of(const struct store_run *r, char *buf, size_t len);

/* "short", "within", "REGRESSION", "improved", "unknown". */
const char *trend_mark_name(enum trend_mark m);

/* Median of v[0..n) (sorts v in place); NaN when n == 0. */
double trend_median(double *v, size_t n);

#endif

/* matrix_table.h -- the table a matrix prints, of the kind published for transport comparisons:
 * one row per platform (and per value of every other varied key but one), one column per value
 * of the first varied key that is not `platform`, and in each cell smax (mean, and min-max over
 * repeats), baseline and kbit/s per session of that cell's completed runs.
 *
 *   platform    lan                          wan-100ms
 *   ws2022      79.3 (78-81) / 812 ms / 96.1 76 (75-77) / 1020 ms / 110.4
 *
 * Text and Markdown print that grid; CSV and JSON (libjansson) print one record per cell with
 * every figure in its own field. Pure over summaries; the runs carry their cell tag. */
#ifndef SESSMAX_MATRIX_TABLE_H
#define SESSMAX_MATRIX_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "controller/run/matrix_spec.h"
#include "controller/score/summary.h"

enum matrix_format { MATRIX_TEXT, MATRIX_CSV, MATRIX_JSON, MATRIX_MARKDOWN };

/* "text" | "csv" | "json" | "markdown" (or "md"); -1 when unknown. */
int matrix_format_parse(const char *text);

/* The figures of one cell. smax over the runs that reached it; the others as "> N". */
struct matrix_stat {
    size_t runs, reached, not_reached;
    size_t unscored;                        /* runs without a score: failed, or too few samples */
    double smax_mean, smax_min, smax_max;   /* NaN when no run reached smax */
    double open_min;                        /* not reached: the lowest "smax >= N-1"; NaN when none */
    double baseline_ms, kbps;               /* means over the runs; NaN when none */
    char bound[64];                         /* the resource at the knee (resources.h): "CPU",
                                               "CPU/memory", "none"; "" when not measured */
};

/* 1 when a run of this status is a figure of its cell: completed, or failed (a night whose
 * every logon was refused shows as "n/a (no score ...)"); an aborted run is redone by --resume. */
int matrix_table_counts(const char *status);

/* Figures of the runs listed by index in `members`. */
void matrix_stat_compute(const struct summary *runs, const size_t *members, size_t n, struct matrix_stat *out);

/* "79.3 (78-81) / 812 ms / 96.1 kbit/s" (and " / CPU-bound" or " / none ran out" when the runs
 * measured the target's resources), "> 40 / ...", "n/a (no score in 2 runs) / ..." when no
 * run of the cell has a score, "-" when the cell has no run. */
void matrix_stat_text(const struct matrix_stat *st, char *buf, size_t len);

/* Writes the table of `runs` (completed runs of the matrix; others are ignored). Runs whose cell
 * tag names no cell of `s` are ignored. `platform` labels the rows when the matrix does not vary
 * the platform. Returns 0, or -1 on allocation or write failure. */
int matrix_table_write(const struct matrix_spec *s, const char *platform, const struct summary *runs, size_t n,
                       enum matrix_format fmt, FILE *out);

#endif

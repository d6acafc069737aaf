/* svg.h -- small inline-SVG line/scatter charts for the HTML report and dashboard: linear axes
 * with "nice" ticks, polylines (NaN breaks a line), dots, reference lines and a legend. The
 * output is plain SVG text written to a stream; every series carries data-series and data-n
 * attributes so tests can count the points drawn. */
#ifndef SESSMAX_SVG_H
#define SESSMAX_SVG_H

#include <stddef.h>
#include <stdio.h>

struct svg_chart {
    FILE *o;
    int w, h;                       /* pixels */
    int ml, mr, mt, mb;             /* margins */
    double x0, x1, y0, y1;          /* data ranges */
    int legend;                     /* x offset of the next legend entry */
    int x_days;                     /* x is days since the epoch (UTC): ticks on whole days, "MM-DD" */
};

/* Starts a chart: computes nice ranges from the given data bounds (y0 is kept when 0), draws
 * the frame, grid, ticks, axis labels and the title. */
void svg_begin(struct svg_chart *c, FILE *o, int w, int h, double x0, double x1, double y0, double y1,
               const char *title, const char *xlabel, const char *ylabel);
/* The same with x in days since the epoch (UTC, fractional): ticks fall on whole days and read
 * "MM-DD"; an empty or one-day range is widened to one day. */
void svg_begin_days(struct svg_chart *c, FILE *o, int w, int h, double x0, double x1, double y0, double y1,
                    const char *title, const char *xlabel, const char *ylabel);
void svg_end(struct svg_chart *c);

/* A polyline through (x[i], y[i]); points with a NaN coordinate break the line. At most
 * `max_points` points are drawn (evenly decimated, first and last kept); 0 = all. */
void svg_line(struct svg_chart *c, const double *x, const double *y, size_t n, size_t max_points,
              const char *series, const char *color, const char *legend);
/* One circle per finite point (at most max_points, decimated as above). */
void svg_dots(struct svg_chart *c, const double *x, const double *y, size_t n, size_t max_points,
              const char *series, const char *color, const char *legend);
/* A ring (hollow circle, larger than a dot) around each finite point: marks, not data. */
void svg_rings(struct svg_chart *c, const double *x, const double *y, size_t n, const char *series,
               const char *color, const char *legend);
/* Horizontal / vertical reference lines with a label. */
void svg_hline(struct svg_chart *c, double y, const char *series, const char *color, const char *label);
void svg_vline(struct svg_chart *c, double x, const char *series, const char *color, const char *label);

/* Writes text for HTML or SVG content and attribute values: &, <, >, " and ' escaped, control
 * characters (other than tab and newline) written as '?'. Every text that comes from a run
 * (names, labels, reasons) goes through here; series and color arguments are the code's own. */
void svg_escape(FILE *o, const char *s);

/* Min and max of the finite values of v (NaN, NaN when none). */
void svg_range(const double *v, size_t n, double *lo, double *hi);

#endif

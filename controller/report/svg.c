/* svg.c -- inline SVG charts: axes with nice ticks, lines, dots, reference lines, legend. */
#include "controller/report/svg.h"

#include <math.h>
#include <string.h>

#include "common/clock.h"

void svg_escape(FILE *o, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", o); break;
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '"': fputs("&quot;", o); break;
        case '\'': fputs("&#39;", o); break;
        default:
            /* control characters have no place in a page: a visible '?' instead */
            fputc((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' ? '?' : *s == 0x7f ? '?' : *s, o);
        }
    }
}

void svg_range(const double *v, size_t n, double *lo, double *hi)
{
    *lo = *hi = NAN;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i]))
            continue;
        if (isnan(*lo) || v[i] < *lo)
            *lo = v[i];
        if (isnan(*hi) || v[i] > *hi)
            *hi = v[i];
    }
}

static double nice_step(double span, int ticks)
{
    double raw = span / ticks, mag = pow(10, floor(log10(raw))), f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static void nice_range(double *lo, double *hi)
{
    if (!isfinite(*lo) || !isfinite(*hi)) {
        *lo = 0;
        *hi = 1;
    }
    if (*hi <= *lo)
        *hi = *lo + (*lo ? fabs(*lo) * 0.1 : 1);
    double step = nice_step(*hi - *lo, 5);
    *lo = floor(*lo / step) * step;
    *hi = ceil(*hi / step) * step;
}

static double px(const struct svg_chart *c, double x)
{
    return c->ml + (x - c->x0) / (c->x1 - c->x0) * (c->w - c->ml - c->mr);
}

static double py(const struct svg_chart *c, double y)
{
    return c->h - c->mb - (y - c->y0) / (c->y1 - c->y0) * (c->h - c->mt - c->mb);
}

static void fmt_tick(char *buf, size_t len, double v, double step)
{
    if (fabs(v) >= 10000 && step >= 1000)
        snprintf(buf, len, "%gk", v / 1000);
    else
        snprintf(buf, len, "%g", fabs(v) < step * 1e-6 ? 0.0 : v);
}

/* An x tick: a number, or a date "MM-DD" when x is in days. */
static void fmt_xtick(const struct svg_chart *c, char *buf, size_t len, double v, double step)
{
    if (!c->x_days)
        fmt_tick(buf, len, v, step);
    else if (v < 0 || !clock_format_utc((uint64_t)llround(v * 86400.0) * 1000000u, "%m-%d", buf, len))
        snprintf(buf, len, "?");
}

static void axes(struct svg_chart *c)
{
    FILE *o = c->o;
    double sx = nice_step(c->x1 - c->x0, 6), sy = nice_step(c->y1 - c->y0, 5);
    if (c->x_days)
        sx = ceil(sx);   /* whole days */
    char buf[32];
    fprintf(o, "<g class=\"axes\" font-size=\"11\" fill=\"#444\">\n");
    for (double y = c->y0; y <= c->y1 + sy * 1e-9; y += sy) {
        fmt_tick(buf, sizeof buf, y, sy);
        fprintf(o, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>"
                   "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                c->ml, c->w - c->mr, py(c, y), py(c, y), c->ml - 4, py(c, y) + 4, buf);
    }
    for (double x = c->x0; x <= c->x1 + sx * 1e-9; x += sx) {
        fmt_xtick(c, buf, sizeof buf, x, sx);
        fprintf(o, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#f0f0f0\"/>"
                   "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                px(c, x), px(c, x), c->mt, c->h - c->mb, px(c, x), c->h - c->mb + 14, buf);
    }
    fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n</g>\n",
            c->ml, c->mt, c->w - c->ml - c->mr, c->h - c->mt - c->mb);
}

static void begin(struct svg_chart *c, FILE *o, int w, int h, double x0, double x1, double y0, double y1,
                  const char *title, const char *xlabel, const char *ylabel, int days)
{
    memset(c, 0, sizeof *c);
    c->o = o;
    c->w = w;
    c->h = h;
    c->ml = 56;
    c->mr = 16;
    c->mt = 44;
    c->mb = 40;
    c->x_days = days;
    if (days && isfinite(x0) && isfinite(x1)) {
        x0 = floor(x0);
        x1 = ceil(x1) > x0 ? ceil(x1) : x0 + 1;
        /* whole-day ticks need a range that is a multiple of the step */
        double step = ceil(nice_step(x1 - x0, 6));
        x1 = x0 + ceil((x1 - x0) / step) * step;
    } else {
        nice_range(&x0, &x1);
    }
    nice_range(&y0, &y1);
    c->x0 = x0; c->x1 = x1; c->y0 = y0; c->y1 = y1;
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", w, h, w, h);
    svg_escape(o, title);
    fprintf(o, "\">\n<text x=\"%d\" y=\"16\" font-size=\"13\" font-weight=\"bold\">", c->ml);
    svg_escape(o, title);
    fprintf(o, "</text>\n");
    axes(c);
    fprintf(o, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">", (w + c->ml) / 2, h - 6);
    svg_escape(o, xlabel);
    fprintf(o, "</text>\n<text transform=\"translate(12 %d) rotate(-90)\" font-size=\"11\" "
               "text-anchor=\"middle\">", (h - c->mb + c->mt) / 2);
    svg_escape(o, ylabel);
    fprintf(o, "</text>\n");
}

void svg_begin(struct svg_chart *c, FILE *o, int w, int h, double x0, double x1, double y0, double y1,
               const char *title, const char *xlabel, const char *ylabel)
{
    begin(c, o, w, h, x0, x1, y0, y1, title, xlabel, ylabel, 0);
}

void svg_begin_days(struct svg_chart *c, FILE *o, int w, int h, double x0, double x1, double y0, double y1,
                    const char *title, const char *xlabel, const char *ylabel)
{
    begin(c, o, w, h, x0, x1, y0, y1, title, xlabel, ylabel, 1);
}

void svg_end(struct svg_chart *c)
{
    fprintf(c->o, "</svg>\n");
}

static void legend(struct svg_chart *c, const char *color, const char *text)
{
    if (!text)
        return;
    /* one row under the title, entries left to right */
    int x = c->ml + c->legend, y = c->mt - 8;
    c->legend += 24 + (int)(6.2 * (double)strlen(text));
    fprintf(c->o, "<g class=\"legend\"><rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                  "<text x=\"%d\" y=\"%d\" font-size=\"11\">", x, y - 9, color, x + 14, y);
    svg_escape(c->o, text);
    fprintf(c->o, "</text></g>\n");
}

/* Indices to draw: all, or max evenly spaced with the first and last kept. */
static size_t pick(size_t i, size_t n, size_t max)
{
    if (!max || n <= max)
        return i;
    return (size_t)((double)i * (double)(n - 1) / (double)(max - 1) + 0.5);
}

static size_t drawn(size_t n, size_t max)
{
    return !max || n <= max ? n : max;
}

void svg_line(struct svg_chart *c, const double *x, const double *y, size_t n, size_t max_points,
              const char *series, const char *color, const char *label)
{
    size_t m = drawn(n, max_points), pts = 0;
    for (size_t k = 0; k < m; k++)
        pts += isfinite(x[pick(k, n, max_points)]) && isfinite(y[pick(k, n, max_points)]);
    fprintf(c->o, "<polyline data-series=\"%s\" data-n=\"%zu\" fill=\"none\" stroke=\"%s\" "
                  "stroke-width=\"1.5\" points=\"", series, pts, color);
    int open = 0;
    for (size_t k = 0; k < m; k++) {
        size_t i = pick(k, n, max_points);
        if (!isfinite(x[i]) || !isfinite(y[i])) {
            if (open)   /* break the line: close this polyline, open another */
                fprintf(c->o, "\"/>\n<polyline data-series=\"%s-cont\" fill=\"none\" stroke=\"%s\" "
                              "stroke-width=\"1.5\" points=\"", series, color);
            open = 0;
            continue;
        }
        fprintf(c->o, "%s%.1f,%.1f", open ? " " : "", px(c, x[i]), py(c, y[i]));
        open = 1;
    }
    fprintf(c->o, "\"/>\n");
    legend(c, color, label);
}

void svg_dots(struct svg_chart *c, const double *x, const double *y, size_t n, size_t max_points,
              const char *series, const char *color, const char *label)
{
    size_t m = drawn(n, max_points), pts = 0;
    for (size_t k = 0; k < m; k++)
        pts += isfinite(x[pick(k, n, max_points)]) && isfinite(y[pick(k, n, max_points)]);
    fprintf(c->o, "<g data-series=\"%s\" data-n=\"%zu\" fill=\"%s\">\n", series, pts, color);
    for (size_t k = 0; k < m; k++) {
        size_t i = pick(k, n, max_points);
        if (isfinite(x[i]) && isfinite(y[i]))
            fprintf(c->o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\"/>", px(c, x[i]), py(c, y[i]));
    }
    fprintf(c->o, "\n</g>\n");
    legend(c, color, label);
}

void svg_rings(struct svg_chart *c, const double *x, const double *y, size_t n, const char *series,
               const char *color, const char *label)
{
    size_t pts = 0;
    for (size_t i = 0; i < n; i++)
        pts += isfinite(x[i]) && isfinite(y[i]);
    fprintf(c->o, "<g data-series=\"%s\" data-n=\"%zu\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\">\n", series,
            pts, color);
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]) && isfinite(y[i]))
            fprintf(c->o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\"/>", px(c, x[i]), py(c, y[i]));
    fprintf(c->o, "\n</g>\n");
    legend(c, color, label);
}

void svg_hline(struct svg_chart *c, double y, const char *series, const char *color, const char *label)
{
    if (!isfinite(y) || y < c->y0 || y > c->y1)
        return;
    fprintf(c->o, "<line data-series=\"%s\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                  "stroke-dasharray=\"6 3\" stroke-width=\"1.5\"/>\n<text x=\"%d\" y=\"%.1f\" font-size=\"11\" fill=\"%s\">",
            series, c->ml, c->w - c->mr, py(c, y), py(c, y), color, c->ml + 4, py(c, y) - 4, color);
    svg_escape(c->o, label);
    fprintf(c->o, "</text>\n");
}

void svg_vline(struct svg_chart *c, double x, const char *series, const char *color, const char *label)
{
    if (!isfinite(x) || x < c->x0 || x > c->x1)
        return;
    fprintf(c->o, "<line data-series=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" "
                  "stroke-width=\"2\"/>\n<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"%s\">",
            series, px(c, x), px(c, x), c->mt, c->h - c->mb, color, px(c, x) + 4, c->mt + 12, color);
    svg_escape(c->o, label);
    fprintf(c->o, "</text>\n");
}

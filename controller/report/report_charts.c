/* report_charts.c -- response time and index vs active sessions, per-timer percentiles, logon
 * times over the ramp, bandwidth per session and agent health, as inline SVG. */
#include "controller/report/report_charts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "controller/report/svg.h"

#define W 860
#define H 320

struct rt_point { uint32_t active; double value_ms; };

static int by_active(const void *a, const void *b)
{
    const struct rt_point *x = a, *y = b;
    return x->active < y->active ? -1 : x->active > y->active;
}

/* Min, avg and max response time per active count that has samples: at most one entry per
 * point, so the memory follows the samples, never the (stored, possibly tampered) active value. */
static size_t rt_by_active(const struct summary *s, struct rt_point *tmp, double *ax, double *mn, double *av,
                           double *mx)
{
    size_t n = s->point_count, m = 0;
    for (size_t i = 0; i < n; i++)
        tmp[i] = (struct rt_point){ s->points[i].active, s->points[i].value_ms };
    qsort(tmp, n, sizeof *tmp, by_active);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        double lo = tmp[i].value_ms, hi = lo, sum = 0;
        for (; j < n && tmp[j].active == tmp[i].active; j++) {
            lo = tmp[j].value_ms < lo ? tmp[j].value_ms : lo;
            hi = tmp[j].value_ms > hi ? tmp[j].value_ms : hi;
            sum += tmp[j].value_ms;
        }
        ax[m] = tmp[i].active;
        mn[m] = lo;
        mx[m] = hi;
        av[m++] = sum / (double)(j - i);
        i = j;
    }
    return m;
}

void report_chart_response(FILE *o, const struct summary *s)
{
    const struct score_result *r = &s->score;
    size_t n = s->point_count, sz = (n ? n : 1);
    double *ax = malloc(sz * sizeof *ax), *mn = malloc(sz * sizeof *mn), *av = malloc(sz * sizeof *av),
           *mx = malloc(sz * sizeof *mx);
    double *px = malloc(sz * sizeof *px), *pi = malloc(sz * sizeof *pi);
    struct rt_point *tmp = malloc(sz * sizeof *tmp);
    if (!ax || !mn || !av || !mx || !tmp || !px || !pi)
        goto done;
    /* the x axis ends at the run's sessions: how far the ramp was meant to go is part of the picture */
    double ylo = 0, yhi = r->threshold_ms,
           xhi = r->max_active > s->run.sessions_planned ? r->max_active : s->run.sessions_planned;
    for (size_t i = 0; i < n; i++) {
        const struct summary_point *p = &s->points[i];
        px[i] = p->active;
        pi[i] = p->index_ms;
        yhi = isnan(yhi) || p->value_ms > yhi ? p->value_ms : yhi;
        xhi = p->active > xhi ? p->active : xhi;
    }
    size_t m = rt_by_active(s, tmp, ax, mn, av, mx);
    struct svg_chart c;
    svg_begin(&c, o, W, H, 0, xhi, ylo, yhi, "Response time and index vs active sessions",
              "active sessions", "ms");
    svg_line(&c, ax, mx, m, REPORT_MAX_POINTS, "rt-max", "#f4a582", "response time max");
    svg_line(&c, ax, av, m, REPORT_MAX_POINTS, "rt-avg", "#92c5de", "response time avg");
    svg_line(&c, ax, mn, m, REPORT_MAX_POINTS, "rt-min", "#a6d96a", "response time min");
    svg_line(&c, px, pi, n, REPORT_MAX_POINTS, "index", "#2166ac", "index (trimmed moving mean)");
    char label[96];
    snprintf(label, sizeof label, "threshold %.0f ms", r->threshold_ms);
    svg_hline(&c, r->threshold_ms, "threshold", "#b2182b", label);
    snprintf(label, sizeof label, "baseline %.0f ms", r->baseline_ms);
    svg_hline(&c, r->baseline_ms, "baseline", "#666", label);
    if (r->reached) {
        snprintf(label, sizeof label, "smax %d", r->smax);
        svg_vline(&c, r->smax, "smax", "#b2182b", label);
    }
    svg_end(&c);
done:
    free(ax); free(mn); free(av); free(mx); free(tmp); free(px); free(pi);
}

/* Horizontal bars: p50, p95, p99 per timer. */
void report_chart_timers(FILE *o, const struct summary *s)
{
    double hi = 0;
    for (size_t i = 0; i < s->timer_count; i++)
        if (isfinite(s->timers[i].p99_ms) && s->timers[i].p99_ms > hi)
            hi = s->timers[i].p99_ms;
    hi = hi > 0 ? hi : 1;
    int row = 3 * 12 + 10, left = 170, width = W - left - 80, h = 40 + row * (int)s->timer_count;
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"Timer percentiles\">\n"
               "<text x=\"10\" y=\"16\" font-size=\"13\" font-weight=\"bold\">Timer percentiles (ms)</text>\n",
            W, h, W, h);
    static const char *const colors[] = { "#92c5de", "#4393c3", "#2166ac" }, *const names[] = { "p50", "p95", "p99" };
    fprintf(o, "<g data-series=\"timers-legend\" font-size=\"11\">");
    for (int k = 0; k < 3; k++)
        fprintf(o, "<rect x=\"%d\" y=\"7\" width=\"12\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"16\">%s</text>",
                left + 120 + 60 * k, colors[k], left + 136 + 60 * k, names[k]);
    fprintf(o, "</g>\n<g data-series=\"timers\" data-n=\"%zu\" font-size=\"11\">\n", s->timer_count);
    for (size_t i = 0; i < s->timer_count; i++) {
        const struct summary_timer *t = &s->timers[i];
        double v[3] = { t->p50_ms, t->p95_ms, t->p99_ms };
        int y = 30 + row * (int)i;
        fprintf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", left - 8, y + 20);
        svg_escape(o, t->name);
        fprintf(o, "%s</text>\n", t->is_measure ? " (measure)" : "");
        for (int k = 0; k < 3; k++) {
            double wv = isfinite(v[k]) ? v[k] / hi * width : 0;
            fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"10\" fill=\"%s\"/>"
                       "<text x=\"%.1f\" y=\"%d\">%.0f</text>\n", left, y + 12 * k + 2, wv, colors[k],
                    left + wv + 4, y + 12 * k + 11, isfinite(v[k]) ? v[k] : 0.0);
        }
    }
    fprintf(o, "</g>\n</svg>\n");
}

static uint64_t run_start(const struct summary *s)
{
    uint64_t t0 = s->run.started_us;
    if (!t0 && s->point_count)
        t0 = s->points[0].t_us;
    return t0;
}

static double minutes(uint64_t t, uint64_t t0)
{
    return t >= t0 ? (double)(t - t0) / 60e6 : -(double)(t0 - t) / 60e6;
}

void report_chart_logon(FILE *o, const struct summary *s)
{
    size_t n = s->logon_count;
    double *x = malloc((n ? n : 1) * sizeof *x), *y = malloc((n ? n : 1) * sizeof *y);
    if (!x || !y)
        goto done;
    uint64_t t0 = run_start(s);
    for (size_t i = 0; i < n; i++) {
        x[i] = minutes(s->logons[i].launch_us, t0);
        y[i] = s->logons[i].logon_ms;
    }
    double xl, xh, yl, yh;
    svg_range(x, n, &xl, &xh);
    svg_range(y, n, &yl, &yh);
    struct svg_chart c;
    svg_begin(&c, o, W, H, isnan(xl) ? 0 : xl, xh, 0, yh, "Logon time across the ramp",
              "launch time (minutes into the run)", "logon ms");
    svg_dots(&c, x, y, n, REPORT_MAX_POINTS, "logon", "#5e3c99", "logon time per session");
    svg_end(&c);
done:
    free(x);
    free(y);
}

static void bucket_chart(FILE *o, const struct summary *s, const char *title, const char *ylabel,
                         size_t nseries, const size_t *offsets, const char *const *series,
                         const char *const *colors, const char *const *labels)
{
    size_t n = s->bucket_count;
    double *x = malloc((n ? n : 1) * sizeof *x), *y = malloc((n ? n : 1) * nseries * sizeof *y);
    if (!x || !y)
        goto done;
    uint64_t t0 = run_start(s);
    for (size_t i = 0; i < n; i++) {
        x[i] = minutes(s->buckets[i].t_us, t0);
        for (size_t k = 0; k < nseries; k++)
            y[k * n + i] = *(const double *)(const void *)((const char *)&s->buckets[i] + offsets[k]);
    }
    double xl, xh, yl, yh;
    svg_range(x, n, &xl, &xh);
    svg_range(y, n * nseries, &yl, &yh);
    struct svg_chart c;
    svg_begin(&c, o, W, H * 3 / 4, isnan(xl) ? 0 : xl, xh, 0, yh, title, "minutes into the run", ylabel);
    for (size_t k = 0; k < nseries; k++)
        svg_line(&c, x, y + k * n, n, 0, series[k], colors[k], labels[k]);
    svg_end(&c);
done:
    free(x);
    free(y);
}

void report_chart_bandwidth(FILE *o, const struct summary *s)
{
    const size_t off[] = { offsetof(struct summary_bucket, kbps_per_session) };
    const char *const series[] = { "kbps" }, *const colors[] = { "#1b7837" },
                      *const labels[] = { "payload kbit/s per session" };
    bucket_chart(o, s, "Bandwidth per session over time", "kbit/s", 1, off, series, colors, labels);
}

void report_chart_health(FILE *o, const struct summary *s)
{
    const size_t off1[] = { offsetof(struct summary_bucket, lag_p99_ms) };
    const size_t off2[] = { offsetof(struct summary_bucket, cpu_pct) };
    const char *const s1[] = { "lag" }, *const c1[] = { "#d6604d" }, *const l1[] = { "loop lag p99 (worst agent)" };
    const char *const s2[] = { "cpu" }, *const c2[] = { "#4d4d4d" }, *const l2[] = { "agent CPU % (worst agent)" };
    bucket_chart(o, s, "Agent loop lag", "ms", 1, off1, s1, c1, l1);
    bucket_chart(o, s, "Agent CPU", "% of one core", 1, off2, s2, c2, l2);
}

/* Active sessions over time (the last count each bucket's samples saw, held over the buckets
 * without a sample, as a step) and the planned sessions as a reference line. */
void report_chart_sessions(FILE *o, const struct summary *s)
{
    size_t n = s->bucket_count;
    double *x = malloc((n ? n : 1) * sizeof *x), *y = malloc((n ? n : 1) * sizeof *y);
    if (!x || !y)
        goto done;
    uint64_t t0 = run_start(s);
    double held = NAN;
    for (size_t i = 0; i < n; i++) {
        x[i] = minutes(s->buckets[i].t_us, t0);
        held = isnan(s->buckets[i].rt_min_ms) ? held : s->buckets[i].active;
        y[i] = held;
    }
    double xl, xh, yl, yh;
    svg_range(x, n, &xl, &xh);
    svg_range(y, n, &yl, &yh);
    double top = isnan(yh) || yh < s->run.sessions_planned ? s->run.sessions_planned : yh;
    struct svg_chart c;
    svg_begin(&c, o, W, H * 3 / 4, isnan(xl) ? 0 : xl, isnan(xh) ? 1 : xh, 0, top > 0 ? top : 1,
              "Active sessions over time", "minutes into the run", "sessions");
    svg_line(&c, x, y, n, 0, "active", "#2166ac", "active sessions");
    char label[64];
    snprintf(label, sizeof label, "planned %u", s->run.sessions_planned);
    svg_hline(&c, s->run.sessions_planned, "planned", "#666", label);
    svg_end(&c);
done:
    free(x);
    free(y);
}

void report_chart_target(FILE *o, const struct summary *s)
{
    if (!s->target_samples)
        return;
    const size_t off[] = { offsetof(struct summary_bucket, target_cpu_pct) };
    const char *const series[] = { "target-cpu" }, *const colors[] = { "#762a83" },
                      *const labels[] = { "target CPU % of its CPUs (highest in each interval)" };
    bucket_chart(o, s, "Target CPU over time", "% of its CPUs", 1, off, series, colors, labels);
}

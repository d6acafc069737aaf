/* report_resources.c -- the report's "Target resources" section: the line naming the resource at
 * the knee, and per source two charts drawn with svg.h: each resource's % against active
 * sessions (dots) and over the run's time (lines), the knee marked on both. */
#include "controller/report/report_resources.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "controller/report/report_charts.h"
#include "controller/report/svg.h"

#define W 860
#define H 300

static const char *const series_active[RESOURCE__COUNT] = { "res-cpu-active", "res-mem-active", "res-disk-active",
                                                           "res-net-active" };
static const char *const series_time[RESOURCE__COUNT] = { "res-cpu-time", "res-mem-time", "res-disk-time",
                                                         "res-net-time" };
static const char *const colors[RESOURCE__COUNT] = { "#b2182b", "#2166ac", "#762a83", "#1b7837" };
static const char *const legends[RESOURCE__COUNT] = { "CPU % busy", "memory % used", "disk % busy (busiest)",
                                                     "network % of link (busiest)" };

/* The rows of `source` into x (active sessions or minutes) and y[k] (each resource's %). */
static size_t columns(const struct summary *s, const char *source, int by_time, double *x, double *y[RESOURCE__COUNT])
{
    size_t n = 0;
    for (size_t i = 0; i < s->res.count; i++) {
        const struct store_target_metrics *m = &s->res.rows[i];
        if (strcmp(m->source, source) != 0)
            continue;
        x[n] = by_time ? (m->t_us > s->run.started_us ? (double)(m->t_us - s->run.started_us) / 60e6 : 0) : m->active;
        for (int k = 0; k < RESOURCE__COUNT; k++)
            y[k][n] = resources_pct(m, (enum resource)k);
        n++;
    }
    return n;
}

static void chart(FILE *o, const struct summary *s, const struct resources_source *src, int by_time, double *x,
                  double *y[RESOURCE__COUNT])
{
    size_t n = columns(s, src->source, by_time, x, y);
    double lo, hi;
    svg_range(x, n, &lo, &hi);
    if (!isfinite(hi))
        return;
    char title[192];
    snprintf(title, sizeof title, "%s: resources %s", src->source, by_time ? "over time" : "against active sessions");
    struct svg_chart c;
    svg_begin(&c, o, W, H, 0, hi > 0 ? hi : 1, 0, 100, title,
              by_time ? "minutes since the start" : "active sessions", "%");
    for (int k = 0; k < RESOURCE__COUNT; k++) {
        if (!isfinite(src->max[k]))
            continue;
        if (by_time)
            svg_line(&c, x, y[k], n, REPORT_MAX_POINTS, series_time[k], colors[k], legends[k]);
        else
            svg_dots(&c, x, y[k], n, REPORT_MAX_POINTS, series_active[k], colors[k], legends[k]);
    }
    if (s->res.at_knee) {
        char label[64];
        snprintf(label, sizeof label, "knee (%u active)", s->res.active);
        double at = by_time ? (s->res.t_us > s->run.started_us ? (double)(s->res.t_us - s->run.started_us) / 60e6 : 0)
                            : s->res.active;
        svg_vline(&c, at, "res-knee", "#444", label);
    }
    svg_end(&c);
}

void report_resources(FILE *o, const struct summary *s)
{
    if (!s->res.nsrc)
        return;
    fprintf(o, "<h2>Target resources</h2>\n<ul class=\"resources\" id=\"resources\">\n");
    for (size_t i = 0; i < s->res.nsrc; i++) {
        char line[512];
        resources_line(&s->res, i, line, sizeof line);
        fprintf(o, "<li>");
        svg_escape(o, line);
        fprintf(o, "</li>\n");
    }
    fprintf(o, "</ul>\n<p>Scraped by the controller from the target's exporters (the plan's "
               "<code>target.metrics</code>); a resource ran out when it stood at or above its limit (CPU %.0f %%, "
               "memory %.0f %%, disk %.0f %% busy, network %.0f %% of the link) over the %.0f s before the knee.</p>\n",
            RESOURCES_LIMIT_CPU, RESOURCES_LIMIT_MEMORY, RESOURCES_LIMIT_DISK, RESOURCES_LIMIT_NETWORK,
            RESOURCES_WINDOW_US / 1e6);
    size_t n = s->res.count ? s->res.count : 1;
    double *x = malloc(n * sizeof *x), *y[RESOURCE__COUNT];
    int ok = x != NULL;
    for (int k = 0; k < RESOURCE__COUNT; k++)
        ok &= (y[k] = malloc(n * sizeof *y[k])) != NULL;
    for (size_t i = 0; ok && i < s->res.nsrc; i++) {
        chart(o, s, &s->res.src[i], 0, x, y);
        chart(o, s, &s->res.src[i], 1, x, y);
    }
    free(x);
    for (int k = 0; k < RESOURCE__COUNT; k++)
        free(y[k]);
}

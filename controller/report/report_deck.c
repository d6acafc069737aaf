/* report_deck.c -- the report's one-line summary and the overlay of several runs (report_deck.h). */
#include "controller/report/report_deck.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "controller/report/report_html.h"
#include "controller/report/svg.h"

#define W 860
#define H 360

static const char *const overlay_colors[REPORT_OVERLAY_MAX] = { "#2166ac", "#b2182b", "#1b7837", "#762a83",
                                                                "#e08214" };

void report_deck_line(const struct summary *s, const struct verdict *v, char *buf, size_t len)
{
    const struct score_result *r = &s->score;
    char smax[96], on[192], knee[128] = "";
    verdict_format_smax(s, smax, sizeof smax);
    if (s->target_samples)
        snprintf(on, sizeof on, "on %u CPU%s (%s)", s->target_cpus, s->target_cpus == 1 ? "" : "s", s->run.platform);
    else
        snprintf(on, sizeof on, "on %s", s->run.platform);
    if (r->reached)
        snprintf(knee, sizeof knee, ", knee at %u active sessions (index %.0f ms)", r->cross_active,
                 r->cross_index_ms);
    if (r->status == SCORE_OK)
        snprintf(buf, len, "smax %s %s, verdict %s, baseline %.0f ms, threshold %.0f ms%s; %u of %u sessions "
                 "launched, %u failed", smax, on, verdict_name(v->kind), r->baseline_ms, r->threshold_ms, knee,
                 s->launched, s->run.sessions_planned, s->failed_sessions);
    else
        snprintf(buf, len, "no smax %s, verdict %s (%s); %u of %u sessions launched, %u failed", on,
                 verdict_name(v->kind), v->item_count ? v->items[0].reason : "no score", s->launched,
                 s->run.sessions_planned, s->failed_sessions);
}

static void overlay_chart(FILE *o, const struct summary *runs, size_t n)
{
    double xhi = 1, yhi = 1;
    size_t most = 1;
    for (size_t k = 0; k < n; k++) {
        const struct summary *s = &runs[k];
        xhi = fmax(xhi, fmax(s->run.sessions_planned, s->score.max_active));
        yhi = fmax(yhi, isfinite(s->score.threshold_ms) ? s->score.threshold_ms * 1.1 : 0);
        yhi = fmax(yhi, isfinite(s->score.max_index_ms) ? s->score.max_index_ms : 0);
        most = s->point_count > most ? s->point_count : most;
    }
    double *x = malloc(most * sizeof *x), *y = malloc(most * sizeof *y);
    if (!x || !y)
        goto done;
    struct svg_chart c;
    svg_begin(&c, o, W, H, 0, xhi, 0, yhi, "Index vs active sessions, runs overlaid", "active sessions", "ms");
    for (size_t k = 0; k < n; k++) {
        const struct summary *s = &runs[k];
        for (size_t i = 0; i < s->point_count; i++) {
            x[i] = s->points[i].active;
            y[i] = s->points[i].index_ms;
        }
        char series[32], label[192];
        snprintf(series, sizeof series, "index-%zu", k + 1);
        snprintf(label, sizeof label, "run %lld %s", (long long)s->run.id, s->run.name);
        svg_line(&c, x, y, s->point_count, 2000, series, overlay_colors[k], label);
        snprintf(series, sizeof series, "threshold-%zu", k + 1);
        snprintf(label, sizeof label, "threshold of run %lld", (long long)s->run.id);
        if (isfinite(s->score.threshold_ms))
            svg_hline(&c, s->score.threshold_ms, series, overlay_colors[k], label);
    }
    svg_end(&c);
done:
    free(x);
    free(y);
}

static void cell(FILE *o, const char *text)
{
    fprintf(o, "<td>");
    svg_escape(o, text);
    fprintf(o, "</td>");
}

static void number(FILE *o, const char *fmt, double v)
{
    if (isfinite(v))
        fprintf(o, fmt, v);
    else
        fprintf(o, "<td>&ndash;</td>");
}

static void overlay_table(FILE *o, const struct summary *runs, const struct verdict *v, size_t n)
{
    fprintf(o, "<table class=\"timers\" id=\"overlay\"><tr><th></th><th>run</th><th>name</th><th>platform</th>"
               "<th>transport</th><th>network</th><th>smax</th><th>baseline ms</th><th>threshold ms</th>"
               "<th>p95 ms (measure)</th><th>kbit/s per session</th><th>launched</th><th>failed</th>"
               "<th>verdict</th></tr>\n");
    for (size_t k = 0; k < n; k++) {
        const struct summary *s = &runs[k];
        char smax[96];
        verdict_format_smax(s, smax, sizeof smax);
        double p95 = NAN;
        for (size_t i = 0; i < s->timer_count; i++)
            if (!strcmp(s->timers[i].name, s->measure))
                p95 = s->timers[i].p95_ms;
        fprintf(o, "<tr><td><svg width=\"14\" height=\"10\"><rect width=\"14\" height=\"10\" fill=\"%s\"/></svg>"
                   "</td><td>%lld</td>", overlay_colors[k], (long long)s->run.id);
        cell(o, s->run.name);
        cell(o, s->run.platform);
        cell(o, s->run.transport);
        cell(o, s->run.network);
        cell(o, smax);
        number(o, "<td>%.0f</td>", s->score.baseline_ms);
        number(o, "<td>%.0f</td>", s->score.threshold_ms);
        number(o, "<td>%.0f</td>", p95);
        number(o, "<td>%.1f</td>", s->kbps_per_session);
        fprintf(o, "<td>%u</td><td>%u</td>", s->launched, s->failed_sessions);
        cell(o, verdict_name(v[k].kind));
        fprintf(o, "</tr>\n");
    }
    fprintf(o, "</table>\n");
}

int report_write_overlay(const struct summary *runs, const struct verdict *verdicts, size_t n, const char *path,
                         char *err, size_t errlen)
{
    if (n < 2 || n > REPORT_OVERLAY_MAX) {
        snprintf(err, errlen, "an overlay takes 2 to %d runs, not %zu", REPORT_OVERLAY_MAX, n);
        return -1;
    }
    FILE *o = report_html_open(path, "sessmax: runs compared", err, errlen);
    if (!o)
        return -1;
    fprintf(o, "<h1>%zu runs compared</h1>\n<ul class=\"deck\" id=\"deck\">\n", n);
    for (size_t k = 0; k < n; k++) {
        char line[768];
        report_deck_line(&runs[k], &verdicts[k], line, sizeof line);
        fprintf(o, "<li style=\"border-left:6px solid %s;padding-left:6px\"><b>run %lld</b> ", overlay_colors[k],
                (long long)runs[k].run.id);
        svg_escape(o, line);
        fprintf(o, "</li>\n");
    }
    fprintf(o, "</ul>\n<h2>Capacity</h2>\n");
    overlay_chart(o, runs, n);
    overlay_table(o, runs, verdicts, n);
    fprintf(o, "<p>Each line is a run's index (the trimmed moving mean of its scored measure) against the "
               "sessions active when each sample was taken; each dashed line its threshold. smax is the "
               "active count just before a run's index first rose above its own threshold (docs/scoring.md).</p>\n");
    return report_html_close(o, path, err, errlen);
}

/* dashboard.c -- the nightly view: DIR/index.html with smax and baseline over dates, one line per
 * cell (transport x platform x network x client), every run judged against its cell's trailing
 * median (score/trend.c, as `sessmax trend` does) and marked when it moved; one table per cell;
 * and DIR/run-<id>.html for every run. A run whose data cannot be read (a tampered score_params,
 * a corrupt sample) is skipped with its reason in its cell's table; the others are written. */
#include "controller/report/dashboard.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/clock.h"
#include "controller/report/report.h"
#include "controller/report/report_html.h"
#include "controller/report/svg.h"
#include "controller/score/summary.h"
#include "controller/score/summary_load.h"
#include "controller/score/trend.h"
#include "controller/score/verdict.h"
#include "db/store.h"

#define US_PER_DAY 86400000000.0

struct row {
    char cell[TREND_CELL_LEN], name[128], when[32], verdict[16], bad[256];   /* bad: why it was skipped */
    size_t group;                 /* index of the cell in first-seen order */
    struct trend_point p;
    struct trend_judgement j;
};

/* Scores one run, writes its report, and fills its row (judged later, with its cell). A run
 * whose data cannot be read gets a row saying why (bad) and no page. Returns 0, or -1 when the
 * page cannot be written (err). */
static int one_run(struct store *st, const struct store_run *r, const char *dir, struct row *t, char *err,
                   size_t errlen)
{
    struct summary s;
    struct verdict v;
    char path[4096];
    memset(t, 0, sizeof *t);
    trend_cell_of(r, t->cell, sizeof t->cell);
    snprintf(t->name, sizeof t->name, "%s", r->name);
    clock_format_utc(r->started_us, "%Y-%m-%d %H:%M", t->when, sizeof t->when);
    t->p = (struct trend_point){ .run = r->id, .started_us = r->started_us, .smax = NAN, .baseline_ms = NAN };
    snprintf(t->verdict, sizeof t->verdict, "error");
    snprintf(t->bad, sizeof t->bad, "its data cannot be read");
    if (summary_load(st, r->id, NULL, &s, t->bad, sizeof t->bad) < 0)
        return 0;
    if (verdict_evaluate(&s, &v, t->bad, sizeof t->bad) < 0) {
        summary_free(&s);
        return 0;
    }
    t->bad[0] = 0;
    snprintf(path, sizeof path, "%s/run-%lld.html", dir, (long long)r->id);
    int rc = report_write_summary(&s, &v, path, err, errlen);
    snprintf(t->verdict, sizeof t->verdict, "%s", verdict_name(v.kind));
    trend_point_of(&s, &t->p);
    if (strcmp(r->status, "completed") != 0)   /* only completed runs make or meet a trend */
        t->p.smax = t->p.baseline_ms = NAN;
    summary_free(&s);
    return rc;
}

/* Groups rows by cell (first-seen order) and judges each against its cell's earlier runs. */
static size_t judge_groups(struct row *t, size_t n, const struct dashboard_options *o)
{
    size_t groups = 0;
    struct trend_point *pts = malloc((n ? n : 1) * sizeof *pts);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    for (size_t i = 0; i < n; i++)
        t[i].group = SIZE_MAX;
    for (size_t i = 0; pts && idx && i < n; i++) {
        if (t[i].group != SIZE_MAX)
            continue;
        size_t m = 0;
        for (size_t j = i; j < n; j++)
            if (t[j].group == SIZE_MAX && !strcmp(t[j].cell, t[i].cell)) {
                t[j].group = groups;
                idx[m] = j;
                pts[m++] = t[j].p;
            }
        for (size_t k = 0; k < m; k++)
            trend_judge(pts, k, o->last, o->tolerance, &t[idx[k]].j);
        groups++;
    }
    free(pts);
    free(idx);
    return groups;
}

/* cell colours; red and green are kept for the marks */
static const char *const palette[] = { "#2166ac", "#762a83", "#e08214", "#35978f", "#8c510a", "#4d4d4d",
                                       "#c51b7d", "#7f7f00" };

/* One chart over dates: a line per cell, open smax as grey dots, rings on runs that moved. */
static void chart(FILE *o, const struct row *t, size_t n, size_t groups, int baseline)
{
    double *x = malloc((n ? n : 1) * sizeof *x), *y = malloc((n ? n : 1) * sizeof *y);
    double *mark = malloc((n ? n : 1) * sizeof *mark), *gx = malloc((n ? n : 1) * sizeof *gx);
    if (!x || !y || !mark || !gx)
        goto done;
    double lo, hi, xlo, xhi;
    for (size_t i = 0; i < n; i++) {
        x[i] = (double)t[i].p.started_us / US_PER_DAY;
        y[i] = baseline ? t[i].p.baseline_ms : t[i].p.smax;
    }
    svg_range(x, n, &xlo, &xhi);
    svg_range(y, n, &lo, &hi);
    struct svg_chart c;
    if (baseline)
        svg_begin_days(&c, o, 860, 260, xlo, xhi, 0, isnan(hi) ? 1 : hi * 1.1, "baseline over dates", "date (UTC)", "ms");
    else
        svg_begin_days(&c, o, 860, 280, xlo, xhi, 0, isnan(hi) ? 1 : hi * 1.1, "smax over dates", "date (UTC)",
                       "sessions");
    for (size_t g = 0; g < groups; g++) {
        const char *color = palette[g % (sizeof palette / sizeof palette[0])], *label = NULL;
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (t[i].group == g) {
                /* the line joins reached values; a not-reached smax is a lower bound, drawn as a dot */
                gx[m] = x[i];
                mark[m++] = baseline || t[i].p.reached ? y[i] : NAN;
                label = label ? label : t[i].cell;
            }
        svg_line(&c, gx, mark, m, 0, baseline ? "trend-baseline" : "trend-smax", color, label);
        svg_dots(&c, gx, mark, m, 0, baseline ? "trend-baseline-pt" : "trend-smax-pt", color, NULL);
    }
    if (!baseline) {
        for (size_t i = 0; i < n; i++)
            mark[i] = t[i].p.reached ? NAN : y[i] > 0 ? y[i] - 1 : 0;   /* what is known: smax >= N - 1 */
        svg_dots(&c, x, mark, n, 0, "trend-open", "#999", "not reached: smax >= highest active - 1");
    }
    for (int kind = 0; kind < 2; kind++) {
        enum trend_mark want = kind ? TREND_IMPROVED : TREND_REGRESSED;
        for (size_t i = 0; i < n; i++)
            mark[i] = (baseline ? t[i].j.baseline : t[i].j.smax) == want ? y[i] : NAN;
        svg_rings(&c, x, mark, n, kind ? "trend-improved" : "trend-regression", kind ? "#1a9850" : "#d73027",
                  kind ? "improved" : "regression");
    }
    svg_end(&c);
done:
    free(x); free(y); free(mark); free(gx);
}

static void cell_num(FILE *o, double v, const char *fmt)
{
    fputs("<td>", o);
    if (isfinite(v))
        fprintf(o, fmt, v);
    else
        fputs("&ndash;", o);
    fputs("</td>", o);
}

static void group_table(FILE *o, const struct row *t, size_t n, size_t g)
{
    fprintf(o, "<table><tr><th>run</th><th>started (UTC)</th><th>name</th><th>smax</th><th>median</th>"
               "<th>change</th><th>baseline</th><th>median</th><th>change</th><th>trend</th><th>verdict</th></tr>\n");
    for (size_t i = n; i-- > 0;) {   /* newest first */
        const struct row *r = &t[i];
        if (r->group != g)
            continue;
        if (r->bad[0]) {
            fprintf(o, "<tr><td>%lld</td><td>%s</td><td>", (long long)r->p.run, r->when);
            svg_escape(o, r->name);
            fputs("</td><td colspan=\"7\" class=\"error\">skipped: ", o);
            svg_escape(o, r->bad);
            fputs("</td><td class=\"error\">error</td></tr>\n", o);
            continue;
        }
        fprintf(o, "<tr><td><a href=\"run-%lld.html\">%lld</a></td><td>%s</td><td>", (long long)r->p.run,
                (long long)r->p.run, r->when);
        svg_escape(o, r->name);
        fputs("</td>", o);
        if (isfinite(r->p.smax))
            fprintf(o, r->p.reached ? "<td>%.0f</td>" : "<td>&ge; %.0f</td>",
                    r->p.reached || r->p.smax < 1 ? r->p.smax : r->p.smax - 1);
        else
            fputs("<td>n/a</td>", o);
        cell_num(o, r->j.smax_median, "%.1f");
        cell_num(o, r->j.smax_delta_pct, "%+.1f %%");
        cell_num(o, r->p.baseline_ms, "%.0f ms");
        cell_num(o, r->j.baseline_median, "%.0f");
        cell_num(o, r->j.baseline_delta_pct, "%+.1f %%");
        const char *cls = r->j.overall == TREND_REGRESSED ? "fail" : r->j.overall == TREND_IMPROVED ? "pass" : "";
        fprintf(o, "<td class=\"%s\">%s</td><td class=\"%s\">%s</td></tr>\n", cls, trend_mark_name(r->j.overall),
                r->verdict, r->verdict);
    }
    fprintf(o, "</table>\n");
}

static int write_index(const char *dir, const struct row *t, size_t n, size_t groups,
                       const struct dashboard_options *opt, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/index.html", dir);
    FILE *o = report_html_open(path, "sessmax dashboard", err, errlen);
    if (!o)
        return -1;
    fprintf(o, "<h1>sessmax dashboard</h1>\n<p>%zu runs in %zu cells (transport / platform / network / client). "
               "smax is the number of active sessions before the response-time index crossed the threshold "
               "(baseline + offset). Each completed run is judged against the median of the previous %zu runs "
               "of its cell: a red ring marks a run whose smax fell or whose baseline rose by more than %g %%, "
               "a green ring the opposite (the judgement of <code>sessmax trend</code>). Click a run for its "
               "report.</p>\n", n, groups, opt->last, opt->tolerance * 100);
    chart(o, t, n, groups, 0);
    chart(o, t, n, groups, 1);
    for (size_t g = 0; g < groups; g++) {
        size_t m = 0, first = SIZE_MAX;
        for (size_t i = 0; i < n; i++)
            if (t[i].group == g) {
                m++;
                first = first == SIZE_MAX ? i : first;
            }
        fprintf(o, "<h2>");
        svg_escape(o, t[first].cell);
        fprintf(o, " <small>(%zu runs)</small></h2>\n", m);
        group_table(o, t, n, g);
    }
    return report_html_close(o, path, err, errlen);
}

int dashboard_write(struct store *st, const char *dir, char *err, size_t errlen)
{
    static const struct dashboard_options defaults = { DASHBOARD_TOLERANCE, DASHBOARD_LAST };
    return dashboard_write_opts(st, dir, &defaults, err, errlen);
}

int dashboard_write_opts(struct store *st, const char *dir, const struct dashboard_options *opt, char *err,
                         size_t errlen)
{
    struct store_run *runs = NULL;
    size_t n = 0;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot create: %s", dir, strerror(errno));
        return -1;
    }
    if (store_list_runs(st, &runs, &n) < 0) {
        snprintf(err, errlen, "%s", store_errmsg(st));
        return -1;
    }
    struct row *t = calloc(n ? n : 1, sizeof *t);
    int rc = t ? 0 : -1;
    if (!t)
        snprintf(err, errlen, "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = one_run(st, &runs[i], dir, &t[i], err, errlen);
    if (rc == 0)
        rc = write_index(dir, t, n, judge_groups(t, n, opt), opt, err, errlen);
    size_t bad = 0, first = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (t[i].bad[0] && !bad++)
            first = i;
    if (bad) {
        snprintf(err, errlen, "run %lld skipped: %s%s", (long long)runs[first].id, t[first].bad,
                 bad > 1 ? " (and more: see the tables of index.html)" : "");
        rc = 1;
    }
    free(t);
    free(runs);
    return rc;
}

/* dashboard.c -- the nightly view: DIR/index.html with the trend of smax and baseline per
 * transport x platform x network over runs, and DIR/run-<id>.html for every run. */
#include "controller/report/dashboard.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "controller/report/report.h"
#include "controller/report/report_html.h"
#include "controller/score/summary.h"
#include "controller/score/summary_load.h"
#include "controller/report/svg.h"
#include "controller/score/verdict.h"
#include "db/store.h"

struct trend {
    int64_t id;
    char group[400], name[128], when[32], verdict[16];
    double smax, open_smax, baseline;   /* smax NaN when not reached; open_smax = max_active - 1 then */
};

static void group_of(const struct store_run *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s / %s / %s", r->transport, r->platform, r->network);
}

/* Scores one run, writes its report, and records its trend point. */
static int one_run(struct store *st, const struct store_run *r, const char *dir, struct trend *t,
                   char *err, size_t errlen)
{
    struct summary s;
    struct verdict v;
    char path[4096];
    if (summary_load(st, r->id, NULL, &s, err, errlen) < 0)
        return -1;
    int rc = verdict_evaluate(&s, &v, err, errlen);
    snprintf(path, sizeof path, "%s/run-%lld.html", dir, (long long)r->id);
    if (rc == 0)
        rc = report_write_summary(&s, &v, path, err, errlen);
    memset(t, 0, sizeof *t);
    t->id = r->id;
    group_of(r, t->group, sizeof t->group);
    snprintf(t->name, sizeof t->name, "%s", r->name);
    time_t secs = (time_t)(r->started_us / 1000000);
    struct tm tm;
    if (gmtime_r(&secs, &tm))
        strftime(t->when, sizeof t->when, "%Y-%m-%d %H:%M", &tm);
    snprintf(t->verdict, sizeof t->verdict, "%s", rc == 0 ? verdict_name(v.kind) : "error");
    t->smax = s.score.reached ? s.score.smax : NAN;
    t->open_smax = !s.score.reached && s.score.status == SCORE_OK ? (s.score.max_active > 0 ? s.score.max_active - 1.0 : 0)
                                                                  : NAN;
    t->baseline = s.score.baseline_ms;
    summary_free(&s);
    return rc;
}

static void group_charts(FILE *o, const struct trend *t, const size_t *idx, size_t n)
{
    double *x = malloc(n * sizeof *x), *sm = malloc(n * sizeof *sm), *op = malloc(n * sizeof *op),
           *bl = malloc(n * sizeof *bl);
    if (!x || !sm || !op || !bl)
        goto done;
    for (size_t i = 0; i < n; i++) {
        x[i] = (double)(i + 1);
        sm[i] = t[idx[i]].smax;
        op[i] = t[idx[i]].open_smax;
        bl[i] = t[idx[i]].baseline;
    }
    double lo, hi, lo2, hi2;
    svg_range(sm, n, &lo, &hi);
    svg_range(op, n, &lo2, &hi2);
    hi = isnan(hi) || hi2 > hi ? hi2 : hi;
    /* x: run number in the group; at least 0..6 so ticks stay on whole runs */
    double xmax = n + 1 < 6 ? 6 : (double)n + 1;
    struct svg_chart c;
    svg_begin(&c, o, 860, 240, 0, xmax, 0, isnan(hi) ? 1 : hi * 1.1, "smax over runs",
              "run (oldest to newest)", "sessions");
    svg_line(&c, x, sm, n, 0, "trend-smax", "#2166ac", "smax");
    svg_dots(&c, x, sm, n, 0, "trend-smax-pt", "#2166ac", NULL);
    svg_dots(&c, x, op, n, 0, "trend-open", "#999", "not reached: smax >= highest active - 1");
    svg_end(&c);
    svg_range(bl, n, &lo, &hi);
    svg_begin(&c, o, 860, 200, 0, xmax, 0, isnan(hi) ? 1 : hi * 1.1, "baseline over runs",
              "run (oldest to newest)", "ms");
    svg_line(&c, x, bl, n, 0, "trend-baseline", "#b2182b", "baseline");
    svg_dots(&c, x, bl, n, 0, "trend-baseline-pt", "#b2182b", NULL);
    svg_end(&c);
done:
    free(x); free(sm); free(op); free(bl);
}

static void group_table(FILE *o, const struct trend *t, const size_t *idx, size_t n)
{
    fprintf(o, "<table><tr><th>run</th><th>started (UTC)</th><th>name</th><th>smax</th><th>baseline</th>"
               "<th>verdict</th></tr>\n");
    for (size_t k = n; k-- > 0;) {   /* newest first */
        const struct trend *r = &t[idx[k]];
        fprintf(o, "<tr><td><a href=\"run-%lld.html\">%lld</a></td><td>%s</td><td>", (long long)r->id,
                (long long)r->id, r->when);
        svg_escape(o, r->name);
        if (isfinite(r->smax))
            fprintf(o, "</td><td>%.0f</td>", r->smax);
        else if (isfinite(r->open_smax))
            fprintf(o, "</td><td>&gt; %.0f</td>", r->open_smax);
        else
            fprintf(o, "</td><td>n/a</td>");
        fprintf(o, isfinite(r->baseline) ? "<td>%.0f ms</td>" : "<td>&ndash;</td>", r->baseline);
        fprintf(o, "<td class=\"%s\">%s</td></tr>\n", r->verdict, r->verdict);
    }
    fprintf(o, "</table>\n");
}

static int write_index(const char *dir, const struct trend *t, size_t n, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/index.html", dir);
    FILE *o = report_html_open(path, "sessmax dashboard", err, errlen);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    char *done = calloc(n ? n : 1, 1);
    if (!o || !idx || !done) {
        if (o)
            report_html_close(o, path, err, errlen);
        free(idx);
        free(done);
        return -1;
    }
    fprintf(o, "<h1>sessmax dashboard</h1>\n<p>%zu runs. One section per transport / platform / network; "
               "smax is the number of active sessions before the response-time index crossed the "
               "threshold (baseline + offset). Click a run for its report.</p>\n", n);
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        size_t m = 0;
        for (size_t j = i; j < n; j++)
            if (!done[j] && !strcmp(t[j].group, t[i].group)) {
                done[j] = 1;
                idx[m++] = j;
            }
        fprintf(o, "<h2>");
        svg_escape(o, t[i].group);
        fprintf(o, " <small>(%zu runs)</small></h2>\n", m);
        group_charts(o, t, idx, m);
        group_table(o, t, idx, m);
    }
    free(idx);
    free(done);
    return report_html_close(o, path, err, errlen);
}

int dashboard_write(struct store *st, const char *dir, char *err, size_t errlen)
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
    struct trend *t = calloc(n ? n : 1, sizeof *t);
    int rc = t ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = one_run(st, &runs[i], dir, &t[i], err, errlen);
    if (rc == 0)
        rc = write_index(dir, t, n, err, errlen);
    free(t);
    free(runs);
    return rc;
}

/* report.c -- the one-page HTML report of a run: verdict, key figures, "how to read this",
 * inline SVG charts and the timer table. Self-contained: no script, no external resource. */
#include "controller/report/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "controller/report/report_charts.h"
#include "controller/report/report_costs.h"
#include "controller/report/report_logon.h"
#include "controller/report/report_deck.h"
#include "controller/report/report_html.h"
#include "controller/report/report_resources.h"
#include "controller/score/summary.h"
#include "controller/score/summary_copy.h"
#include "controller/score/summary_load.h"
#include "controller/score/summary_net.h"
#include "controller/score/summary_target.h"
#include "controller/report/svg.h"
#include "controller/score/verdict.h"
#include "db/store.h"

static void figure(FILE *o, const char *label, const char *fmt, double v)
{
    fprintf(o, "<tr><th>%s</th><td>", label);
    if (isfinite(v))
        fprintf(o, fmt, v);
    else
        fputs("&ndash;", o);
    fputs("</td></tr>\n", o);
}

/* A row of text, HTML-escaped; td_attrs ("" or " class=...") go into its <td>. */
static void text_row(FILE *o, const char *label, const char *td_attrs, const char *text)
{
    fprintf(o, "<tr><th>%s</th><td%s>", label, td_attrs);
    svg_escape(o, text);
    fputs("</td></tr>\n", o);
}

static void key_figures(FILE *o, const struct summary *s)
{
    const struct score_result *r = &s->score;
    char smax[96];
    verdict_format_smax(s, smax, sizeof smax);
    fprintf(o, "<table class=\"figures\">\n");
    text_row(o, "smax", " class=\"big\" id=\"smax\"", smax);
    figure(o, "baseline", "%.0f ms", r->baseline_ms);
    figure(o, "threshold", "%.0f ms", r->threshold_ms);
    fprintf(o, "<tr><th>sessions</th><td>launched %u, active %u, stuck %u (%.2f %%), failed %u, cut short by the end of the run %u</td></tr>\n",
            s->launched, s->active, s->stuck, s->stuck_pct, s->failed_sessions, s->cut_short);
    fprintf(o, "<tr><th>samples</th><td>%zu '", r->samples);
    svg_escape(o, s->measure);
    fprintf(o, "' samples (%zu failed)</td></tr>\n", r->samples_failed);
    if (s->samples_suspect)
        fprintf(o, "<tr><th>suspect samples</th><td>%zu samples of all timers held below their timer's "
                "plausibility floor (the echo of the input, or <code>min:</code>): not counted as ok</td></tr>\n",
                s->samples_suspect);
    if (s->reason_count) {
        fprintf(o, "<tr><th>failed by reason</th><td>");
        for (size_t i = 0; i < s->reason_count; i++) {
            fprintf(o, "%s", i ? ", " : "");
            svg_escape(o, s->reasons[i].reason);
            fprintf(o, " %u", s->reasons[i].count);
        }
        fprintf(o, "</td></tr>\n");
    }
    fprintf(o, "<tr><th>logons</th><td>first try %u, after repaint requests %u, after logon retries %u "
               "(%u repaint requests)</td></tr>\n", s->logon_first_try, s->logon_repainted, s->logon_retried,
            s->repaint_requests);
    figure(o, "logon p50", "%.0f ms", s->logon_p50_ms);
    figure(o, "logon p95", "%.0f ms", s->logon_p95_ms);
    figure(o, "bandwidth", "%.1f kbit/s per session", s->kbps_per_session);
    char net[512];
    summary_net_line(s, net, sizeof net);
    text_row(o, "network", "", net);
    summary_target_line(s, net, sizeof net);
    text_row(o, "target CPUs", " id=\"target-cpus\"", net);
    figure(o, "agent loop lag p99", "%.1f ms", s->lag_p99_ms);
    fprintf(o, "</table>\n");
}

static void verdict_box(FILE *o, const struct verdict *v)
{
    fprintf(o, "<div class=\"verdict %s\" id=\"verdict\"><b>%s</b><ul>\n", verdict_name(v->kind),
            verdict_name(v->kind));
    for (size_t i = 0; i < v->item_count; i++) {
        if (i < v->validity_count && v->items[i].result == VERDICT_PASS)
            continue;
        fprintf(o, "<li class=\"%s\">[%s] ", verdict_name(v->items[i].result), verdict_name(v->items[i].result));
        svg_escape(o, v->items[i].reason);
        fprintf(o, "</li>\n");
    }
    fprintf(o, "</ul></div>\n");
}

static void how_to_read(FILE *o, const struct summary *s)
{
    const struct score_params *p = &s->config.params;
    fprintf(o, "<details><summary>How to read this</summary><p>Sessions were added gradually. "
               "Every session repeatedly ran the measure group <code>");
    svg_escape(o, s->measure);
    fprintf(o, "</code>, whose response time is one sample. The <b>baseline</b> is the mean of the %u "
               "lowest samples of the run after dropping the %u lowest. The <b>threshold</b> is the "
               "baseline + %g ms. The <b>index</b> at each sample is the mean of the latest %u + "
               "%g&nbsp;&times;&nbsp;active-sessions samples with %g %% (at least %u) of them removed at each end. "
               "<b>smax</b> is the number of active sessions just before the index first went above the "
               "threshold; &ldquo;not reached at N active&rdquo; means the index never went above the threshold with up to N active "
               "sessions; the next sample, still at N, could have crossed, so only smax &ge; N&minus;1 is known. A run "
               "is <b>inconclusive</b> when more than %g %% of the sessions never became active, an agent "
               "was lost, or the agents' own loop lag p99 was above %g ms (an overloaded load generator "
               "inflates response times). Response times are the time the desktop took to show the "
               "result of an action, not network latency. Score version %s; see docs/scoring.md.</p>"
               "</details>\n",
            p->baseline_count, p->baseline_drop, p->threshold_offset_ms, p->window_base, p->window_frac,
            p->trim_frac * 100, p->trim_min, p->stuck_max_pct, p->lag_p99_max_ms, SCORE_VERSION);
}

static void timer_table(FILE *o, const struct summary *s)
{
    fprintf(o, "<table class=\"timers\"><tr><th>timer</th><th>samples</th><th>failed or suspect</th>"
               "<th>min ms</th><th>avg ms</th><th>p50 ms</th><th>p90 ms</th><th>p95 ms</th><th>p99 ms</th>"
               "<th>max ms</th><th>MB/s at p50 (copy timers)</th></tr>\n");
    for (size_t i = 0; i < s->timer_count; i++) {
        const struct summary_timer *t = &s->timers[i];
        fprintf(o, "<tr><td>");
        svg_escape(o, t->name);
        fprintf(o, "%s</td><td>%zu</td><td>%zu</td>", t->is_measure ? " (measure)" : "", t->count, t->failed);
        double v[] = { t->min_ms, t->avg_ms, t->p50_ms, t->p90_ms, t->p95_ms, t->p99_ms, t->max_ms };
        for (size_t k = 0; k < 7; k++)
            fprintf(o, isfinite(v[k]) ? "<td>%.0f</td>" : "<td>&ndash;</td>", v[k]);
        if (t->copy_bytes && isfinite(t->mbps_p50))
            fprintf(o, "<td>%.1f</td>", t->mbps_p50);
        else
            fprintf(o, "<td>&ndash;</td>");
        fprintf(o, "</tr>\n");
    }
    fprintf(o, "</table>\n");
}

/* Every failed or stuck session: user, reason, time, detail and the PNG of its screen then. */
static void failure_table(FILE *o, const struct summary *s)
{
    if (!s->failure_count)
        return;
    fprintf(o, "<h2>Failed or stuck sessions</h2>\n<table class=\"timers\" id=\"failures\"><tr><th>user</th>"
               "<th>reason</th><th>time (UTC)</th><th>screen then (run-%lld/)</th><th>detail</th></tr>\n",
            (long long)s->run.id);
    for (size_t i = 0; i < s->failure_count; i++) {
        const struct summary_failure *f = &s->failures[i];
        char when[32] = "-";
        if (f->t_us)
            clock_format_utc(f->t_us, "%Y-%m-%d %H:%M:%S", when, sizeof when);
        fprintf(o, "<tr><td>");
        svg_escape(o, f->user);
        fprintf(o, "</td><td>");
        svg_escape(o, f->reason);
        fprintf(o, "%s</td><td>%s</td><td>", f->stuck ? " (stuck)" : "", when);
        svg_escape(o, f->screen[0] ? f->screen : "none");
        fprintf(o, "</td><td>");
        svg_escape(o, f->detail);
        fprintf(o, "</td></tr>\n");
    }
    fprintf(o, "</table>\n<p>Screens are in the run's shots directory beside the results database "
               "(<code>RESULTS.shots/run-%lld/</code>, with an index.html contact sheet).</p>\n", (long long)s->run.id);
}

/* The copy table: one row per direction, one column per size, median seconds and MB/s. */
static void copy_table(FILE *o, const struct summary *s)
{
    uint64_t sizes[16];
    size_t n = summary_copy_sizes(s, sizes, 16);
    if (!n)
        return;
    fprintf(o, "<h2>Copies</h2>\n<table class=\"timers\" id=\"copies\"><tr><th>direction</th>");
    for (size_t k = 0; k < n; k++) {
        char head[32];
        summary_copy_size_text(sizes[k], head, sizeof head);
        fprintf(o, "<th>%s: median s</th><th>%s: MB/s</th>", head, head);
    }
    fprintf(o, "</tr>\n");
    for (int dir = 0; dir < 2; dir++) {
        fprintf(o, "<tr><td>%s</td>", dir ? "server &rarr; client (copy out)" : "client &rarr; server (copy in)");
        for (size_t k = 0; k < n; k++) {
            const struct summary_timer *t = summary_copy_cell(s, dir, sizes[k]);
            if (t && isfinite(t->p50_ms))
                fprintf(o, "<td>%.2f</td><td>%.1f</td>", t->p50_ms / 1000.0, t->mbps_p50);
            else
                fprintf(o, "<td>&ndash;</td><td>&ndash;</td>");
        }
        fprintf(o, "</tr>\n");
    }
    fprintf(o, "</table>\n<p>Median of the ok samples of each copy timer; MB = 2<sup>20</sup> bytes; throughput = "
               "the timer's bytes (its <code>copy:</code> in the workload) / its time.</p>\n");
}

static void labels(FILE *o, const struct summary *s)
{
    char when[64];
    clock_format_utc(s->run.started_us, "%Y-%m-%d %H:%M UTC", when, sizeof when);
    const char *kv[][2] = { { "transport", s->run.transport }, { "platform", s->run.platform },
                            { "network", s->run.network }, { "client", s->run.client },
                            { "target", s->run.target },
                            { "workload", s->run.workload_name }, { "status", s->run.status },
                            { "started", when }, { "score version", SCORE_VERSION } };
    fprintf(o, "<p class=\"labels\">");
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++) {
        fprintf(o, "<span><i>%s</i> ", kv[i][0]);
        svg_escape(o, kv[i][1]);
        fprintf(o, "</span> ");
    }
    fprintf(o, "</p>\n");
}

static void body(FILE *o, const struct summary *s, const struct verdict *v)
{
    fprintf(o, "<h1>Run %lld: ", (long long)s->run.id);
    svg_escape(o, s->run.name);
    fprintf(o, "</h1>\n");
    char deck[768];
    report_deck_line(s, v, deck, sizeof deck);
    fprintf(o, "<p class=\"deck\" id=\"deck\">");
    svg_escape(o, deck);
    fprintf(o, "</p>\n");
    labels(o, s);
    if (s->note[0]) {
        fprintf(o, "<p class=\"note\">");
        svg_escape(o, s->note);
        fprintf(o, "</p>\n");
    }
    verdict_box(o, v);
    key_figures(o, s);
    how_to_read(o, s);
    fprintf(o, "<h2>Capacity</h2>\n");
    report_chart_response(o, s);
    report_chart_sessions(o, s);
    report_chart_target(o, s);
    report_resources(o, s);
    fprintf(o, "<h2>Timers</h2>\n");
    report_chart_timers(o, s);
    timer_table(o, s);
    copy_table(o, s);
    failure_table(o, s);
    fprintf(o, "<h2>Logon</h2>\n");
    report_chart_logon(o, s);
    report_logon_phases(o, s);
    fprintf(o, "<h2>Bandwidth</h2>\n");
    report_chart_bandwidth(o, s);
    fprintf(o, "<h2>Agent health</h2>\n");
    report_chart_health(o, s);
    report_costs(o, s);
}

int report_write_summary(const struct summary *s, const struct verdict *v, const char *path,
                         char *err, size_t errlen)
{
    char title[256];
    snprintf(title, sizeof title, "sessmax run %lld: %s", (long long)s->run.id, s->run.name);
    FILE *o = report_html_open(path, title, err, errlen);
    if (!o)
        return -1;
    body(o, s, v);
    return report_html_close(o, path, err, errlen);
}

int report_write(struct store *st, int64_t run, const char *path, char *err, size_t errlen)
{
    struct summary s;
    struct verdict v;
    if (summary_load(st, run, NULL, &s, err, errlen) < 0)
        return -1;
    int rc = verdict_evaluate(&s, &v, err, errlen);
    if (rc == 0)
        rc = report_write_summary(&s, &v, path, err, errlen);
    summary_free(&s);
    return rc;
}

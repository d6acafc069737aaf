/* export.c -- CSV, JSON, JUnit XML and OpenMetrics renderings of one run. */
#include "controller/report/export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "controller/report/prom_label.h"
#include "controller/score/jsonv.h"
#include "controller/score/summary_metric.h"
#include "controller/score/textesc.h"

int export_parse_format(const char *name)
{
    static const char *const names[] = { "csv", "json", "junit", "openmetrics" };
    for (int i = 0; i < 4; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

/* --- CSV: run,metric,timer,value ----------------------------------------------------------- */

/* A text a spreadsheet would take for a formula: =, +, -, @, tab or CR first, and not simply a
 * number ("-3.5" stays a number) or a lone "-" (a missing value). */
static int csv_formula(const char *s)
{
    if (!s[0] || !strchr("=+-@\t\r", s[0]) || !strcmp(s, "-"))
        return 0;
    char *end;
    strtod(s, &end);
    return end == s || *end != 0;
}

/* A cell: control characters (a newline too) escaped as text (textesc.h), so that one cell is
 * one line; RFC 4180 quoting (comma or quote inside); a formula-like text gets a leading
 * apostrophe so that no spreadsheet evaluates it. */
void export_csv_field(FILE *o, const char *s)
{
    char buf[4096];
    s = textesc(buf, sizeof buf, s, TEXTESC_LINE);
    int formula = csv_formula(s);
    if (!strpbrk(s, ",\"") && !formula) {
        fputs(s, o);
        return;
    }
    fputc('"', o);
    if (formula)
        fputc('\'', o);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', o);
        fputc(*s, o);
    }
    fputc('"', o);
}

static void csv_row(FILE *o, const struct summary *s, const char *metric, const char *timer, double v)
{
    fprintf(o, "%lld,%s,", (long long)s->run.id, metric);
    export_csv_field(o, timer);
    if (isfinite(v))
        fprintf(o, ",%.6g\n", v);
    else
        fprintf(o, ",\n");
}

#define TIMER_COLS 9
static const char *const timer_cols[TIMER_COLS] = { "count", "failed", "min", "avg", "p50", "p90", "p95", "p99", "max" };

static void timer_values(const struct summary_timer *t, double *v)
{
    double x[] = { (double)t->count, (double)t->failed, t->min_ms, t->avg_ms, t->p50_ms, t->p90_ms,
                   t->p95_ms, t->p99_ms, t->max_ms };
    memcpy(v, x, sizeof x);
}

static void export_csv(const struct summary *s, const struct verdict *v, FILE *o)
{
    static const char *const names[] = {
        "smax", "smax_at_least", "baseline_ms", "threshold_ms", "max_index_ms", "launched", "active", "stuck",
        "stuck_pct", "failed_sessions", "failed_samples_pct", "kbps_per_session", "lag_p99_ms",
        "cpu_max_pct", "logon_p50", "logon_p95", "logon_p99", "logon_avg",
    };
    char err[256];
    fprintf(o, "run,metric,timer,value\n");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        double x = NAN;
        summary_metric(s, names[i], NULL, &x, err, sizeof err);
        csv_row(o, s, names[i], "", x);
    }
    csv_row(o, s, "smax_reached", "", s->score.reached);
    csv_row(o, s, "max_active", "", s->score.max_active);
    csv_row(o, s, "verdict_exit_code", "", verdict_code(v));
    csv_row(o, s, "logon_first_try", "", s->logon_first_try);
    csv_row(o, s, "logon_after_repaint", "", s->logon_repainted);
    csv_row(o, s, "logon_after_retry", "", s->logon_retried);
    for (size_t i = 0; i < s->timer_count; i++) {
        double x[9];
        timer_values(&s->timers[i], x);
        for (size_t k = 0; k < 9; k++)
            csv_row(o, s, timer_cols[k], s->timers[i].name, x[k]);
        const struct summary_timer *t = &s->timers[i];
        if (!t->copy_bytes)
            continue;
        csv_row(o, s, "copy_bytes", t->name, (double)t->copy_bytes);
        csv_row(o, s, "copy_to_client", t->name, t->copy_to_client);
        csv_row(o, s, "copy_mib_per_s_p50", t->name, t->mbps_p50);
        csv_row(o, s, "copy_mib_per_s_min", t->name, t->mbps_min);
        csv_row(o, s, "copy_mib_per_s_max", t->name, t->mbps_max);
    }
}

int export_points_csv(const struct summary *s, FILE *out)
{
    fprintf(out, "t_us,active,value_ms,index_ms\n");
    for (size_t i = 0; i < s->point_count; i++) {
        const struct summary_point *p = &s->points[i];
        fprintf(out, "%llu,%u,%.3f,%.3f\n", (unsigned long long)p->t_us, p->active, p->value_ms, p->index_ms);
    }
    return ferror(out) ? -1 : 0;
}

/* --- JSON ------------------------------------------------------------------------------- */

static json_t *timer_json(const struct summary_timer *t)
{
    double tv[TIMER_COLS];
    char key[32];
    json_t *o = json_object();
    if (!o)
        return NULL;
    timer_values(t, tv);
    int bad = jsonv_set(o, "name", jsonv_string(t->name));
    bad |= jsonv_set(o, "is_measure", json_boolean(t->is_measure));
    for (size_t c = 0; c < TIMER_COLS; c++) {
        snprintf(key, sizeof key, "%s%s", timer_cols[c], c >= 2 ? "_ms" : "");
        bad |= jsonv_set(o, key, jsonv_number(tv[c]));
    }
    if (t->copy_bytes) {
        json_t *c = json_object();
        bad |= !c;
        if (c) {
            bad |= jsonv_set(c, "bytes", jsonv_number((double)t->copy_bytes));
            bad |= jsonv_set(c, "direction", jsonv_string(t->copy_to_client ? "server->client" : "client->server"));
            bad |= jsonv_set(c, "mib_per_s_p50", jsonv_number(t->mbps_p50));
            bad |= jsonv_set(c, "mib_per_s_min", jsonv_number(t->mbps_min));
            bad |= jsonv_set(c, "mib_per_s_max", jsonv_number(t->mbps_max));
            bad |= jsonv_set(o, "copy", c);
        }
    }
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* Failed or stuck sessions with their evidence (summary_evidence.h). */
static json_t *failures_json(const struct summary *s)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < s->failure_count; i++) {
        const struct summary_failure *f = &s->failures[i];
        json_t *o = json_object();
        int bad = !o || json_array_append_new(a, o);
        if (!bad) {
            bad |= jsonv_set(o, "session", json_integer(f->session));
            bad |= jsonv_set(o, "user", jsonv_string(f->user));
            bad |= jsonv_set(o, "reason", jsonv_string(f->reason));
            bad |= jsonv_set(o, "stuck", json_boolean(f->stuck));
            bad |= jsonv_set(o, "t_us", json_integer((json_int_t)f->t_us));
            bad |= jsonv_set(o, "screen", f->screen[0] ? jsonv_string(f->screen) : json_null());
            bad |= jsonv_set(o, "detail", jsonv_string(f->detail));
        }
        if (bad) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

/* The verdict object, extended with the figures. */
static json_t *run_json(const struct summary *s, const struct verdict *v)
{
    json_t *o = verdict_json(s, v), *timers = json_array();
    int bad = !o || !timers;
    double x[] = { s->stuck_pct, s->kbps_per_session, s->lag_p99_ms, s->lag_max_ms, s->cpu_max_pct,
                   s->logon_p50_ms, s->logon_p95_ms, s->logon_p99_ms, s->logon_avg_ms,
                   s->score.max_index_ms, s->failed_samples_pct, s->agent_mean_ms, s->agent_p95_ms,
                   s->agent_max_ms, s->loop_cpu_pct, s->loop_delay_pct, s->throttled_pct };
    const char *k[] = { "stuck_pct", "kbps_per_session", "lag_p99_ms", "lag_max_ms", "cpu_max_pct",
                        "logon_p50_ms", "logon_p95_ms", "logon_p99_ms", "logon_avg_ms", "max_index_ms",
                        "failed_samples_pct", "agent_share_mean_ms", "agent_share_p95_ms", "agent_share_max_ms",
                        "agent_loop_cpu_pct", "agent_loop_delay_pct", "agent_throttled_pct" };
    for (size_t i = 0; !bad && i < sizeof x / sizeof x[0]; i++)
        bad |= jsonv_set(o, k[i], jsonv_number(x[i]));
    for (size_t i = 0; !bad && i < s->timer_count; i++)
        bad |= json_array_append_new(timers, timer_json(&s->timers[i]));
    if (!bad) {
        bad |= jsonv_set(o, "failed_sessions", json_integer(s->failed_sessions));
        bad |= jsonv_set(o, "agents", json_integer((json_int_t)s->agents));
        bad |= jsonv_set(o, "agents_lost", json_integer((json_int_t)s->agents_lost));
        bad |= jsonv_set(o, "samples", json_integer((json_int_t)s->samples));
        bad |= jsonv_set(o, "samples_failed", json_integer((json_int_t)s->samples_failed));
        bad |= jsonv_set(o, "samples_suspect", json_integer((json_int_t)s->samples_suspect));
        bad |= jsonv_set(o, "status", jsonv_string(s->run.status));
        bad |= jsonv_set(o, "score_params", score_config_json(&s->config));
        bad |= jsonv_set(o, "timers", timers);
        timers = NULL;
        bad |= jsonv_set(o, "failures", failures_json(s));
        bad |= jsonv_set(o, "logon_first_try", json_integer(s->logon_first_try));
        bad |= jsonv_set(o, "logon_after_repaint", json_integer(s->logon_repainted));
        bad |= jsonv_set(o, "logon_after_retry", json_integer(s->logon_retried));
        bad |= jsonv_set(o, "repaint_requests", json_integer(s->repaint_requests));
    }
    json_decref(timers);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static int export_json(const struct summary *s, const struct verdict *v, FILE *o)
{
    char *text = jsonv_take_text(run_json(s, v), JSONV_REPORT, 1);
    if (!text)
        return -1;
    fputs(text, o);
    free(text);
    return 0;
}

/* --- JUnit XML: one testcase per check ----------------------------------------------------- */

/* XML 1.0 text and attribute values: markup escaped, and the control characters XML 1.0 does
 * not allow (everything below 0x20 but tab, LF and CR) written as '?'. */
static void xml_str(FILE *o, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        switch (ch) {
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '&': fputs("&amp;", o); break;
        case '"': fputs("&quot;", o); break;
        case '\'': fputs("&apos;", o); break;
        case '\t': case '\n': case '\r': fprintf(o, "&#%d;", ch); break;
        default: fputc(ch < 0x20 || ch == 0x7f ? '?' : ch, o);
        }
    }
}

static void export_junit(const struct summary *s, const struct verdict *v, FILE *o)
{
    size_t failures = 0, errors = 0;
    for (size_t i = 0; i < v->item_count; i++) {
        failures += v->items[i].result == VERDICT_FAIL;
        errors += v->items[i].result == VERDICT_INCONCLUSIVE;
    }
    fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"sessmax.run%lld.",
            (long long)s->run.id);
    xml_str(o, s->run.name);
    fprintf(o, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n", v->item_count + s->failure_count,
            failures + s->failure_count, errors);
    fprintf(o, "    <properties>\n");
    const char *props[][2] = { { "transport", s->run.transport }, { "platform", s->run.platform },
                               { "network", s->run.network }, { "client", s->run.client },
                               { "score_version", SCORE_VERSION }, { "verdict", verdict_name(v->kind) } };
    for (size_t i = 0; i < sizeof props / sizeof props[0]; i++) {
        fprintf(o, "      <property name=\"%s\" value=\"", props[i][0]);
        xml_str(o, props[i][1]);
        fprintf(o, "\"/>\n");
    }
    for (size_t i = 0; i < s->timer_count; i++) {
        const struct summary_timer *t = &s->timers[i];
        if (!t->copy_bytes)
            continue;
        fprintf(o, "      <property name=\"copy.");
        xml_str(o, t->name);
        const char *dir = t->copy_to_client ? "server-&gt;client" : "client-&gt;server";
        if (isfinite(t->mbps_p50))
            fprintf(o, "\" value=\"%.2f s, %.1f MiB/s at p50, %s\"/>\n", t->p50_ms / 1000.0, t->mbps_p50, dir);
        else
            fprintf(o, "\" value=\"no ok sample, %s\"/>\n", dir);
    }
    fprintf(o, "    </properties>\n");
    for (size_t i = 0; i < v->item_count; i++) {
        const struct verdict_item *it = &v->items[i];
        fprintf(o, "    <testcase classname=\"sessmax.%s\" name=\"", i < v->validity_count ? "validity" : "threshold");
        xml_str(o, it->text);
        fprintf(o, "\">");
        if (it->result != VERDICT_PASS) {
            fprintf(o, "<%s message=\"", it->result == VERDICT_FAIL ? "failure" : "error");
            xml_str(o, it->reason);
            fprintf(o, "\"/>");
        } else {
            fprintf(o, "<system-out>");
            xml_str(o, it->reason);
            fprintf(o, "</system-out>");
        }
        fprintf(o, "</testcase>\n");
    }
    for (size_t i = 0; i < s->failure_count; i++) {
        const struct summary_failure *f = &s->failures[i];
        fprintf(o, "    <testcase classname=\"sessmax.session\" name=\"");
        xml_str(o, f->user);
        fprintf(o, "\"><failure message=\"");
        xml_str(o, f->reason);
        fprintf(o, " at %llu us; screen ", (unsigned long long)f->t_us);
        xml_str(o, f->screen[0] ? f->screen : "none");
        fprintf(o, "; ");
        xml_str(o, f->detail);
        fprintf(o, "\"/></testcase>\n");
    }
    fprintf(o, "  </testsuite>\n</testsuites>\n");
}

/* --- OpenMetrics ------------------------------------------------------------------------ */

/* ,key="value" with the value escaped as OpenMetrics says: backslash, double quote and line
 * feed; other control characters (a CR would end the line for some readers) become '?'. */
static void om_labels(FILE *o, const struct summary *s)
{
    fprintf(o, "run=\"%lld\"", (long long)s->run.id);
    prom_label(o, 1, "name", s->run.name);
    prom_label(o, 1, "transport", s->run.transport);
    prom_label(o, 1, "platform", s->run.platform);
    prom_label(o, 1, "network", s->run.network);
    prom_label(o, 1, "client", s->run.client);
}

static void om_gauge(FILE *o, const struct summary *s, const char *name, const char *help, double v)
{
    fprintf(o, "# TYPE sessmax_%s gauge\n# HELP sessmax_%s %s\nsessmax_%s{", name, name, help, name);
    om_labels(o, s);
    if (isfinite(v))
        fprintf(o, "} %.9g\n", v);
    else
        fprintf(o, "} NaN\n");
}

static void om_copies(FILE *o, const struct summary *s)
{
    int head = 0;
    for (size_t i = 0; i < s->timer_count; i++) {
        const struct summary_timer *t = &s->timers[i];
        if (!t->copy_bytes)
            continue;
        if (!head++)
            fprintf(o, "# TYPE sessmax_copy_mib_per_s gauge\n# HELP sessmax_copy_mib_per_s Copy timer throughput "
                       "at its median time (MiB/s).\n");
        fprintf(o, "sessmax_copy_mib_per_s{");
        om_labels(o, s);
        prom_label(o, 1, "timer", t->name);
        prom_label(o, 1, "direction", t->copy_to_client ? "server->client" : "client->server");
        fprintf(o, ",bytes=\"%llu\"} ", (unsigned long long)t->copy_bytes);
        if (isfinite(t->mbps_p50))
            fprintf(o, "%.9g\n", t->mbps_p50);
        else
            fprintf(o, "NaN\n");
    }
}

static void om_failures(FILE *o, const struct summary *s)
{
    om_gauge(o, s, "logons_first_try", "Logons that succeeded at once.", s->logon_first_try);
    om_gauge(o, s, "logons_after_repaint", "Logons that needed repaint requests.", s->logon_repainted);
    om_gauge(o, s, "logons_after_retry", "Logons that needed a logon retry.", s->logon_retried);
    if (!s->failure_count)
        return;
    fprintf(o, "# TYPE sessmax_failed_session_time_seconds gauge\n# HELP sessmax_failed_session_time_seconds "
               "When each failed or stuck session failed (Unix time), with its screen.\n");
    for (size_t i = 0; i < s->failure_count; i++) {
        const struct summary_failure *f = &s->failures[i];
        fprintf(o, "sessmax_failed_session_time_seconds{");
        om_labels(o, s);
        prom_label(o, 1, "user", f->user);
        prom_label(o, 1, "reason", f->reason);
        prom_label(o, 1, "screen", f->screen);
        fprintf(o, "} %.6f\n", f->t_us / 1e6);
    }
}

static void export_openmetrics(const struct summary *s, const struct verdict *v, FILE *o)
{
    om_gauge(o, s, "smax", "Active sessions before the index crossed the threshold (NaN: not reached).",
             s->score.reached ? s->score.smax : NAN);
    double lo;
    summary_metric(s, "smax_at_least", NULL, &lo, NULL, 0);
    om_gauge(o, s, "smax_at_least", "What the data show: smax, or the highest active count - 1 when not reached.",
             lo);
    om_gauge(o, s, "max_active", "Highest active session count of the run.", s->score.max_active);
    om_gauge(o, s, "baseline_ms", "Baseline response time (ms).", s->score.baseline_ms);
    om_gauge(o, s, "threshold_ms", "Threshold = baseline + offset (ms).", s->score.threshold_ms);
    om_gauge(o, s, "launched_sessions", "Sessions launched.", s->launched);
    om_gauge(o, s, "active_sessions", "Sessions that became active.", s->active);
    om_gauge(o, s, "stuck_sessions", "Sessions launched that never became active.", s->stuck);
    om_gauge(o, s, "kbps_per_session", "Payload kbit/s per active session.", s->kbps_per_session);
    om_gauge(o, s, "agent_lag_p99_ms", "Agent loop lag p99 (ms).", s->lag_p99_ms);
    om_gauge(o, s, "verdict_code", "0 pass, 1 fail, 2 inconclusive.", verdict_exit_code(v->kind));
    fprintf(o, "# TYPE sessmax_timer_ms gauge\n# HELP sessmax_timer_ms Timer percentiles over ok samples (ms).\n");
    static const char *const q[] = { "0.5", "0.9", "0.95", "0.99" };
    for (size_t i = 0; i < s->timer_count; i++) {
        const struct summary_timer *t = &s->timers[i];
        double x[] = { t->p50_ms, t->p90_ms, t->p95_ms, t->p99_ms };
        for (size_t k = 0; k < 4; k++) {
            fprintf(o, "sessmax_timer_ms{");
            om_labels(o, s);
            prom_label(o, 1, "timer", t->name);
            fprintf(o, ",quantile=\"%s\"} ", q[k]);
            if (isfinite(x[k]))
                fprintf(o, "%.9g\n", x[k]);
            else
                fprintf(o, "NaN\n");
        }
    }
    om_copies(o, s);
    om_failures(o, s);
    fprintf(o, "# EOF\n");
}

int export_write(const struct summary *s, const struct verdict *v, enum export_format fmt, FILE *out)
{
    switch (fmt) {
    case EXPORT_CSV: export_csv(s, v, out); break;
    case EXPORT_JSON:
        if (export_json(s, v, out) < 0)
            return -1;
        break;
    case EXPORT_JUNIT: export_junit(s, v, out); break;
    case EXPORT_OPENMETRICS: export_openmetrics(s, v, out); break;
    }
    return ferror(out) ? -1 : 0;
}

/* export.c -- CSV, JSON, JUnit XML and OpenMetrics renderings of one run. */
#include "controller/report/export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "controller/score/json_lite.h"
#include "controller/score/summary_metric.h"

int export_parse_format(const char *name)
{
    static const char *const names[] = { "csv", "json", "junit", "openmetrics" };
    for (int i = 0; i < 4; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

/* --- CSV: run,metric,timer,value ----------------------------------------------------------- */

void export_csv_field(FILE *o, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, o);
        return;
    }
    fputc('"', o);
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

static const char *const timer_cols[] = { "count", "failed", "min", "avg", "p50", "p90", "p95", "p99", "max" };

static void timer_values(const struct summary_timer *t, double *v)
{
    double x[] = { (double)t->count, (double)t->failed, t->min_ms, t->avg_ms, t->p50_ms, t->p90_ms,
                   t->p95_ms, t->p99_ms, t->max_ms };
    memcpy(v, x, sizeof x);
}

static void export_csv(const struct summary *s, const struct verdict *v, FILE *o)
{
    static const char *const names[] = {
        "smax", "baseline_ms", "threshold_ms", "max_index_ms", "launched", "active", "stuck",
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
    csv_row(o, s, "verdict_exit_code", "", verdict_exit_code(v->kind));
    for (size_t i = 0; i < s->timer_count; i++) {
        double x[9];
        timer_values(&s->timers[i], x);
        for (size_t k = 0; k < 9; k++)
            csv_row(o, s, timer_cols[k], s->timers[i].name, x[k]);
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

static void export_json(const struct summary *s, const struct verdict *v, FILE *o)
{
    struct json_lite_buf b;
    json_lite_buf_init(&b);
    char *vj = verdict_to_json(s, v);
    /* the verdict object, extended with the figures */
    if (vj && (vj[strlen(vj) - 1] == '\n'))
        vj[strlen(vj) - 1] = 0;
    if (vj && strlen(vj) > 1)
        vj[strlen(vj) - 1] = 0;   /* drop the closing brace */
    json_lite_buf_printf(&b, "%s", vj ? vj : "{");
    free(vj);
    double x[] = { s->stuck_pct, s->kbps_per_session, s->lag_p99_ms, s->lag_max_ms, s->cpu_max_pct,
                   s->logon_p50_ms, s->logon_p95_ms, s->logon_p99_ms, s->logon_avg_ms,
                   s->score.max_index_ms, s->failed_samples_pct };
    const char *k[] = { "stuck_pct", "kbps_per_session", "lag_p99_ms", "lag_max_ms", "cpu_max_pct",
                        "logon_p50_ms", "logon_p95_ms", "logon_p99_ms", "logon_avg_ms", "max_index_ms",
                        "failed_samples_pct" };
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) {
        json_lite_buf_printf(&b, ",\"%s\":", k[i]);
        json_lite_buf_num(&b, x[i]);
    }
    json_lite_buf_printf(&b, ",\"failed_sessions\":%u,\"agents\":%zu,\"agents_lost\":%zu,\"samples\":%zu,"
                         "\"samples_failed\":%zu,\"status\":", s->failed_sessions, s->agents,
                         s->agents_lost, s->samples, s->samples_failed);
    json_lite_buf_str(&b, s->run.status);
    char *params = score_config_to_json(&s->config);
    json_lite_buf_printf(&b, ",\"score_params\":%s,\"timers\":[", params ? params : "null");
    free(params);
    for (size_t i = 0; i < s->timer_count; i++) {
        double tv[9];
        timer_values(&s->timers[i], tv);
        json_lite_buf_printf(&b, "%s{\"name\":", i ? "," : "");
        json_lite_buf_str(&b, s->timers[i].name);
        json_lite_buf_printf(&b, ",\"is_measure\":%s", s->timers[i].is_measure ? "true" : "false");
        for (size_t c = 0; c < 9; c++) {
            json_lite_buf_printf(&b, ",\"%s%s\":", timer_cols[c], c >= 2 ? "_ms" : "");
            json_lite_buf_num(&b, tv[c]);
        }
        json_lite_buf_printf(&b, "}");
    }
    json_lite_buf_printf(&b, "]}\n");
    char *text = json_lite_buf_take(&b);
    if (text)
        fputs(text, o);
    free(text);
}

/* --- JUnit XML: one testcase per check ----------------------------------------------------- */

static void xml_str(FILE *o, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '&': fputs("&amp;", o); break;
        case '"': fputs("&quot;", o); break;
        default: fputc(*s, o);
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
    fprintf(o, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n", v->item_count, failures, errors);
    fprintf(o, "    <properties>\n");
    const char *props[][2] = { { "transport", s->run.transport }, { "platform", s->run.platform },
                               { "network", s->run.network }, { "score_version", SCORE_VERSION },
                               { "verdict", verdict_name(v->kind) } };
    for (size_t i = 0; i < 5; i++) {
        fprintf(o, "      <property name=\"%s\" value=\"", props[i][0]);
        xml_str(o, props[i][1]);
        fprintf(o, "\"/>\n");
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
    fprintf(o, "  </testsuite>\n</testsuites>\n");
}

/* --- OpenMetrics ------------------------------------------------------------------------ */

static void om_labels(FILE *o, const struct summary *s)
{
    const char *l[][2] = { { "name", s->run.name }, { "transport", s->run.transport },
                           { "platform", s->run.platform }, { "network", s->run.network } };
    fprintf(o, "run=\"%lld\"", (long long)s->run.id);
    for (size_t i = 0; i < 4; i++) {
        fprintf(o, ",%s=\"", l[i][0]);
        for (const char *p = l[i][1]; *p; p++) {
            if (*p == '"' || *p == '\\')
                fputc('\\', o);
            if (*p == '\n')
                fputs("\\n", o);
            else
                fputc(*p, o);
        }
        fputc('"', o);
    }
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

static void export_openmetrics(const struct summary *s, const struct verdict *v, FILE *o)
{
    om_gauge(o, s, "smax", "Active sessions before the index crossed the threshold (NaN: not reached).",
             s->score.reached ? s->score.smax : NAN);
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
            fprintf(o, ",timer=\"%s\",quantile=\"%s\"} ", t->name, q[k]);
            if (isfinite(x[k]))
                fprintf(o, "%.9g\n", x[k]);
            else
                fprintf(o, "NaN\n");
        }
    }
    fprintf(o, "# EOF\n");
}

int export_write(const struct summary *s, const struct verdict *v, enum export_format fmt, FILE *out)
{
    switch (fmt) {
    case EXPORT_CSV: export_csv(s, v, out); break;
    case EXPORT_JSON: export_json(s, v, out); break;
    case EXPORT_JUNIT: export_junit(s, v, out); break;
    case EXPORT_OPENMETRICS: export_openmetrics(s, v, out); break;
    }
    return ferror(out) ? -1 : 0;
}

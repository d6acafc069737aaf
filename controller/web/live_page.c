/* live_page.c -- "/", "/api/live" and "/metrics" of the live view (live_page.h). */
#include "controller/web/live_page.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/web/live_html.h"
#include "controller/web/metrics.h"

static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *sessions_json(const struct web_live *w)
{
    const struct web_live_counts *c = &w->c;
    uint32_t done = c->active + c->failed + c->ended;
    return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I}", "planned", (json_int_t)c->sessions, "launched",
                     (json_int_t)c->launched, "active", (json_int_t)c->active, "failed", (json_int_t)c->failed, "ended",
                     (json_int_t)c->ended, "logging_on", (json_int_t)(c->launched > done ? c->launched - done : 0));
}

/* [t_s, active, index_ms or null, logging_on, failed, target cpu_pct or null, agent lag_ms or null]. */
static json_t *points_json(const struct web_live *w)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < w->npoints; i++)
        json_array_append_new(a, json_pack("[f,I,o,I,I,o,o]", w->points[i].t_s, (json_int_t)w->points[i].active,
                                           num(w->points[i].index_ms), (json_int_t)w->points[i].logging_on,
                                           (json_int_t)w->points[i].failed, num(w->points[i].cpu_pct),
                                           num(w->points[i].lag_ms)));
    return a;
}

static json_t *timers_json(const struct web_live *w)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < w->ntimers; i++) {
        const struct web_live_timer *t = &w->timers[i];
        json_array_append_new(a, json_pack("{s:s,s:b,s:I,s:I,s:o,s:o}", "name", t->name, "measure", t->is_measure, "count",
                                           (json_int_t)t->count, "failed", (json_int_t)t->failed, "p50_ms",
                                           num(web_live_quantile_ms(t, 0.5)), "p95_ms",
                                           num(web_live_quantile_ms(t, 0.95))));
    }
    return a;
}

static json_t *agents_json(const struct web_live *w)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < w->nagents; i++) {
        const struct web_live_agent *g = &w->agents[i];
        json_array_append_new(a, json_pack("{s:s,s:I,s:o,s:o,s:o,s:b}", "name", g->name, "active",
                                           (json_int_t)g->sessions_active, "lag_p99_ms", num(g->lag_p99_ms), "cpu_pct",
                                           num(g->cpu_pct), "rss_mb", num(g->rss_mb), "lost", g->lost));
    }
    return json_pack("{s:I,s:I,s:o}", "connected", (json_int_t)w->c.agents, "expected",
                     (json_int_t)w->c.agents_expected, "list", a);
}

/* The target's resources from its exporters: one object per source, NaN figures as null. */
static json_t *resources_json(const struct web_live *w)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < w->nres; i++) {
        const struct web_live_resources *r = &w->res[i];
        json_array_append_new(a, json_pack("{s:s,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "source", r->source, "active",
                                           (json_int_t)r->active, "cpu_pct", num(r->cpu_pct), "mem_pct", num(r->mem_pct),
                                           "disk_busy_pct", num(r->disk_busy_pct), "net_pct", num(r->net_pct),
                                           "disk_bytes_s", num(r->disk_bytes_s), "net_bytes_s", num(r->net_bytes_s),
                                           "sessions", num(r->sessions)));
    }
    return a;
}

/* The live score: the tile's words and its figures (smax null before the baseline). */
static json_t *smax_json(const struct web_live *w)
{
    char text[128];
    web_live_smax_text(&w->smax, text, sizeof text);
    int v = web_live_smax_value(&w->smax);
    return json_pack("{s:s,s:o,s:b,s:b,s:I,s:I,s:I,s:I}", "text", text, "smax",
                     v < 0 ? json_null() : json_integer(v), "scored", w->smax.scored, "reached", w->smax.reached,
                     "cross_active", (json_int_t)w->smax.cross_active, "max_active", (json_int_t)w->smax.max_active,
                     "samples_ok", (json_int_t)w->smax.samples_ok, "samples_needed",
                     (json_int_t)w->smax.samples_needed);
}

/* The live verdict's alarms: {"judged":..,"ok":..,"alarms":[{"key","rule","reason"}]}. */
static json_t *valid_json(const struct web_live *w)
{
    const struct web_live_alarms *x = &w->alarms;
    json_t *a = json_array();
    for (size_t i = 0; a && i < x->n; i++)
        json_array_append_new(a, json_pack("{s:s,s:s,s:s}", "key", x->a[i].key, "rule", x->a[i].rule, "reason",
                                           x->a[i].reason));
    return json_pack("{s:b,s:b,s:o}", "judged", x->judged, "ok", x->judged && !x->n, "alarms", a);
}

/* Sessions failed so far by reason, the reasons seen only: [{"reason":"auth","count":2}]. */
static json_t *failures_json(const struct web_live *w)
{
    json_t *a = json_array();
    for (int r = 0; a && r < FAIL__COUNT; r++)
        if (w->alarms.failed[r])
            json_array_append_new(a, json_pack("{s:s,s:I}", "reason", failure_reason_name((enum failure_reason)r),
                                               "count", (json_int_t)w->alarms.failed[r]));
    return a;
}

/* The latest failed sessions, oldest first; "screen" is the PNG's name under shots/ (or null). */
static json_t *recent_json(const struct web_live *w)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < w->failures.n; i++) {
        const struct web_live_failure *f = &w->failures.f[i];
        json_array_append_new(a, json_pack("{s:I,s:f,s:s,s:s,s:s,s:o}", "session", (json_int_t)f->session, "t_s",
                                           (double)f->t_s, "user", f->user, "reason", f->reason, "detail", f->detail,
                                           "screen", f->screen[0] ? json_string(f->screen) : json_null()));
    }
    return a;
}

char *web_live_json(const struct web_live *w)
{
    json_t *target = w->target_cpu_pct < 0 ? json_null()
                                           : json_pack("{s:f,s:f}", "cpu_pct", w->target_cpu_pct, "others_pct",
                                                       w->target_others_pct);
    json_t *o = json_pack(
        "{s:{s:I,s:s,s:s,s:s,s:s},s:s,s:o,s:o,s:o,s:o,s:b,s:f,s:I,s:o,s:o,s:o,s:o,s:{s:o,s:o},s:o}", "run", "id",
        (json_int_t)w->run_id, "name", w->run_name, "platform", w->platform, "transport", w->transport, "network",
        w->network, "phase", w->c.phase ? w->c.phase : "", "sessions", sessions_json(w), "index_ms",
        num(w->c.index_ms), "baseline_ms", num(w->c.baseline_ms), "threshold_ms", num(w->c.threshold_ms), "crossed",
        w->c.crossed, "left_s", w->c.left_s, "samples", (json_int_t)w->c.samples, "points", points_json(w), "timers",
        timers_json(w), "agents", agents_json(w), "target", target, "net", "kbit_per_session",
        num(web_live_kbit_per_session(w)), "rtt_p50_ms", num(web_live_rtt_p50_ms(w)), "resources", resources_json(w));
    if (!o || json_object_set_new(o, "smax", smax_json(w)) < 0 || json_object_set_new(o, "valid", valid_json(w)) < 0 ||
        json_object_set_new(o, "failures", failures_json(w)) < 0 ||
        json_object_set_new(o, "recent_failures", recent_json(w)) < 0) {
        json_decref(o);
        return NULL;
    }
    char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6));
    json_decref(o);
    return s;
}

static char *metrics_text(const struct web_live *w, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    web_metrics_write(f, w);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

int web_live_page(void *arg, const char *path, const struct evkeyvalq *query, char **body, size_t *len,
                  const char **content_type)
{
    (void)query;
    const struct web_live *w = arg;
    if (strcmp(path, "/") == 0) {
        *body = strdup(WEB_LIVE_HTML);
        *len = *body ? strlen(*body) : 0;
        *content_type = "text/html; charset=utf-8";
    } else if (strcmp(path, "/api/live") == 0) {
        *body = web_live_json(w);
        *len = *body ? strlen(*body) : 0;
        *content_type = "application/json";
    } else if (strcmp(path, "/metrics") == 0) {
        *body = metrics_text(w, len);
        *content_type = "text/plain; version=0.0.4; charset=utf-8";
    } else if (strncmp(path, "/shots/", 7) == 0) {
        int code = web_live_shot(&w->failures, path + 7, body, len);
        *content_type = "image/png";
        return code;
    } else {
        return 404;
    }
    return *body ? 200 : 500;
}

/* test_web.c -- the live view's state and its Prometheus text (controller/web/live.c,
 * metrics.c, live_page.c) and the shared label escaping (controller/report/prom_label.c). */
#include "unit.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "controller/report/prom_label.h"
#include "controller/web/live.h"
#include "controller/web/live_resources.h"
#include "controller/web/live_page.h"
#include "controller/web/live_smax.h"
#include "common/score_rule.h"
#include "controller/web/metrics.h"

static char *capture_label(const char *value)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    prom_label(f, 1, "name", value);
    fclose(f);
    return buf;
}

static void test_web__label_escaping(void)
{
    char *s = capture_label("a\"b\\c\nd\re\x01");
    CU_ASSERT_STRING_EQUAL(s, ",name=\"a\\\"b\\\\c\\nd?e?\"");
    free(s);
    s = capture_label("} 1\nsessmax_forged 2");
    CU_ASSERT_PTR_NULL(strchr(s, '\n'));   /* a name cannot start a line of its own */
    free(s);
}

static char *metrics(const struct web_live *w)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    web_metrics_write(f, w);
    fclose(f);
    return buf;
}

static void test_web__histogram_and_quantiles(void)
{
    struct web_live w;
    CU_ASSERT_EQUAL_FATAL(web_live_init(&w, 4, 0), 0);
    web_live_labels(&w, 7, "night\"ly", "ws2022", "tcp", "lan");
    for (int i = 1; i <= 100; i++)
        web_live_sample(&w, "app_start", 0, 1, i * 10000);   /* 10 .. 1000 ms */
    web_live_sample(&w, "app_start", 0, 0, 15000000);        /* a failure: not in the histogram */
    CU_ASSERT_EQUAL(w.ntimers, 1);
    double p50 = web_live_quantile_ms(&w.timers[0], 0.5), p95 = web_live_quantile_ms(&w.timers[0], 0.95);
    CU_ASSERT(fabs(p50 - 500) / 500 < 0.03);
    CU_ASSERT(fabs(p95 - 950) / 950 < 0.03);
    char *m = metrics(&w);
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "name=\"night\\\"ly\""));
    /* cumulative buckets: 5 samples <= 50 ms, 100 <= 1 s and +Inf, failures apart */
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "timer=\"app_start\",le=\"0.05\"} 5\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "timer=\"app_start\",le=\"1\"} 100\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "timer=\"app_start\",le=\"0.01\"} 1\n"));   /* buckets from 1 ms */
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "timer=\"app_start\",le=\"0.001\"} 0\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "timer=\"app_start\",le=\"+Inf\"} 100\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "sessmax_live_response_seconds_count{run=\"7\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "sessmax_live_response_failures_total{run=\"7\""));
    /* not known yet: left out, never NaN */
    CU_ASSERT_PTR_NULL(strstr(m, "NaN"));
    CU_ASSERT_PTR_NULL(strstr(m, "sessmax_live_index_seconds{"));
    free(m);
    web_live_free(&w);
}

static void test_web__counts_points_bounded(void)
{
    struct web_live w;
    CU_ASSERT_EQUAL_FATAL(web_live_init(&w, 2, 0), 0);
    struct web_live_counts c = { "ramp", 2, 2, 1, 0, 0, 0, 1, 1, 120, 100, 1100, 0, 30, 5 };
    for (uint64_t t = 0; t < 3ull * WEB_LIVE_MAX_POINTS * 1000000ull; t += 1000000ull)
        web_live_counts(&w, &c, t);
    CU_ASSERT(w.npoints <= WEB_LIVE_MAX_POINTS);
    CU_ASSERT(w.npoints >= WEB_LIVE_MAX_POINTS / 2);
    CU_ASSERT(w.points[w.npoints - 1].t_s > w.points[0].t_s);
    web_live_traffic(&w, 0, 0, 1000, 12000);
    web_live_traffic(&w, 1, 0, 500, 20000);
    web_live_traffic(&w, 9, 0, 1u << 30, 1);   /* a session the run does not have: ignored */
    CU_ASSERT_EQUAL(w.bytes_total, 1500);
    CU_ASSERT_DOUBLE_EQUAL(web_live_rtt_p50_ms(&w), 20.0, 1e-9);
    web_live_free(&w);
}

static void test_web__agents_bounded(void)
{
    struct web_live w;
    CU_ASSERT_EQUAL_FATAL(web_live_init(&w, 1, 0), 0);
    char name[32];
    for (int i = 0; i < WEB_LIVE_MAX_AGENTS + 10; i++) {
        snprintf(name, sizeof name, "agent-%d", i);
        web_live_health(&w, name, 1.5, 20, 100, 3);
    }
    CU_ASSERT_EQUAL(w.nagents, WEB_LIVE_MAX_AGENTS);
    web_live_agent_lost(&w, "agent-0");
    CU_ASSERT_EQUAL(w.agents[0].lost, 1);
    web_live_free(&w);
}

static void test_web__json_parses(void)
{
    struct web_live w;
    CU_ASSERT_EQUAL_FATAL(web_live_init(&w, 3, 0), 0);
    web_live_labels(&w, 3, "<script>x</script>", "p", "tcp", "wan-50ms");
    struct web_live_counts c = { "steady", 3, 3, 2, 1, 0, 0, 1, 1, NAN, NAN, NAN, 0, -1, 9 };
    web_live_counts(&w, &c, 0);
    web_live_sample(&w, "vsi", 1, 1, 250000);
    char *s = web_live_json(&w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    json_error_t e;
    json_t *o = json_loads(s, 0, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_object_get(o, "run"), "name")), "<script>x</script>");
    CU_ASSERT_TRUE(json_is_null(json_object_get(o, "index_ms")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(o, "sessions"), "logging_on")), 0);
    json_t *t = json_array_get(json_object_get(o, "timers"), 0);
    CU_ASSERT_TRUE(json_is_true(json_object_get(t, "measure")));
    json_t *p = json_array_get(json_object_get(o, "points"), 0);   /* [t, active, index, logging on, failed, cpu, lag] */
    CU_ASSERT_EQUAL(json_array_size(p), 7);
    CU_ASSERT_TRUE(json_is_null(json_array_get(p, 5)));   /* no target CPU sampled, no agent health yet */
    CU_ASSERT_TRUE(json_is_null(json_array_get(p, 6)));
    CU_ASSERT_EQUAL(json_integer_value(json_array_get(p, 1)), 2);
    CU_ASSERT_TRUE(json_is_null(json_array_get(p, 2)));
    CU_ASSERT_EQUAL(json_integer_value(json_array_get(p, 3)), 0);
    CU_ASSERT_EQUAL(json_integer_value(json_array_get(p, 4)), 1);
    json_decref(o);
    free(s);
    web_live_free(&w);
}

/* The target's resources (target.metrics): newest per source, bounded, in /metrics and the JSON. */
static void test_web__resources(void)
{
    struct web_live w;
    CU_ASSERT_EQUAL_FATAL(web_live_init(&w, 3, 0), 0);
    struct web_live_resources r = { .source = "rds01:9182", .active = 80, .cpu_pct = 50, .mem_pct = 40,
                                    .disk_busy_pct = NAN, .net_pct = NAN, .sessions = 80 };
    web_live_resources(&w, &r);
    r.cpu_pct = 97;
    web_live_resources(&w, &r);
    for (int i = 0; i < WEB_LIVE_MAX_SOURCES + 3; i++) {
        snprintf(r.source, sizeof r.source, "h%d", i);
        web_live_resources(&w, &r);
    }
    CU_ASSERT_EQUAL(w.nres, WEB_LIVE_MAX_SOURCES);
    char *m = metrics(&w);
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "sessmax_live_target_cpu_busy_ratio{run=\"0\",name=\"\",platform=\"\","
                                     "transport=\"\",network=\"\",client=\"builtin\",source=\"rds01:9182\"} 0.97\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "# TYPE sessmax_live_target_disk_busy_ratio gauge\n"));
    CU_ASSERT_PTR_NULL(strstr(m, "sessmax_live_target_disk_busy_ratio{"));   /* NaN: left out */
    free(m);
    char *s = web_live_json(&w);
    json_t *o = s ? json_loads(s, 0, NULL) : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    json_t *first = json_array_get(json_object_get(o, "resources"), 0);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(first, "cpu_pct")), 97, 1e-9);
    CU_ASSERT_TRUE(json_is_null(json_object_get(first, "disk_busy_pct")));
    json_decref(o);
    free(s);
    web_live_free(&w);
}

static json_t *live_json(const struct web_live *w)
{
    char *s = web_live_json(w);
    json_t *o = s ? json_loads(s, 0, NULL) : NULL;
    free(s);
    return o;
}

/* The live smax: words, JSON and gauges before the baseline, before the crossing and after it. */
static void test_web__smax(void)
{
    struct web_live w;
    char text[128];
    CU_ASSERT_EQUAL_FATAL(web_live_init(&w, 30, 0), 0);
    struct score_result r = { .status = SCORE_TOO_FEW, .samples_ok = 3, .samples_needed = 15, .smax = -1,
                              .max_active = 4 };
    web_live_smax(&w.smax, &r);
    web_live_smax_text(&w.smax, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "not scored yet (3 of 15 samples)");
    char *m = metrics(&w);
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "# TYPE sessmax_live_smax gauge\n"));
    CU_ASSERT_PTR_NULL(strstr(m, "sessmax_live_smax{"));   /* no figure before the baseline */
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "sessmax_live_smax_reached{run=\"0\",name=\"\",platform=\"\",transport=\"\","
                                     "network=\"\",client=\"builtin\"} 0\n"));
    free(m);
    json_t *o = live_json(&w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    CU_ASSERT_TRUE(json_is_null(json_object_get(json_object_get(o, "smax"), "smax")));
    json_decref(o);

    r = (struct score_result){ .status = SCORE_OK, .samples_ok = 40, .samples_needed = 15, .smax = -1, .max_active = 12 };
    web_live_smax(&w.smax, &r);
    web_live_smax_text(&w.smax, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "not reached yet (>= 11)");
    CU_ASSERT_EQUAL(web_live_smax_value(&w.smax), 11);

    r.reached = 1;
    r.smax = 19;
    r.cross_active = 20;
    r.max_active = 24;
    web_live_smax(&w.smax, &r);
    web_live_smax_text(&w.smax, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "smax 19 (crossed at 20 active)");
    m = metrics(&w);
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "sessmax_live_smax{run=\"0\",name=\"\",platform=\"\",transport=\"\","
                                     "network=\"\",client=\"builtin\"} 19\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "network=\"\",client=\"builtin\"} 1\n"));
    free(m);
    o = live_json(&w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    json_t *j = json_object_get(o, "smax");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "smax")), 19);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "cross_active")), 20);
    CU_ASSERT_TRUE(json_is_true(json_object_get(j, "reached")));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "text")), "smax 19 (crossed at 20 active)");
    json_decref(o);

    web_live_smax(&w.smax, NULL);   /* not re-scored yet: nothing claimed */
    CU_ASSERT_EQUAL(web_live_smax_value(&w.smax), -1);
    web_live_smax_text(&w.smax, text, 4);   /* cut, still terminated */
    CU_ASSERT_EQUAL(strlen(text), 3);
    web_live_free(&w);
}

/* The banner's alarms and the failures by reason: JSON and /metrics (sessmax_live_valid{reason}). */
static void test_web__alarms(void)
{
    struct web_live w;
    CU_ASSERT_EQUAL_FATAL(web_live_init(&w, 4, 0), 0);
    char *m = metrics(&w);
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "# TYPE sessmax_live_valid gauge\n"));
    CU_ASSERT_PTR_NULL(strstr(m, "sessmax_live_valid{"));   /* not judged yet */
    free(m);
    web_live_alarms_set(&w.alarms, NULL, 0);
    m = metrics(&w);
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "network=\"\",client=\"builtin\",reason=\"none\"} 1\n"));
    free(m);
    struct web_live_alarm a = { "auth", "no authentication failure", "authentication failed for u1 (...)" };
    web_live_alarms_set(&w.alarms, &a, 1);
    uint32_t failed[FAIL__COUNT] = { 0 };
    failed[FAIL_AUTH] = 2;
    failed[FAIL_WAIT_TIMEOUT] = 1;
    web_live_failures(&w.alarms, failed);
    m = metrics(&w);
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "sessmax_live_valid{run=\"0\",name=\"\",platform=\"\",transport=\"\","
                                     "network=\"\",client=\"builtin\",reason=\"auth\"} 0\n"));
    CU_ASSERT_PTR_NULL(strstr(m, "reason=\"none\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "# TYPE sessmax_live_session_failures_total counter\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "sessmax_live_session_failures_total{run=\"0\",name=\"\",platform=\"\","
                                     "transport=\"\",network=\"\",client=\"builtin\",reason=\"auth\"} 2\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(m, "reason=\"wait_timeout\"} 1\n"));
    free(m);
    json_t *o = live_json(&w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    json_t *v = json_object_get(o, "valid");
    CU_ASSERT_TRUE(json_is_false(json_object_get(v, "ok")));
    json_t *first = json_array_get(json_object_get(v, "alarms"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(first, "key")), "auth");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(first, "reason")), "authentication failed for u1 (...)");
    json_t *f = json_object_get(o, "failures");
    CU_ASSERT_EQUAL(json_array_size(f), 2);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(f, 0), "reason")), "auth");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_array_get(f, 0), "count")), 2);
    json_decref(o);
    struct web_live_alarm many[WEB_LIVE_MAX_ALARMS + 2] = { 0 };
    web_live_alarms_set(&w.alarms, many, WEB_LIVE_MAX_ALARMS + 2);   /* bounded */
    CU_ASSERT_EQUAL(w.alarms.n, WEB_LIVE_MAX_ALARMS);
    web_live_free(&w);
}

/* The latest failures, bounded, and their screens under /shots/: only a listed PNG is served. */
static void test_web__recent_failures(void)
{
    struct web_live w;
    CU_ASSERT_EQUAL_FATAL(web_live_init(&w, 10, 0), 0);
    unit_write_file("u1-failed.png", "\x89PNG fake");
    unit_write_file("secret.png", "not listed");
    web_live_shots_dir(&w.failures, unit_tmpdir());
    for (uint32_t i = 0; i < WEB_LIVE_RECENT_FAILURES + 2; i++) {
        struct web_live_failure f = { .session = i, .t_s = (float)i };
        snprintf(f.user, sizeof f.user, "u%u", i);
        snprintf(f.reason, sizeof f.reason, "wait_timeout");
        if (i == WEB_LIVE_RECENT_FAILURES + 1)
            snprintf(f.screen, sizeof f.screen, "u1-failed.png");
        web_live_failure_add(&w.failures, &f);
    }
    CU_ASSERT_EQUAL(w.failures.n, WEB_LIVE_RECENT_FAILURES);
    CU_ASSERT_EQUAL(w.failures.f[0].session, 2);   /* the oldest went */
    char *body = NULL;
    size_t len = 0;
    const char *type = NULL;
    CU_ASSERT_EQUAL(web_live_page(&w, "/shots/u1-failed.png", NULL, &body, &len, &type), 200);
    CU_ASSERT_EQUAL(len, 9);
    CU_ASSERT_STRING_EQUAL(type, "image/png");
    CU_ASSERT_EQUAL(memcmp(body, "\x89PNG fake", 9), 0);
    free(body);
    static const char *const refused[] = { "/shots/secret.png", "/shots/../u1-failed.png", "/shots/",
                                           "/shots/u1-failed.png/", "/shots/.u1-failed.png", "/shots/x/u1-failed.png" };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        body = NULL;
        CU_ASSERT_EQUAL(web_live_page(&w, refused[i], NULL, &body, &len, &type), 404);
        CU_ASSERT_PTR_NULL(body);
    }
    json_t *o = live_json(&w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    json_t *r = json_object_get(o, "recent_failures");
    CU_ASSERT_EQUAL(json_array_size(r), WEB_LIVE_RECENT_FAILURES);
    json_t *last = json_array_get(r, WEB_LIVE_RECENT_FAILURES - 1);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(last, "screen")), "u1-failed.png");
    CU_ASSERT_TRUE(json_is_null(json_object_get(json_array_get(r, 0), "screen")));
    json_decref(o);
    web_live_free(&w);
}

static void test_web__pages(void)
{
    struct web_live w;
    CU_ASSERT_EQUAL_FATAL(web_live_init(&w, 1, 0), 0);
    char *body = NULL;
    size_t len = 0;
    const char *type = NULL;
    CU_ASSERT_EQUAL(web_live_page(&w, "/", NULL, &body, &len, &type), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(body, "api/live"));
    CU_ASSERT_PTR_NOT_NULL(strstr(body, "<svg id=\"ramp\""));   /* the ramp over time */
    CU_ASSERT_PTR_NOT_NULL(strstr(body, "baseline after "));
    /* nothing from the internet (the SVG namespace is a name, not a fetch) */
    CU_ASSERT_PTR_NULL(strstr(body, "src=\"http"));
    CU_ASSERT_PTR_NULL(strstr(body, "href=\"http"));
    CU_ASSERT_PTR_NULL(strstr(body, "fetch(\"http"));
    CU_ASSERT_PTR_NULL(strstr(body, "@import"));
    free(body);
    body = NULL;
    CU_ASSERT_EQUAL(web_live_page(&w, "/metrics", NULL, &body, &len, &type), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(type, "version=0.0.4"));
    free(body);
    body = NULL;
    CU_ASSERT_EQUAL(web_live_page(&w, "/../etc/passwd", NULL, &body, &len, &type), 404);
    CU_ASSERT_PTR_NULL(body);
    web_live_free(&w);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_web__label_escaping), UNIT_TEST(test_web__histogram_and_quantiles),
        UNIT_TEST(test_web__counts_points_bounded), UNIT_TEST(test_web__agents_bounded),
        UNIT_TEST(test_web__json_parses), UNIT_TEST(test_web__resources), UNIT_TEST(test_web__smax), UNIT_TEST(test_web__alarms), UNIT_TEST(test_web__recent_failures),
        UNIT_TEST(test_web__pages), UNIT_END,
    };
    return unit_run("web", tests, NULL, NULL);
}

/* test_plan_metrics.c -- a plan's target.metrics: a bare URL, a list, a Prometheus server with
 * its instance label, pins and tokens, and the refusals (scheme, pin on http, token over plain
 * http to another host, interval range, unknown keys), each at its position. */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "controller/run/plan.h"

static char err[PLAN_ERR_LEN];

static struct plan *with_metrics(const char *metrics)
{
    char text[2048];
    snprintf(text, sizeof text,
             "target:\n  host: h\n  verify: false\n  metrics: %s\n"
             "credentials: {user: \"u{n}\", password_env: P}\nworkload: w.yaml\nsessions: 1\nlaunch_window: 1s\n"
             "agents: {local: 1}\n", metrics);
    err[0] = 0;
    return plan_load_string("/srv/plans/m.yaml", text, strlen(text), err, sizeof err);
}

static void refused(const char *metrics, const char *want)
{
    struct plan *p = with_metrics(metrics);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
    if (p || !strstr(err, want))
        fprintf(stderr, "\n  %s: got '%s', want '%s'\n", metrics, err, want);
    plan_free(p);
}

static void test_plan_metrics__forms(void)
{
    char src[128];
    struct plan *p = with_metrics("http://10.0.0.5:9100/metrics");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->target.metrics.n, 1);
    CU_ASSERT_STRING_EQUAL(p->target.metrics.ep[0].url, "http://10.0.0.5:9100/metrics");
    CU_ASSERT_EQUAL(p->target.metrics.ep[0].interval_us, PLAN_METRICS_INTERVAL_US);
    plan_metrics_source(&p->target.metrics.ep[0], src, sizeof src);
    CU_ASSERT_STRING_EQUAL(src, "10.0.0.5:9100");
    plan_free(p);

    p = with_metrics("[\"http://a:9100/metrics\", {url: \"https://rds01:9182/metrics\", fingerprint: "
                     "\"sha256:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF\", "
                     "token_file: tok/rds01, interval: 2s}, {prometheus: \"http://prom:9090\", instance: \"rds02:9182\"}]");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL_FATAL(p->target.metrics.n, 3);
    const struct plan_metrics_endpoint *e = &p->target.metrics.ep[1];
    CU_ASSERT_STRING_EQUAL(e->token_file, "/srv/plans/tok/rds01");
    CU_ASSERT_EQUAL(e->interval_us, 2000000);
    CU_ASSERT_PTR_NOT_NULL(e->fingerprint);
    e = &p->target.metrics.ep[2];
    CU_ASSERT_STRING_EQUAL(e->instance, "rds02:9182");
    plan_metrics_source(e, src, sizeof src);
    CU_ASSERT_STRING_EQUAL(src, "rds02:9182");
    plan_free(p);

    p = with_metrics("{url: \"https://h:9182/metrics\", verify: false}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_PTR_NULL(p->target.metrics.ep[0].fingerprint);
    plan_free(p);
    /* a token over plain http to loopback (an exporter beside the controller) is allowed */
    p = with_metrics("{url: \"http://127.0.0.1:9100/metrics\", token_file: t}");
    CU_ASSERT_PTR_NOT_NULL(p);
    plan_free(p);
}

static void test_plan_metrics__refusals(void)
{
    refused("ftp://h/metrics", "m.yaml:4:12: metrics: 'ftp://h/metrics' is not an http:// or https:// URL");
    refused("\"http:///metrics\"", "is not an http:// or https:// URL");
    refused("https://h:9182/metrics", "pin the endpoint's certificate");
    refused("{url: \"http://h:9100/metrics\", fingerprint: \"sha256:00\"}", "fingerprint: a SHA-256 needs 64 hex digits");
    refused("{url: \"http://h:9100/metrics\", token_file: t}", "a bearer token goes over https only");
    refused("{prometheus: \"http://prom:9090\"}", "needs 'instance: LABEL'");
    refused("{url: \"http://h:9100/\", instance: x}", "'instance' goes with 'prometheus:'");
    refused("{url: \"http://h:9100/\", prometheus: \"http://p:9090\", instance: x}", "give either 'url");
    refused("{url: \"http://h:9100/\", interval: 100ms}", "interval must be between 1s and 5m");
    refused("{url: \"http://h:9100/\", every: 5s}", "every");
    refused("[]", "the list is empty");
    refused("[a, b, c, d, e, f, g, h, i]", "at most 8 endpoints");
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_plan_metrics__forms),
        UNIT_TEST(test_plan_metrics__refusals),
        UNIT_END,
    };
    return unit_run("plan_metrics", tests, NULL, NULL);
}

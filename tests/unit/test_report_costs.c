/* test_report_costs.c -- per-session costs (controller/score/summary_cost.c) and the report's
 * "Session costs" table (controller/report/report_costs.c): an external-client run shows its
 * client, X server and agent figures under the run's labels, a built-in run the agent's only;
 * labels from the store stay text. */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/report/report.h"
#include "controller/score/summary.h"
#include "controller/score/verdict.h"

/* Two records of one agent: 2 then 4 sessions. Agent: 5 MiB per session at 2, 10 at 4; CPU 5 %
 * of a core per session in both. External (when ext): per session client 40 MiB RSS / 15 PSS,
 * X server 23 / 14.5, CPU 1.3 %. */
static void health(struct store_health_row *h, int ext)
{
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t n = 2 * (k + 1);
        struct rec_health r = { .t_us = 2000000u * (k + 1), .sessions_active = n - 1,
                                .sessions_connecting = 1, .cpu_permille = 50 * n,
                                .rss_kb = (uint64_t)(k ? 10240 : 5120) * n };
        if (ext) {
            r.ext.sessions = n;
            r.ext.cpu_permille = 13 * n;
            r.ext.client_rss_kb = 40960ull * n;
            r.ext.client_pss_kb = 15360ull * n;
            r.ext.xserver_rss_kb = 23552ull * n;
            r.ext.xserver_pss_kb = 14848ull * n;
        }
        h[k] = (struct store_health_row){ .agent = 1, .h = r };
    }
}

static int summarise(const char *client, const char *transport, int ext, struct summary *s)
{
    struct store_health_row h[2];
    health(h, ext);
    struct store_samples none = { NULL, 0, NULL, 0 };
    struct store_run run = { .id = 7 };
    snprintf(run.name, sizeof run.name, "costs");
    snprintf(run.client, sizeof run.client, "%s", client);
    snprintf(run.transport, sizeof run.transport, "%s", transport);
    struct summary_input in = { .run = &run, .samples = &none, .health = h, .health_count = 2 };
    struct score_config cfg;
    score_config_init(&cfg);
    char err[256];
    int rc = summary_compute(&in, &cfg, s, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "%s\n", err);
    return rc;
}

/* Writes the report of s and returns the HTML, malloc'd. */
static char *render(const struct summary *s, const char *file)
{
    char path[1200], err[512];
    struct verdict v;
    memset(&v, 0, sizeof v);
    snprintf(path, sizeof path, "%s/%s", unit_tmpdir(), file);
    CU_ASSERT_EQUAL(report_write_summary(s, &v, path, err, sizeof err), 0);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    if (buf)
        buf[fread(buf, 1, (1 << 20) - 1, f)] = '\0';
    fclose(f);
    return buf;
}

static void test_report_costs__figures(void)
{
    struct summary s;
    CU_ASSERT_EQUAL_FATAL(summarise("xfreerdp", "tcp", 1, &s), 0);
    CU_ASSERT_EQUAL(s.ext_sessions_max, 4);
    CU_ASSERT_EQUAL(s.agent_sessions_max, 4);
    CU_ASSERT_DOUBLE_EQUAL(s.ext_client_rss_mib, 40.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.ext_xserver_pss_mib, 14.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.ext_cpu_pct, 1.3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.agent_rss_mib, 10.0, 1e-9);   /* at 4 sessions, not the mean 7.5 */
    CU_ASSERT_DOUBLE_EQUAL(s.agent_cpu_pct, 5.0, 1e-9);
    char *html = render(&s, "costs-x11.html");
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "Client <b>xfreerdp</b>, transport <b>tcp</b>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<tr class=\"ext-client\"><td>xfreerdp client</td>"
                                        "<td>40.0</td><td>15.0</td><td>&ndash;</td></tr>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<tr class=\"ext-xserver\"><td>its X server</td>"
                                        "<td>23.0</td><td>14.5</td><td>&ndash;</td></tr>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<tr class=\"ext-both\"><td>client + X server</td>"
                                        "<td>63.0</td><td>29.5</td><td>1.3</td></tr>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<tr class=\"agent\"><td>agent process</td>"
                                        "<td>10.0</td><td>&ndash;</td><td>5.0</td></tr>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "up to 4 sessions measured at once"));
    free(html);
    summary_free(&s);
}

static void test_report_costs__builtin_has_agent_only(void)
{
    struct summary s;
    CU_ASSERT_EQUAL_FATAL(summarise("builtin", "tcp", 0, &s), 0);
    CU_ASSERT_EQUAL(s.ext_sessions_max, 0);
    CU_ASSERT(isnan(s.ext_client_pss_mib));
    char *html = render(&s, "costs-builtin.html");
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<tr class=\"agent\"><td>agent (built-in engine)</td>"
                                        "<td>10.0</td><td>&ndash;</td><td>5.0</td></tr>"));
    CU_ASSERT_PTR_NULL(strstr(html, "class=\"ext-"));
    free(html);
    summary_free(&s);
}

static void test_report_costs__labels_stay_text(void)
{
    struct summary s;
    CU_ASSERT_EQUAL_FATAL(summarise("<img src=x>", "t\"<u>", 1, &s), 0);
    char *html = render(&s, "costs-hostile.html");
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    CU_ASSERT_PTR_NULL(strstr(html, "<img"));
    CU_ASSERT_PTR_NULL(strstr(html, "<u>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<td>&lt;img src=x&gt; client</td>"));
    free(html);
    summary_free(&s);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_report_costs__figures),
        UNIT_TEST(test_report_costs__builtin_has_agent_only),
        UNIT_TEST(test_report_costs__labels_stay_text),
        UNIT_END,
    };
    return unit_run("report_costs", tests, NULL, NULL);
}

/* test_netprofile.c -- network profiles: built-ins, the plan's YAML form with positioned errors,
 * the JSON round trip, units and the derived RDP connection type. */
#include "unit.h"

#include "common/netprofile.h"
#include "common/ydoc.h"

#include <stdlib.h>
#include <string.h>

/* Parses `network: <text>` and returns netprofile_from_node's result. */
static int parse(const char *yaml_value, struct netprofile *p, char *err, size_t errlen)
{
    char text[512];
    snprintf(text, sizeof text, "network: %s\n", yaml_value);
    struct ydoc *d = ydoc_load_string("plan.yaml", text, strlen(text), err, errlen);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int rc = netprofile_from_node(d, ydoc_get(d->root, "network"), p, err, errlen);
    ydoc_free(d);
    return rc;
}

static void test_netprofile__builtins(void)
{
    struct netprofile p;
    CU_ASSERT_EQUAL(netprofile_builtin("wan-250ms-1pct", &p), 0);
    CU_ASSERT_EQUAL(p.rtt_us, 250000);
    CU_ASSERT_DOUBLE_EQUAL(p.loss, 0.01, 1e-12);
    CU_ASSERT(netprofile_is_shaped(&p));
    CU_ASSERT_EQUAL(netprofile_builtin("lan", &p), 0);
    CU_ASSERT(!netprofile_is_shaped(&p));
    CU_ASSERT_EQUAL(p.conn, NETPROFILE_CONN_LAN);
    const char *need[] = { "lan", "wan-50ms", "wan-100ms", "wan-250ms-1pct", "broadband-20mbit", "mobile-3g",
                           "satellite-600ms", NULL };
    for (int i = 0; need[i]; i++) {
        CU_ASSERT_EQUAL(netprofile_builtin(need[i], &p), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(netprofile_builtin_list(), need[i]));
    }
    CU_ASSERT_EQUAL(netprofile_builtin("wan", &p), -1);
    CU_ASSERT_PTR_NULL(netprofile_builtin_at(7));
}

static void test_netprofile__yaml_name(void)
{
    struct netprofile p;
    char err[512];
    CU_ASSERT_EQUAL(parse("satellite-600ms", &p, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(p.name, "satellite-600ms");
    CU_ASSERT_EQUAL(p.conn, NETPROFILE_CONN_SATELLITE);
    CU_ASSERT_EQUAL(parse("wan-300ms", &p, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "plan.yaml:1:10: unknown network profile 'wan-300ms'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "wan-250ms-1pct"));
}

static void test_netprofile__yaml_mapping(void)
{
    struct netprofile p;
    char err[512];
    CU_ASSERT_EQUAL(parse("{name: dsl, rtt: 40ms, jitter: 2ms, loss: 0.5%, rate_down: 16Mbit, rate_up: 1mbit/s, "
                          "queue: 50}", &p, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(p.name, "dsl");
    CU_ASSERT_EQUAL(p.rtt_us, 40000);
    CU_ASSERT_EQUAL(p.jitter_us, 2000);
    CU_ASSERT_DOUBLE_EQUAL(p.loss, 0.005, 1e-12);
    CU_ASSERT_EQUAL(p.rate_down_bps, 16000000);
    CU_ASSERT_EQUAL(p.rate_up_bps, 1000000);
    CU_ASSERT_EQUAL(p.queue_pkts, 50);
    CU_ASSERT_EQUAL(p.conn, NETPROFILE_CONN_WAN);
    CU_ASSERT_EQUAL(parse("{rtt: 100ms, connection: modem}", &p, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(p.name, "custom");
    CU_ASSERT_EQUAL(p.conn, NETPROFILE_CONN_MODEM);
    CU_ASSERT_EQUAL(p.queue_pkts, NETPROFILE_QUEUE_DEFAULT);
}

static void test_netprofile__yaml_errors(void)
{
    struct netprofile p;
    char err[512];
    struct { const char *yaml, *want; } cases[] = {
        { "{rtt: -5ms}", "plan.yaml:1:16: network rtt: must not be negative" },
        { "{loss: 50%}", "plan.yaml:1:17: network loss: must be below 50%" },
        { "{loss: 0.01}", "network loss: expected a percentage" },
        { "{rtt: 100}", "network rtt: expected a duration" },
        { "{rate_down: fast}", "network rate_down: expected a rate" },
        { "{delay: 5ms}", "plan.yaml:1:11:" },
        { "{queue: 0}", "plan.yaml:1:18: 0 is out of range" },
        { "{connection: dialup}", "network connection: one of modem" },
        { "[lan]", "plan.yaml:1:10: network: expected a profile name" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err[0] = 0;
        CU_ASSERT_EQUAL(parse(cases[i].yaml, &p, err, sizeof err), -1);
        if (!strstr(err, cases[i].want))
            fprintf(stderr, "\n%s -> %s\n", cases[i].yaml, err);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[i].want));
    }
    CU_ASSERT_EQUAL(parse("{delay: 5ms}", &p, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "built-in profiles: lan"));
}

static void test_netprofile__json_round_trip(void)
{
    for (size_t i = 0; netprofile_builtin_at(i); i++) {
        const struct netprofile *a = netprofile_builtin_at(i);
        char *js = netprofile_to_json(a);
        CU_ASSERT_PTR_NOT_NULL_FATAL(js);
        struct netprofile b;
        char err[256];
        CU_ASSERT_EQUAL(netprofile_from_json(js, &b, err, sizeof err), 0);
        CU_ASSERT_STRING_EQUAL(a->name, b.name);
        CU_ASSERT_EQUAL(a->rtt_us, b.rtt_us);
        CU_ASSERT_EQUAL(a->jitter_us, b.jitter_us);
        CU_ASSERT_DOUBLE_EQUAL(a->loss, b.loss, 1e-12);
        CU_ASSERT_EQUAL(a->rate_down_bps, b.rate_down_bps);
        CU_ASSERT_EQUAL(a->rate_up_bps, b.rate_up_bps);
        CU_ASSERT_EQUAL(a->queue_pkts, b.queue_pkts);
        CU_ASSERT_EQUAL(a->conn, b.conn);
        free(js);
    }
}

static void test_netprofile__json_refused(void)
{
    struct netprofile p;
    char err[256];
    const char *bad[] = {
        "", "[]", "{\"name\":\"x\"}", "{\"name\":\"x\",\"rtt_ms\":-1,\"jitter_ms\":0,\"loss_pct\":0,"
        "\"rate_down_kbit\":0,\"rate_up_kbit\":0,\"queue\":10,\"connection\":\"lan\"}",
        "{\"name\":\"x\",\"rtt_ms\":1,\"jitter_ms\":0,\"loss_pct\":50,\"rate_down_kbit\":0,\"rate_up_kbit\":0,"
        "\"queue\":10,\"connection\":\"lan\"}",
        "{\"name\":\"x\",\"rtt_ms\":1,\"jitter_ms\":0,\"loss_pct\":0,\"rate_down_kbit\":0,\"rate_up_kbit\":0,"
        "\"queue\":10,\"connection\":\"lan\",\"extra\":1}", NULL };
    for (int i = 0; bad[i]; i++)
        CU_ASSERT_EQUAL(netprofile_from_json(bad[i], &p, err, sizeof err), -1);
    CU_ASSERT_EQUAL(netprofile_parse_arg("mobile-3g", &p, err, sizeof err), 0);
    CU_ASSERT_EQUAL(p.rate_up_bps, 750000);
    CU_ASSERT_EQUAL(netprofile_parse_arg("wan", &p, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "mobile-3g"));
    /* an error names what it refuses on one line, whatever characters that holds (found by
     * fuzz_netprofile: a key "connecti\n" put a newline into the message) */
    CU_ASSERT_EQUAL(netprofile_from_json("{\"name\":\"wan\",\"rtt_ms\":50,\"connecti\\n\":\"w\"}", &p, err,
                                         sizeof err), -1);
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "connecti\\x0a"));
    CU_ASSERT_EQUAL(netprofile_parse_arg("w\nan", &p, err, sizeof err), -1);
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
}

static void test_netprofile__units(void)
{
    uint64_t bps;
    double f;
    CU_ASSERT_EQUAL(netprofile_parse_rate("20Mbit", &bps), 0);
    CU_ASSERT_EQUAL(bps, 20000000);
    CU_ASSERT_EQUAL(netprofile_parse_rate("1.5mbit/s", &bps), 0);
    CU_ASSERT_EQUAL(bps, 1500000);
    CU_ASSERT_EQUAL(netprofile_parse_rate("512kbit", &bps), 0);
    CU_ASSERT_EQUAL(bps, 512000);
    CU_ASSERT_EQUAL(netprofile_parse_rate("512", &bps), -1);
    CU_ASSERT_EQUAL(netprofile_parse_rate("5MB", &bps), -1);
    CU_ASSERT_EQUAL(netprofile_parse_loss("1%", &f), 0);
    CU_ASSERT_DOUBLE_EQUAL(f, 0.01, 1e-12);
    CU_ASSERT_EQUAL(netprofile_parse_loss("0", &f), 0);
    CU_ASSERT_EQUAL(netprofile_parse_loss("1", &f), -1);
}

static void test_netprofile__conn_derive(void)
{
    struct netprofile p;
    netprofile_lan(&p);
    CU_ASSERT_EQUAL(netprofile_conn_derive(&p), NETPROFILE_CONN_LAN);
    p.rate_down_bps = 56000;
    CU_ASSERT_EQUAL(netprofile_conn_derive(&p), NETPROFILE_CONN_MODEM);
    p.rate_down_bps = 1000000;
    CU_ASSERT_EQUAL(netprofile_conn_derive(&p), NETPROFILE_CONN_BROADBAND_LOW);
    p.rate_down_bps = 5000000;
    CU_ASSERT_EQUAL(netprofile_conn_derive(&p), NETPROFILE_CONN_BROADBAND_HIGH);
    p.rtt_us = 600000;
    CU_ASSERT_EQUAL(netprofile_conn_derive(&p), NETPROFILE_CONN_SATELLITE);
    p.rate_down_bps = 0;
    p.rtt_us = 100000;
    CU_ASSERT_EQUAL(netprofile_conn_derive(&p), NETPROFILE_CONN_WAN);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_netprofile__builtins), UNIT_TEST(test_netprofile__yaml_name),
        UNIT_TEST(test_netprofile__yaml_mapping), UNIT_TEST(test_netprofile__yaml_errors),
        UNIT_TEST(test_netprofile__json_round_trip), UNIT_TEST(test_netprofile__json_refused),
        UNIT_TEST(test_netprofile__units), UNIT_TEST(test_netprofile__conn_derive), UNIT_END,
    };
    return unit_run("netprofile", tests, NULL, NULL);
}

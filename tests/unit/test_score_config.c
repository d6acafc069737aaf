/* test_score_config.c -- the plan's score: and thresholds: sections, their errors, and JSON. */
#include "unit.h"

#include "controller/score/score_config.h"

#include <stdlib.h>
#include <string.h>

static int parse(const char *yaml, const char *const *timers, struct score_config *c, char *err, size_t len)
{
    char yerr[YDOC_ERR_LEN];
    struct ydoc *doc = ydoc_load_string("plan.yaml", yaml, strlen(yaml), yerr, sizeof yerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    int rc = score_config_parse(doc, ydoc_get(doc->root, "score"), ydoc_get(doc->root, "thresholds"),
                                timers, c, err, len);
    ydoc_free(doc);
    return rc;
}

static void expect_error(const char *yaml, const char *where, const char *what)
{
    static const char *const timers[] = { "app_start", "vsi", NULL };
    struct score_config c;
    char err[512] = "";
    CU_ASSERT_EQUAL(parse(yaml, timers, &c, err, sizeof err), -1);
    if (!strstr(err, where) || !strstr(err, what))
        fprintf(stderr, "\n    got: %s\n    want: %s ... %s\n", err, where, what);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, where));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, what));
    score_config_free(&c);
}

static void test_score_config__defaults_and_overrides(void)
{
    struct score_config c;
    char err[512];
    CU_ASSERT_EQUAL_FATAL(parse("name: x\n", NULL, &c, err, sizeof err), 0);
    CU_ASSERT_EQUAL(c.params.baseline_count, 15);
    CU_ASSERT_EQUAL(c.params.baseline_drop, 2);
    CU_ASSERT_DOUBLE_EQUAL(c.params.threshold_offset_ms, 1000, 0);
    CU_ASSERT_EQUAL(c.params.window_base, 5);
    CU_ASSERT_DOUBLE_EQUAL(c.params.window_frac, 0.4, 0);
    CU_ASSERT_DOUBLE_EQUAL(c.params.trim_frac, 0.05, 0);
    CU_ASSERT_STRING_EQUAL(c.params.measure, "vsi");
    CU_ASSERT_EQUAL(c.threshold_count, 0);
    score_config_free(&c);
    CU_ASSERT_EQUAL_FATAL(parse("score: {baseline_count: 20, baseline_drop: 3, threshold_offset_ms: 1500,\n"
                                "        window_base: 7, window_frac: 0.5, trim_frac: 0.1, trim_min: 2,\n"
                                "        consecutive: 3, measure: task, min_samples: 50,\n"
                                "        stuck_max_pct: 0.5, lag_p99_max_ms: 20}\n"
                                "thresholds: [\"smax >= 40\", \"p95(app_start) < 3000\", \"stuck_pct < 1\",\n"
                                "             \"kbps_per_session < 200\", \"avg(vsi)<=2500\", \"logon_p95 < 9000\"]\n",
                                NULL, &c, err, sizeof err), 0);
    CU_ASSERT_EQUAL(c.params.baseline_count, 20);
    CU_ASSERT_EQUAL(c.params.consecutive, 3);
    CU_ASSERT_DOUBLE_EQUAL(c.params.lag_p99_max_ms, 20, 0);
    CU_ASSERT_STRING_EQUAL(c.params.measure, "task");
    CU_ASSERT_EQUAL_FATAL(c.threshold_count, 6);
    CU_ASSERT_STRING_EQUAL(c.thresholds[1].metric, "p95");
    CU_ASSERT_STRING_EQUAL(c.thresholds[1].timer, "app_start");
    CU_ASSERT_EQUAL(c.thresholds[1].op, THR_LT);
    CU_ASSERT_DOUBLE_EQUAL(c.thresholds[1].value, 3000, 0);
    CU_ASSERT_EQUAL(c.thresholds[4].op, THR_LE);
    score_config_free(&c);
}

static void test_score_config__errors_name_position(void)
{
    expect_error("score:\n  baseline_cont: 15\n", "plan.yaml:2:3", "baseline_cont");
    expect_error("score:\n  baseline_drop: 15\n", "plan.yaml:2:3", "baseline_drop must be smaller");
    expect_error("score:\n  trim_frac: 0.7\n", "plan.yaml:2:14", "");
    expect_error("score:\n  window_frac: lots\n", "plan.yaml:2:16", "");
    expect_error("thresholds:\n  - smax >= 40\n  - p96(app_start) < 3000\n", "plan.yaml:3:5", "unknown metric 'p96'");
    expect_error("thresholds: [\"smaxx >= 40\"]\n", "plan.yaml:1:14", "unknown metric 'smaxx'");
    expect_error("thresholds: [\"p95(app_strat) < 3000\"]\n", "plan.yaml:1:14", "no timer or measure named 'app_strat'");
    expect_error("thresholds: [\"p95 < 3000\"]\n", "1:14", "needs a timer");
    expect_error("thresholds: [\"smax(vsi) > 3\"]\n", "1:14", "takes no timer");
    expect_error("thresholds: [\"smax ~ 3\"]\n", "1:14", "expected a comparison");
    expect_error("thresholds: [\"smax >= forty\"]\n", "1:14", "expected a number");
    expect_error("thresholds: [\"smax >= 40 sessions\"]\n", "1:14", "unexpected text");
    expect_error("thresholds: \"smax >= 40\"\n", "1:13", "thresholds");
}

static void test_score_config__json_round_trip(void)
{
    struct score_config c, d;
    char err[512];
    CU_ASSERT_EQUAL_FATAL(parse("score: {window_frac: 0.33, trim_min: 0, measure: \"my \\\"vsi\\\"\"}\n"
                                "thresholds: [\"p95(app_start) < 3000.5\", \"smax >= 40\"]\n", NULL, &c, err, sizeof err), 0);
    char *json = score_config_to_json(&c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"version\":\"" SCORE_VERSION "\""));
    /* numbers as written, and still exact */
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"window_frac\":0.33,\"trim_frac\":0.05,"));
    CU_ASSERT_EQUAL_FATAL(score_config_from_json(json, &d, err, sizeof err), 0);
    CU_ASSERT_EQUAL(memcmp(&c.params, &d.params, sizeof c.params), 0);
    CU_ASSERT_EQUAL_FATAL(d.threshold_count, 2);
    CU_ASSERT_STRING_EQUAL(d.thresholds[0].text, "p95(app_start) < 3000.5");
    CU_ASSERT_DOUBLE_EQUAL(d.thresholds[0].value, 3000.5, 0);
    free(json);
    score_config_free(&d);
    c.params.window_frac = 1.0 / 3;        /* needs all 17 digits: none lost */
    json = score_config_to_json(&c);
    CU_ASSERT_EQUAL_FATAL(score_config_from_json(json, &d, err, sizeof err), 0);
    CU_ASSERT_EQUAL(d.params.window_frac, 1.0 / 3);
    free(json);
    score_config_free(&c);
    score_config_free(&d);
    CU_ASSERT_EQUAL(score_config_from_json(NULL, &d, err, sizeof err), 0);
    CU_ASSERT_EQUAL(d.params.baseline_count, 15);
    CU_ASSERT_EQUAL(score_config_from_json("{\"baseline_count\":15,\"bogus\":1}", &d, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bogus"));
    score_config_free(&d);
    CU_ASSERT_EQUAL(score_config_from_json("{\"thresholds\":[\"nope > 1\"]}", &d, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown metric"));
    score_config_free(&d);
    CU_ASSERT_EQUAL(score_config_from_json("{\"baseline_count\":", &d, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not valid JSON"));
    score_config_free(&d);
}

/* A tampered runs.score_params (issue 11, finding 1): a \\u escape followed by 40,000 bytes
 * overflowed the hand-written parser's buffer; now a clean error, whatever the bytes. */
static void test_score_config__tampered_json_is_an_error(void)
{
    struct score_config d;
    char err[512];
    size_t n = 40000;
    char *json = malloc(n + 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    strcpy(json, "{\"measure\":\"\\u1");
    size_t l = strlen(json);
    memset(json + l, 'A', n);
    strcpy(json + l + n, "\"}");
    CU_ASSERT_EQUAL(score_config_from_json(json, &d, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "measure"));
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
    score_config_free(&d);
    static const char *const bad[] = {
        "{\"measure\":\"\\u1\"}", "{\"measure\":\"\\u12", "{\"measure\":\"\\ud800\"}",
        "{\"measure\":\"v\",\"measure\":\"w\"}", "{\"baseline_count\":1e999}",
        "{\"baseline_count\":99999999999999999999999}", "[1,2]", "\"x\"", "{\"thresholds\":[1]}",
        "{\"measure\":\"a\\u0000b\"}", "{\"window_frac\":-0.0000001}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        CU_ASSERT_EQUAL(score_config_from_json(bad[i], &d, err, sizeof err), -1);
        CU_ASSERT(err[0] != 0);
        score_config_free(&d);
    }
    /* every prefix of a valid document: an error or the defaults, never a crash */
    struct score_config c;
    score_config_init(&c);
    char *ok = score_config_to_json(&c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ok);
    for (size_t k = 1; k < strlen(ok); k++) {
        char save = ok[k];
        ok[k] = 0;
        CU_ASSERT_EQUAL(score_config_from_json(ok, &d, err, sizeof err), -1);
        score_config_free(&d);
        ok[k] = save;
    }
    free(ok);
    free(json);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_score_config__defaults_and_overrides),
        UNIT_TEST(test_score_config__errors_name_position),
        UNIT_TEST(test_score_config__json_round_trip),
        UNIT_TEST(test_score_config__tampered_json_is_an_error),
        UNIT_END,
    };
    return unit_run("score_config", tests, NULL, NULL);
}

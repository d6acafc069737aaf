/* test_promtext.c -- the Prometheus text format parser: names, labels and their escapes, values
 * (NaN, +Inf, exponents), timestamps, comments, CRLF, and malformed lines counted and skipped. */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "controller/run/promtext.h"

struct got {
    struct promtext_sample s[16];
    size_t n;
    size_t stop_after;             /* 0: never stop */
};

static int collect(void *ctx, const struct promtext_sample *s)
{
    struct got *g = ctx;
    if (g->n < 16)
        g->s[g->n] = *s;
    g->n++;
    return g->stop_after && g->n >= g->stop_after;
}

static void test_promtext__samples(void)
{
    static const char text[] =
        "# HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.\n"
        "# TYPE node_cpu_seconds_total counter\n"
        "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 329.43\n"
        "  node_load1 0.5\n"
        "node_memory_MemTotal_bytes 1.6777216e+07\r\n"
        "weird{a=\"x\\\"y\\\\z\\n\" , b = \"\",} -Inf 1700000000123\n"
        "nan_metric NaN\n"
        "\n"
        "up{job=\"node\"} +Inf\n"
        "# EOF\n";
    struct got g = { 0 };
    struct promtext_stats st;
    CU_ASSERT_EQUAL(promtext_parse(text, sizeof text - 1, collect, &g, &st), 0);
    CU_ASSERT_EQUAL_FATAL(g.n, 6);
    CU_ASSERT_EQUAL(st.malformed, 0);
    CU_ASSERT_STRING_EQUAL(g.s[0].name, "node_cpu_seconds_total");
    CU_ASSERT_EQUAL(g.s[0].nlabels, 2);
    CU_ASSERT_STRING_EQUAL(promtext_label(&g.s[0], "mode"), "idle");
    CU_ASSERT_PTR_NULL(promtext_label(&g.s[0], "device"));
    CU_ASSERT_DOUBLE_EQUAL(g.s[0].value, 329.43, 1e-9);
    CU_ASSERT_FALSE(g.s[0].has_ts);
    CU_ASSERT_DOUBLE_EQUAL(g.s[1].value, 0.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(g.s[2].value, 16777216, 1e-6);
    CU_ASSERT_STRING_EQUAL(promtext_label(&g.s[3], "a"), "x\"y\\z\n");
    CU_ASSERT_STRING_EQUAL(promtext_label(&g.s[3], "b"), "");
    CU_ASSERT(isinf(g.s[3].value) && g.s[3].value < 0);
    CU_ASSERT_TRUE(g.s[3].has_ts);
    CU_ASSERT_EQUAL(g.s[3].ts_ms, 1700000000123LL);
    CU_ASSERT(isnan(g.s[4].value));
    CU_ASSERT(isinf(g.s[5].value) && g.s[5].value > 0);
}

static void test_promtext__malformed_lines_skipped(void)
{
    static const char *const bad[] = {
        "no_value\n", "1name 3\n", "m{a=\"x} 1\n", "m{a=x} 1\n", "m{a=\"x\"\n", "m 1 2 3\n", "m 0x10\n",
        "m inf\n", "m 1 12.5\n", "m{a=\"\\q\"} 1\n", "m{=\"x\"} 1\n", "m{a:b=\"x\"} 1\n", "m{a=\"1\"}} 2\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "good 1\n%sgood 2", bad[i]);
        struct got g = { 0 };
        struct promtext_stats st;
        promtext_parse(text, strlen(text), collect, &g, &st);
        CU_ASSERT_EQUAL(g.n, 2);
        CU_ASSERT_EQUAL(st.malformed, 1);
        CU_ASSERT_EQUAL(st.first_bad_line, 2);
        if (g.n != 2 || st.malformed != 1)
            fprintf(stderr, "\n  line accepted: %s", bad[i]);
    }
}

static void test_promtext__bounds(void)
{
    char text[2048];
    /* a label value longer than PROMTEXT_VALUE_MAX, too many labels: malformed, not truncated */
    int n = snprintf(text, sizeof text, "m{a=\"");
    for (int i = 0; i < PROMTEXT_VALUE_MAX + 5; i++)
        text[n++] = 'v';
    n += snprintf(text + n, sizeof text - (size_t)n, "\"} 1\nm{");
    for (int i = 0; i <= PROMTEXT_LABELS_MAX; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "l%d=\"x\",", i);
    n += snprintf(text + n, sizeof text - (size_t)n, "} 1\nlast 7");
    struct got g = { 0 };
    struct promtext_stats st;
    promtext_parse(text, (size_t)n, collect, &g, &st);
    CU_ASSERT_EQUAL(st.malformed, 2);
    CU_ASSERT_EQUAL_FATAL(g.n, 1);
    CU_ASSERT_DOUBLE_EQUAL(g.s[0].value, 7, 0);
    /* the text need not end in NUL: a length that cuts the last value parses what it holds */
    g.n = 0;
    promtext_parse("a 12345", 4, collect, &g, NULL);
    CU_ASSERT_EQUAL_FATAL(g.n, 1);
    CU_ASSERT_DOUBLE_EQUAL(g.s[0].value, 12, 0);
}

static void test_promtext__callback_stops(void)
{
    struct got g = { .stop_after = 2 };
    CU_ASSERT_EQUAL(promtext_parse("a 1\nb 2\nc 3\n", 12, collect, &g, NULL), 1);
    CU_ASSERT_EQUAL(g.n, 2);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_promtext__samples),
        UNIT_TEST(test_promtext__malformed_lines_skipped),
        UNIT_TEST(test_promtext__bounds),
        UNIT_TEST(test_promtext__callback_stops),
        UNIT_END,
    };
    return unit_run("promtext", tests, NULL, NULL);
}

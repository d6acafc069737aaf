/* test_standalone.c -- the standalone CLI helpers: user-name patterns ({n}, {n:03}) and
 * durations (ms, s, m, h), including the malformed inputs that must be refused. */
#include <string.h>

#include "agent/front/standalone_opts.h"
#include "unit.h"

/** {n:03} pads, {n} does not, text around is kept; bad patterns and overflows are refused. */
static void test_standalone__expand_user(void)
{
    char out[32];
    CU_ASSERT_EQUAL(standalone_expand_user("simuser{n:03}", 7, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "simuser007");
    CU_ASSERT_EQUAL(standalone_expand_user("u{n}x", 1234, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "u1234x");
    CU_ASSERT_EQUAL(standalone_expand_user("{n:02}", 123, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "123");
    CU_ASSERT_EQUAL(standalone_expand_user("fixed", 5, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "fixed");
    CU_ASSERT_EQUAL(standalone_expand_user("u{x}", 1, out, sizeof out), -1);
    CU_ASSERT_EQUAL(standalone_expand_user("u{n:3}", 1, out, sizeof out), -1);
    CU_ASSERT_EQUAL(standalone_expand_user("u{n", 1, out, sizeof out), -1);
    char tiny[6];
    CU_ASSERT_EQUAL(standalone_expand_user("user{n:03}", 1, tiny, sizeof tiny), -1);
    CU_ASSERT_EQUAL(standalone_expand_user("abcde", 1, tiny, sizeof tiny), 0);
}

/** Units, fractions and plain seconds; junk and negatives are -1. */
static void test_standalone__durations(void)
{
    CU_ASSERT_EQUAL(standalone_parse_duration_ms("60s"), 60000);
    CU_ASSERT_EQUAL(standalone_parse_duration_ms("500ms"), 500);
    CU_ASSERT_EQUAL(standalone_parse_duration_ms("2m"), 120000);
    CU_ASSERT_EQUAL(standalone_parse_duration_ms("1h"), 3600000);
    CU_ASSERT_EQUAL(standalone_parse_duration_ms("1.5s"), 1500);
    CU_ASSERT_EQUAL(standalone_parse_duration_ms("10"), 10000);
    CU_ASSERT_EQUAL(standalone_parse_duration_ms("0s"), 0);
    CU_ASSERT_EQUAL(standalone_parse_duration_ms("s"), -1);
    CU_ASSERT_EQUAL(standalone_parse_duration_ms("10x"), -1);
    CU_ASSERT_EQUAL(standalone_parse_duration_ms("-1s"), -1);
    CU_ASSERT_EQUAL(standalone_parse_duration_ms(""), -1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_standalone__expand_user), UNIT_TEST(test_standalone__durations), UNIT_END,
    };
    return unit_run("standalone", tests, NULL, NULL);
}

/* test_names.c -- the safe character set of timer, measure and region names. */
#include "unit.h"

#include "common/names.h"

#include <string.h>

static void test_names__safe_and_unsafe(void)
{
    CU_ASSERT_TRUE(name_is_safe("vsi"));
    CU_ASSERT_TRUE(name_is_safe("app_start"));
    CU_ASSERT_TRUE(name_is_safe("Zip-High.2"));
    CU_ASSERT_FALSE(name_is_safe(NULL));
    CU_ASSERT_FALSE(name_is_safe(""));
    static const char *const bad[] = { "a b", "x\"}", "<script>", "a\nb", "a\rb", "=1+1", "a,b", "a/b",
                                       "\xc3\xa9t\xc3\xa9", "a\x01", "a'b", "a;b", "a\\b" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CU_ASSERT_FALSE(name_is_safe(bad[i]));
}

static void test_names__length_limit(void)
{
    char s[RESULTS_NAME_LEN + 1];
    memset(s, 'a', sizeof s - 1);
    s[RESULTS_NAME_LEN - 1] = 0;
    CU_ASSERT_TRUE(name_is_safe(s));          /* RESULTS_NAME_LEN - 1 characters */
    s[RESULTS_NAME_LEN - 1] = 'a';
    s[RESULTS_NAME_LEN] = 0;
    CU_ASSERT_FALSE(name_is_safe(s));
}

/** File-name components from outside never form a path (user patterns such as "../x"). */
static void test_names__sanitize(void)
{
    char out[16];
    static const struct { const char *in, *out; } cases[] = {
        { "../../etc/x",          "_._.._etc_x" },
        { "simuser001",           "simuser001" },
        { ".hidden",              "_hidden" },
        { "",                     "_" },
        { "a/b\\c\nd e",          "a_b_c_d_e" },
        { "0123456789abcdefghij", "0123456789abcde" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        name_sanitize(cases[i].in, out, sizeof out);
        CU_ASSERT_STRING_EQUAL(out, cases[i].out);
    }
    CU_ASSERT_PTR_NULL(strchr(out, '/'));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_names__safe_and_unsafe),
        UNIT_TEST(test_names__length_limit),
        UNIT_TEST(test_names__sanitize),
        UNIT_END,
    };
    return unit_run("names", tests, NULL, NULL);
}

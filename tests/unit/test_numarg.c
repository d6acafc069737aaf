/* test_numarg.c -- the checked option-number parser every binary uses: whole text, range,
 * overflow, and the one-line error naming the option and the value. */
#include "unit.h"

#include "common/numarg.h"

#include <string.h>

static void test_numarg__ulong_accepts(void)
{
    char err[128] = "";
    unsigned long v = 0;
    CU_ASSERT_EQUAL(numarg_ulong("--users", "42", 1, 100, &v, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v, 42);
    CU_ASSERT_EQUAL(numarg_ulong("--users", "1", 1, 100, &v, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v, 1);
    CU_ASSERT_EQUAL(numarg_ulong("--users", "100", 1, 100, &v, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v, 100);
}

static void test_numarg__ulong_refuses(void)
{
    const char *bad[] = { "", "0", "101", "-1", "+5", " 5", "5 ", "5x", "0x10", "1e2",
                          "99999999999999999999999", NULL };
    char err[128];
    unsigned long v = 7;
    for (int i = 0; bad[i]; i++) {
        err[0] = '\0';
        CU_ASSERT_EQUAL(numarg_ulong("--users", bad[i], 1, 100, &v, err, sizeof err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "--users: expected an integer in [1, 100]"));
        CU_ASSERT_EQUAL(v, 7);
    }
    CU_ASSERT_EQUAL(numarg_ulong("--users", NULL, 1, 100, &v, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "--users: expected an integer in [1, 100], got ''");
    CU_ASSERT_EQUAL(numarg_ulong("--users", "5x", 1, 100, &v, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "--users: expected an integer in [1, 100], got '5x'");
}

static void test_numarg__double(void)
{
    char err[128];
    double d = 0;
    CU_ASSERT_EQUAL(numarg_double("--work-scale", "0.5", 0.001, 1000, &d, err, sizeof err), 0);
    CU_ASSERT_DOUBLE_EQUAL(d, 0.5, 1e-12);
    CU_ASSERT_EQUAL(numarg_double("--x", "-2.5", -10, 10, &d, err, sizeof err), 0);
    CU_ASSERT_DOUBLE_EQUAL(d, -2.5, 1e-12);
    const char *bad[] = { "", "abc", "1.5s", " 1", "nan", "inf", "1e999", "0.0001", "1001", NULL };
    for (int i = 0; bad[i]; i++) {
        d = 3;
        CU_ASSERT_EQUAL(numarg_double("--work-scale", bad[i], 0.001, 1000, &d, err, sizeof err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "--work-scale: expected a number in [0.001, 1000], got '"));
        CU_ASSERT_DOUBLE_EQUAL(d, 3, 0);
    }
}

static void test_numarg__size(void)
{
    char err[128];
    unsigned long w = 0, h = 0;
    CU_ASSERT_EQUAL(numarg_size("--size", "1280x800", 640, 480, 4096, 4096, &w, &h, err, sizeof err), 0);
    CU_ASSERT_EQUAL(w, 1280);
    CU_ASSERT_EQUAL(h, 800);
    const char *bad[] = { "1280", "1280x", "x800", "1280x800x", "1280x800 ", "-1x800", "639x480",
                          "640x4097", "12345678901234567890123x800", NULL };
    for (int i = 0; bad[i]; i++) {
        w = h = 9;
        CU_ASSERT_EQUAL(numarg_size("--size", bad[i], 640, 480, 4096, 4096, &w, &h, err, sizeof err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "--size: expected WxH between 640x480 and 4096x4096, got '"));
        CU_ASSERT_EQUAL(w, 9);
        CU_ASSERT_EQUAL(h, 9);
    }
}

/* The value is quoted with its control characters escaped: the error stays one printable line
 * (fuzz_args found a newline in the value echoed raw). */
static void test_numarg__error_is_one_line(void)
{
    char err[256];
    unsigned long v, w, h;
    double d;
    CU_ASSERT_EQUAL(numarg_ulong("--n", "5\nx", 1, 9, &v, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "--n: expected an integer in [1, 9], got '5\\x0ax'");
    CU_ASSERT_EQUAL(numarg_double("--x", "1\r\x7f", 0, 2, &d, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "--x: expected a number in [0, 2], got '1\\x0d\\x7f'");
    CU_ASSERT_EQUAL(numarg_size("--size", "8\nx8", 1, 1, 9, 9, &w, &h, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "--size: expected WxH between 1x1 and 9x9, got '8\\x0ax8'");
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_numarg__ulong_accepts), UNIT_TEST(test_numarg__ulong_refuses),
        UNIT_TEST(test_numarg__double), UNIT_TEST(test_numarg__size),
        UNIT_TEST(test_numarg__error_is_one_line), UNIT_END,
    };
    return unit_run("numarg", tests, NULL, NULL);
}

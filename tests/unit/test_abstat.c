/* test_abstat.c -- A/B statistics against values worked out by hand (no SciPy here):
 *  - exact Mann-Whitney: {1,2,3} vs {4,5,6}: U = 0, only 2 of C(6,3) = 20 arrangements are as
 *    extreme -> p = 0.1; {1,2,3,4} vs {5..8}: 2/70 = 0.0285714; {1,2,3,5} vs {4,6,7,8}: U = 1,
 *    arrangements with U <= 1 or U >= 15: 4 of 70 -> 0.0571429;
 *  - ties, normal approximation: {1,2,2,3} vs {2,3,4,5}: ranks 1, 3, 3, 3, 5.5, 5.5, 7, 8;
 *    R_A = 12.5, U_A = 12.5 - 10 = 2.5, mean 8, var = 16/12 * (9 - (24 + 6) / 56) = 11.285714,
 *    z = (5.5 - 0.5) / 3.359422 = 1.488351, p = erfc(z / sqrt 2) = 0.136658. */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "controller/score/abstat.h"

static void test_abstat__median(void)
{
    const double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };
    CU_ASSERT_DOUBLE_EQUAL(abstat_median(odd, 3), 2.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(abstat_median(even, 4), 2.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(odd[0], 3.0, 0);                 /* input untouched */
    CU_ASSERT(isnan(abstat_median(odd, 0)));
}

static void test_abstat__mann_whitney_exact(void)
{
    double u;
    const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
    CU_ASSERT_DOUBLE_EQUAL(abstat_mann_whitney(a, 3, b, 3, &u), 0.1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(u, 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(abstat_mann_whitney(b, 3, a, 3, &u), 0.1, 1e-12);   /* symmetric */
    CU_ASSERT_DOUBLE_EQUAL(u, 9.0, 0);
    const double c[] = { 1, 2, 3, 4 }, d[] = { 5, 6, 7, 8 };
    CU_ASSERT_DOUBLE_EQUAL(abstat_mann_whitney(c, 4, d, 4, &u), 2.0 / 70, 1e-12);
    const double e[] = { 1, 2, 3, 5 }, f[] = { 4, 6, 7, 8 };
    CU_ASSERT_DOUBLE_EQUAL(abstat_mann_whitney(e, 4, f, 4, &u), 4.0 / 70, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(u, 1.0, 0);
    const double g[] = { 1, 4, 6, 8, 9 }, h[] = { 2, 3, 5, 7, 10 };       /* U = 13 vs mean 12.5 */
    CU_ASSERT_DOUBLE_EQUAL(abstat_mann_whitney(g, 5, h, 5, &u), 1.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(abstat_mann_whitney(g, 0, h, 5, &u), 1.0, 0);
}

static void test_abstat__mann_whitney_ties(void)
{
    double u;
    const double a[] = { 1, 2, 2, 3 }, b[] = { 2, 3, 4, 5 };
    CU_ASSERT_DOUBLE_EQUAL(abstat_mann_whitney(a, 4, b, 4, &u), 0.1366582, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(u, 2.5, 1e-12);
    const double same[] = { 7, 7, 7 };
    CU_ASSERT_DOUBLE_EQUAL(abstat_mann_whitney(same, 3, same, 3, &u), 1.0, 0);
    /* 30 vs 30 clearly apart (normal approximation, no ties): U = 0, z = (450 - 0.5) / sqrt(4575) */
    double x[30], y[30];
    for (int i = 0; i < 30; i++)
        x[i] = 1 + i * 0.01, y[i] = 2 + i * 0.01;
    double z = (450 - 0.5) / sqrt(30.0 * 30 * 61 / 12);
    CU_ASSERT_DOUBLE_EQUAL(abstat_mann_whitney(x, 30, y, 30, &u), erfc(z / sqrt(2)), 1e-15);
    CU_ASSERT(erfc(z / sqrt(2)) < 1e-9);
}

static void test_abstat__bootstrap(void)
{
    double lo, hi;
    const double a[] = { 1, 1, 1, 1, 1 }, b[] = { 6, 6, 6, 6, 6 };
    CU_ASSERT_EQUAL(abstat_bootstrap_diff(a, 5, b, 5, 1000, 1, 0.95, &lo, &hi), 0);
    CU_ASSERT_DOUBLE_EQUAL(lo, 5.0, 0);                      /* constant sides: no spread */
    CU_ASSERT_DOUBLE_EQUAL(hi, 5.0, 0);
    const double c[] = { 10, 11, 12, 13, 14, 15, 16 }, d[] = { 20, 22, 21, 25, 23, 24, 26 };
    CU_ASSERT_EQUAL(abstat_bootstrap_diff(c, 7, d, 7, 2000, 42, 0.95, &lo, &hi), 0);
    CU_ASSERT(lo <= 10.0 && 10.0 <= hi);                    /* observed diff of medians: 23 - 13 */
    CU_ASSERT(lo >= 20 - 16 && hi <= 26 - 10);               /* bounded by the extreme medians */
    double lo2, hi2;
    abstat_bootstrap_diff(c, 7, d, 7, 2000, 42, 0.95, &lo2, &hi2);
    CU_ASSERT_DOUBLE_EQUAL(lo, lo2, 0);                      /* seeded: reproducible */
    CU_ASSERT_DOUBLE_EQUAL(hi, hi2, 0);
    CU_ASSERT_EQUAL(abstat_bootstrap_diff(c, 0, d, 7, 10, 1, 0.95, &lo, &hi), -1);
}

static void test_abstat__verdict(void)
{
    struct abstat_result r;
    char buf[128];
    double a[12], b[12];
    for (int i = 0; i < 12; i++)
        a[i] = 20 + (i % 4) * 0.1, b[i] = 28.2 + (i % 4) * 0.1;
    CU_ASSERT_EQUAL(abstat_compare(a, 12, b, 12, &r), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.diff, 8.2, 1e-9);
    CU_ASSERT(r.significant);
    CU_ASSERT(r.p < 0.001);
    abstat_verdict(&r, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "B slower by 8.2 s, 95 % CI 8.05-8.35 s, p < 0.001");
    CU_ASSERT_EQUAL(abstat_compare(b, 12, a, 12, &r), 0);
    abstat_verdict(&r, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "B faster by 8.2 s"));
    const double c[] = { 1, 4, 6, 8, 9 }, d[] = { 2, 3, 5, 7, 10 };
    CU_ASSERT_EQUAL(abstat_compare(c, 5, d, 5, &r), 0);
    CU_ASSERT(!r.significant);
    abstat_verdict(&r, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "no significant difference (p = 1.000)");
    CU_ASSERT_EQUAL(abstat_compare(c, 0, d, 5, &r), -1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_abstat__median), UNIT_TEST(test_abstat__mann_whitney_exact),
        UNIT_TEST(test_abstat__mann_whitney_ties), UNIT_TEST(test_abstat__bootstrap),
        UNIT_TEST(test_abstat__verdict), UNIT_END,
    };
    return unit_run("abstat", tests, NULL, NULL);
}

/* test_clock.c -- the monotonic and wall clocks and ISO 8601 formatting. */
#include "unit.h"

#include "common/clock.h"

static void test_clock__monotonic_never_goes_back(void)
{
    uint64_t prev = clock_now_us();
    int backwards = 0;
    for (int i = 0; i < 100000; i++) {
        uint64_t now = clock_now_us();
        backwards += now < prev;
        prev = now;
    }
    CU_ASSERT_EQUAL(backwards, 0);
}

static void test_clock__wall_is_epoch_microseconds(void)
{
    uint64_t w = clock_wall_us();
    CU_ASSERT_TRUE(w > 1600000000ull * 1000000);     /* after 2020 */
    CU_ASSERT_TRUE(w < 4102444800ull * 1000000);     /* before 2100 */
}

static void test_clock__format_iso(void)
{
    char buf[32];
    CU_ASSERT_STRING_EQUAL(clock_format_iso(0, buf, sizeof buf), "1970-01-01T00:00:00Z");
    CU_ASSERT_STRING_EQUAL(clock_format_iso(1700000000999999ull, buf, sizeof buf), "2023-11-14T22:13:20Z");
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_clock__monotonic_never_goes_back),
        UNIT_TEST(test_clock__wall_is_epoch_microseconds),
        UNIT_TEST(test_clock__format_iso),
        UNIT_END,
    };
    return unit_run("clock", tests, NULL, NULL);
}

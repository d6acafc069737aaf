/* test_clock.c -- the monotonic and wall clocks and UTC date formatting. */
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

static void test_clock__format_utc(void)
{
    char buf[32];
    CU_ASSERT_STRING_EQUAL(clock_format_utc(0, "%Y-%m-%dT%H:%M:%SZ", buf, sizeof buf), "1970-01-01T00:00:00Z");
    CU_ASSERT_STRING_EQUAL(clock_format_utc(1700000000999999ull, "%Y-%m-%d %H:%M:%S", buf, sizeof buf),
                           "2023-11-14 22:13:20");
    CU_ASSERT_STRING_EQUAL(clock_format_utc(1700000000999999ull, "%m-%d", buf, sizeof buf), "11-14");
}

/* A text longer than the buffer gives NULL and an empty buffer, never a cut or unterminated one. */
static void test_clock__format_utc_too_long(void)
{
    char buf[8] = "xxxxxxx";
    CU_ASSERT_PTR_NULL(clock_format_utc(1700000000999999ull, "%Y-%m-%d %H:%M", buf, sizeof buf));
    CU_ASSERT_STRING_EQUAL(buf, "");
    CU_ASSERT_PTR_NULL(clock_format_utc(0, "%Y", buf, 0));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_clock__monotonic_never_goes_back),
        UNIT_TEST(test_clock__wall_is_epoch_microseconds),
        UNIT_TEST(test_clock__format_utc),
        UNIT_TEST(test_clock__format_utc_too_long),
        UNIT_END,
    };
    return unit_run("clock", tests, NULL, NULL);
}

/* test_looplag.c -- loop-lag percentiles (nearest rank), reset per take, whole-run totals, and
 * the live probe on a real event_base recording one sample per tick. */
#include <event2/event.h>

#include "agent/engine/looplag.h"
#include "unit.h"

/** 1..100 µs: p50 = 50, p99 = 99, max = 100; a second take is empty. */
static void test_looplag__percentiles_and_reset(void)
{
    struct looplag *l = looplag_new(NULL, 0);
    uint32_t p50, p99, max;
    for (uint32_t v = 100; v >= 1; v--)
        looplag_record(l, v);
    CU_ASSERT_EQUAL(looplag_take(l, &p50, &p99, &max), 100);
    CU_ASSERT_EQUAL(p50, 50);
    CU_ASSERT_EQUAL(p99, 99);
    CU_ASSERT_EQUAL(max, 100);
    CU_ASSERT_EQUAL(looplag_take(l, &p50, &p99, &max), 0);
    CU_ASSERT_EQUAL(p50 + p99 + max, 0);
    looplag_free(l);
}

/** One sample: every figure is that sample. */
static void test_looplag__single(void)
{
    struct looplag *l = looplag_new(NULL, 0);
    uint32_t p50, p99, max;
    looplag_record(l, 1234);
    looplag_take(l, &p50, &p99, &max);
    CU_ASSERT_EQUAL(p50, 1234);
    CU_ASSERT_EQUAL(p99, 1234);
    CU_ASSERT_EQUAL(max, 1234);
    looplag_free(l);
}

/** Whole-run totals survive takes; a histogram percentile is never below the truth and at most
 * an eighth above it (never above the max). */
static void test_looplag__totals(void)
{
    struct looplag *l = looplag_new(NULL, 0);
    uint32_t p50, p99, max;
    for (int i = 0; i < 990; i++)
        looplag_record(l, 100);
    for (int i = 0; i < 10; i++)
        looplag_record(l, 20000);
    looplag_take(l, &p50, &p99, &max);
    looplag_total(l, &p50, &p99, &max);
    CU_ASSERT(p50 >= 100 && p50 <= 100 * 9 / 8);
    CU_ASSERT(p99 >= 100 && p99 <= 100 * 9 / 8);   /* 99 % are 100 µs */
    CU_ASSERT_EQUAL(max, 20000);
    looplag_record(l, 20000);
    looplag_total(l, &p50, &p99, &max);
    CU_ASSERT(p99 > 10000 && p99 <= 20000);
    looplag_free(l);
}

/** Every value lands in a bucket whose bounds hold it, from 0 to UINT32_MAX. */
static void test_looplag__buckets(void)
{
    static const uint32_t v[] = { 0, 1, 15, 16, 17, 1999, 2000, 2047, 2048, 20000, 1u << 31, UINT32_MAX };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        struct looplag *l = looplag_new(NULL, 0);
        uint32_t p50, p99, max;
        looplag_record(l, v[i]);
        looplag_total(l, &p50, &p99, &max);
        CU_ASSERT_EQUAL(p50, v[i]);                 /* one sample: the top is capped by the max */
        looplag_record(l, v[i] / 2);
        looplag_record(l, v[i]);
        looplag_record(l, v[i]);
        looplag_total(l, &p50, &p99, &max);
        CU_ASSERT(p50 >= v[i] && (uint64_t)p50 <= (uint64_t)v[i] * 9 / 8 + 1);
        looplag_free(l);
    }
}

/** More samples than the buffer holds: still bounded, still a sensible p99. */
static void test_looplag__overflow(void)
{
    struct looplag *l = looplag_new(NULL, 0);
    uint32_t p50, p99, max;
    for (int i = 0; i < 20000; i++)
        looplag_record(l, (uint32_t)(i % 100));
    CU_ASSERT(looplag_take(l, &p50, &p99, &max) > 0);
    CU_ASSERT(p99 >= 90 && p99 <= 99);
    CU_ASSERT_EQUAL(max, 99);
    looplag_free(l);
}

/** The live probe ticks on the loop: each pass of the loop (it has no other event) runs one tick,
 * however late the machine lets it run, and each tick is one sample. */
static void test_looplag__live(void)
{
    struct event_base *base = event_base_new();
    struct looplag *l = looplag_new(base, 5);
    uint32_t p50, p99, max;
    for (int i = 0; i < 3; i++)
        event_base_loop(base, EVLOOP_ONCE);
    CU_ASSERT_EQUAL(looplag_take(l, &p50, &p99, &max), 3);
    CU_ASSERT(p50 <= p99 && p99 <= max);
    looplag_free(l);
    event_base_free(base);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_looplag__percentiles_and_reset), UNIT_TEST(test_looplag__single),
        UNIT_TEST(test_looplag__totals), UNIT_TEST(test_looplag__overflow),
        UNIT_TEST(test_looplag__buckets),
        UNIT_TEST(test_looplag__live), UNIT_END,
    };
    return unit_run("looplag", tests, NULL, NULL);
}

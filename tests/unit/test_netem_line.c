/* test_netem_line.c -- one direction of the emulated link, driven with made-up times: delay,
 * jitter without reordering, loss rate, serialisation at the rate and tail drop of the queue. */
#include "unit.h"

#include "agent/netem/line.h"

#define MS 1000000ull

static void test_netem_line__delay(void)
{
    struct netem_line l;
    netem_line_init(&l, 50 * MS, 0, 0, 0, 1000, 1);
    CU_ASSERT_EQUAL(netem_line_admit(&l, 1000, 100), 1000 + 50 * MS);
    CU_ASSERT_EQUAL(netem_line_admit(&l, 2000, 1500), 2000 + 50 * MS);
    CU_ASSERT_EQUAL(l.admitted, 2);
    CU_ASSERT_EQUAL(l.bytes, 1600);
}

static void test_netem_line__jitter_keeps_order(void)
{
    struct netem_line l;
    netem_line_init(&l, 100 * MS, 10 * MS, 0, 0, 1000, 7);
    uint64_t prev = 0, min = UINT64_MAX, max = 0;
    for (uint64_t i = 0; i < 10000; i++) {
        uint64_t now = i * 30 * MS, out = netem_line_admit(&l, now, 100);
        CU_ASSERT_FATAL(out != NETEM_LINE_DROP);
        CU_ASSERT(out >= prev);                      /* never reordered */
        CU_ASSERT(out >= now + 90 * MS);
        prev = out;
        uint64_t d = out - now;
        min = d < min ? d : min;
        max = d > max ? d : max;
    }
    CU_ASSERT(min < 91 * MS);                        /* spaced 30 ms apart: the whole range is used */
    CU_ASSERT(max > 109 * MS);
}

static void test_netem_line__loss_rate(void)
{
    struct netem_line l;
    netem_line_init(&l, 0, 0, 0.01, 0, 1000, 42);
    for (uint64_t i = 0; i < 200000; i++)
        netem_line_admit(&l, i, 100);
    CU_ASSERT(l.lost > 1700 && l.lost < 2300);      /* 2000 expected; sd ~44 */
    CU_ASSERT_EQUAL(l.lost + l.admitted, 200000);
}

static void test_netem_line__rate_and_queue(void)
{
    struct netem_line l;
    netem_line_init(&l, 10 * MS, 0, 0, 1000000, 10, 3);   /* 1 Mbit/s: 12 ms per 1500 bytes */
    uint64_t out[12];
    for (int i = 0; i < 12; i++)
        out[i] = netem_line_admit(&l, 0, 1500);
    CU_ASSERT_EQUAL(out[0], 12 * MS + 10 * MS);
    CU_ASSERT_EQUAL(out[1] - out[0], 12 * MS);
    /* queue of 10 packets: 10 admitted at once (the first already on the wire), then tail drop */
    CU_ASSERT_EQUAL(out[9] - out[0], 9 * 12 * MS);
    CU_ASSERT_EQUAL(out[10], NETEM_LINE_DROP);
    CU_ASSERT_EQUAL(l.queue_drops, 2);
    /* after the queue drained, the link is free again */
    CU_ASSERT_EQUAL(netem_line_admit(&l, 1000 * MS, 1500), 1000 * MS + 22 * MS);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_netem_line__delay), UNIT_TEST(test_netem_line__jitter_keeps_order),
        UNIT_TEST(test_netem_line__loss_rate), UNIT_TEST(test_netem_line__rate_and_queue), UNIT_END,
    };
    return unit_run("netem_line", tests, NULL, NULL);
}

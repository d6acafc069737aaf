/* test_agentgate.c -- who gives way among connections still authenticating: the oldest of the
 * newcomer's address at the per-address cap, the oldest of all at the table's cap, never one that
 * is kept (authenticated or resuming). */
#include "unit.h"

#include "controller/run/agentgate.h"

#include <stdint.h>

static struct agentgate g;
static int conns[2 * AGENTGATE_MAX_PENDING];

static void test_agentgate__oldest_of_the_address_gives_way(void)
{
    agentgate_init(&g, 3);
    CU_ASSERT_EQUAL(agentgate_add(&g, &conns[0], "10.0.0.1", 5), 0);
    CU_ASSERT_EQUAL(agentgate_add(&g, &conns[1], "10.0.0.1", 3), 0);
    CU_ASSERT_EQUAL(agentgate_add(&g, &conns[2], "10.0.0.2", 1), 0);
    CU_ASSERT_PTR_NULL(agentgate_victim(&g, "10.0.0.1"));
    CU_ASSERT_EQUAL(agentgate_add(&g, &conns[3], "10.0.0.1", 7), 0);
    /* 10.0.0.1 holds 3: its oldest (born 3) goes, not 10.0.0.2's older one */
    CU_ASSERT_PTR_EQUAL(agentgate_victim(&g, "10.0.0.1"), &conns[1]);
    CU_ASSERT_PTR_NULL(agentgate_victim(&g, "10.0.0.2"));
    agentgate_remove(&g, &conns[1]);
    CU_ASSERT_EQUAL(agentgate_count(&g), 3);
    agentgate_remove(&g, &conns[1]);   /* not there any more: nothing happens */
    CU_ASSERT_EQUAL(agentgate_count(&g), 3);
}

static void test_agentgate__the_oldest_of_all_gives_way_at_the_cap(void)
{
    agentgate_init(&g, 0);
    for (int i = 0; i < AGENTGATE_MAX_PENDING; i++)
        CU_ASSERT_EQUAL(agentgate_add(&g, &conns[i], i % 2 ? "a" : "b", 1000 - (uint64_t)i), 0);
    CU_ASSERT_EQUAL(agentgate_add(&g, &conns[AGENTGATE_MAX_PENDING], "c", 2000), -1);
    /* born 1000 - 255 is the oldest */
    CU_ASSERT_PTR_EQUAL(agentgate_victim(&g, "c"), &conns[AGENTGATE_MAX_PENDING - 1]);
}

static void test_agentgate__kept_connections_never_give_way(void)
{
    agentgate_init(&g, 2);
    agentgate_add(&g, &conns[0], "x", 1);
    agentgate_add(&g, &conns[1], "x", 2);
    CU_ASSERT_EQUAL(agentgate_keep(&g, &conns[0]), 0);
    CU_ASSERT_EQUAL(agentgate_keep(&g, &conns[0]), 0);
    CU_ASSERT_EQUAL(agentgate_keep(&g, &conns[9]), -1);
    CU_ASSERT_EQUAL(agentgate_unkept(&g), 1);
    CU_ASSERT_PTR_NULL(agentgate_victim(&g, "x"));   /* one unkept from x: under the cap of 2 */
    agentgate_add(&g, &conns[2], "x", 3);
    CU_ASSERT_PTR_EQUAL(agentgate_victim(&g, "x"), &conns[1]);
    /* a whole table of flood around a kept one: the kept one stays */
    agentgate_init(&g, 0);
    agentgate_add(&g, &conns[0], "x", 0);
    agentgate_keep(&g, &conns[0]);
    for (int i = 1; i <= 3 * AGENTGATE_MAX_PENDING; i++) {
        void *v;
        while ((v = agentgate_victim(&g, "x"))) {
            CU_ASSERT_PTR_NOT_EQUAL_FATAL(v, &conns[0]);
            agentgate_remove(&g, v);
        }
        CU_ASSERT_EQUAL_FATAL(agentgate_add(&g, &conns[1 + i % (2 * AGENTGATE_MAX_PENDING - 1)], "x", (uint64_t)i), 0);
    }
    CU_ASSERT_PTR_EQUAL(agentgate_at(&g, 0), &conns[0]);
    CU_ASSERT_EQUAL(agentgate_count(&g), AGENTGATE_MAX_PENDING + 1);
    agentgate_remove(&g, &conns[0]);
    CU_ASSERT_EQUAL(agentgate_unkept(&g), agentgate_count(&g));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_agentgate__oldest_of_the_address_gives_way),
        UNIT_TEST(test_agentgate__the_oldest_of_all_gives_way_at_the_cap),
        UNIT_TEST(test_agentgate__kept_connections_never_give_way),
        UNIT_END,
    };
    return unit_run("agentgate", tests, NULL, NULL);
}

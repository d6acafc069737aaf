/* test_resources.c -- the resource at the knee: figures over the window before the crossing,
 * the one that ran out against its limit, the most sessions of a run that never crossed, several
 * sources, and the lines score and the report print. */
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "controller/score/resources.h"

static struct store_target_metrics row(const char *src, uint64_t t_s, uint32_t active, double cpu, double mem_pct,
                                       double disk)
{
    struct store_target_metrics m;
    store_target_metrics_clear(&m);
    snprintf(m.source, sizeof m.source, "%s", src);
    m.t_us = t_s * 1000000;
    m.active = active;
    m.cpu_pct = cpu;
    m.mem_used_bytes = mem_pct;
    m.mem_avail_bytes = 100 - mem_pct;
    m.disk_busy_pct = disk;
    return m;
}

static struct store_target_metrics *rows_copy(const struct store_target_metrics *r, size_t n)
{
    struct store_target_metrics *c = malloc(n * sizeof *c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    memcpy(c, r, n * sizeof *c);
    return c;
}

static void test_resources__cpu_bound_at_the_knee(void)
{
    const struct store_target_metrics r[] = {
        row("h:9100", 100, 10, 30, 40, 5), row("h:9100", 105, 40, 60, 40, 10), row("h:9100", 110, 80, 96, 41, 12),
        row("h:9100", 115, 84, 98, 41, 12), row("h:9100", 125, 90, 100, 42, 14),
    };
    struct score_result sc = { .status = SCORE_OK, .reached = 1, .smax = 83, .cross_t_us = 116000000,
                               .cross_active = 84 };
    struct resources res;
    char line[512];
    resources_compute(rows_copy(r, 5), 5, &sc, &res);
    CU_ASSERT_EQUAL_FATAL(res.nsrc, 1);
    CU_ASSERT_TRUE(res.at_knee);
    /* the rows at 110 and 115 s are within 10 s before the crossing at 116 s */
    CU_ASSERT_DOUBLE_EQUAL(res.src[0].at[RESOURCE_CPU], (96 + 98) / 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(res.src[0].max[RESOURCE_CPU], 100, 1e-9);
    CU_ASSERT_EQUAL(res.src[0].bound, RESOURCE_CPU);
    CU_ASSERT(isnan(res.src[0].at[RESOURCE_NETWORK]));
    resources_line(&res, 0, line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "at the knee (84 active): CPU 97 %, memory 41 %, disk 12 % busy: CPU-bound");
    CU_ASSERT_STRING_EQUAL(resources_bound_label(&res), "CPU");
    resources_free(&res);
}

static void test_resources__nothing_ran_out_and_not_reached(void)
{
    const struct store_target_metrics r[] = {
        row("a:9100", 100, 2, 10, 20, 1), row("a:9100", 105, 14, 18, 20, 3), row("a:9100", 110, 14, 88, 21, 2),
        row("b:9182", 100, 2, 5, 95, 1), row("b:9182", 105, 14, 6, 97, 1),
    };
    struct score_result sc = { .status = SCORE_OK, .reached = 0, .smax = -1 };
    struct resources res;
    char line[512];
    resources_compute(rows_copy(r, 5), 5, &sc, &res);
    CU_ASSERT_FALSE(res.at_knee);
    CU_ASSERT_EQUAL(res.active, 14);
    CU_ASSERT_EQUAL_FATAL(res.nsrc, 2);
    CU_ASSERT_DOUBLE_EQUAL(res.src[0].at[RESOURCE_CPU], 53, 1e-9);
    CU_ASSERT_EQUAL(res.src[0].bound, -1);
    resources_line(&res, 0, line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "a:9100: at the most sessions (14 active; the index never crossed): CPU 53 %, "
                                 "memory 20 %, disk 2 % busy: no resource ran out");
    CU_ASSERT_EQUAL(res.src[1].bound, RESOURCE_MEMORY);
    CU_ASSERT_STRING_EQUAL(resources_bound_label(&res), "memory");
    resources_free(&res);
    resources_compute(NULL, 0, &sc, &res);
    CU_ASSERT_STRING_EQUAL(resources_bound_label(&res), "-");
    resources_line(&res, 0, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "not measured"));
    resources_free(&res);
}

/* A crossing with no row in the window before it takes the row nearest in time. */
static void test_resources__nearest_row(void)
{
    const struct store_target_metrics r[] = { row("h", 100, 5, 20, 10, 0), row("h", 200, 50, 91, 10, 0) };
    struct score_result sc = { .status = SCORE_OK, .reached = 1, .cross_t_us = 190000000, .cross_active = 48 };
    struct resources res;
    resources_compute(rows_copy(r, 2), 2, &sc, &res);
    CU_ASSERT_DOUBLE_EQUAL(res.src[0].at[RESOURCE_CPU], 91, 1e-9);
    CU_ASSERT_EQUAL(res.src[0].bound, RESOURCE_CPU);
    resources_free(&res);
}

/* A compare row or matrix cell of several runs names each distinct resource once. */
static void test_resources__cells(void)
{
    struct resources cpu = { .nsrc = 1 }, none = { .nsrc = 1 }, unmeasured = { 0 };
    cpu.src[0].bound = RESOURCE_CPU;
    none.src[0].bound = -1;
    char cell[64] = "";
    resources_bound_add(cell, sizeof cell, &unmeasured);
    CU_ASSERT_STRING_EQUAL(cell, "");
    resources_bound_add(cell, sizeof cell, &cpu);
    resources_bound_add(cell, sizeof cell, &cpu);
    CU_ASSERT_STRING_EQUAL(cell, "CPU");
    resources_bound_add(cell, sizeof cell, &none);
    resources_bound_add(cell, sizeof cell, &cpu);
    CU_ASSERT_STRING_EQUAL(cell, "CPU/none");
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_resources__cpu_bound_at_the_knee),
        UNIT_TEST(test_resources__nothing_ran_out_and_not_reached),
        UNIT_TEST(test_resources__nearest_row),
        UNIT_TEST(test_resources__cells),
        UNIT_END,
    };
    return unit_run("resources", tests, NULL, NULL);
}

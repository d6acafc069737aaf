/* test_ab.c -- the `compare --ab` table on in-memory samples: a timer 4x slower in B is flagged
 * (significant, over a 2 s limit -> counted, not over a 10 s or 400 % limit), an unchanged timer
 * is "no significant difference", failed samples are left out, measures are not timers, and runs
 * without a common timer are refused. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/report/ab.h"

static char *names_ab[] = { "appstart", "echo", "vsi", "only_a" };

/* 20 appstart samples around base_s, 20 echo around 0.1 s, 5 failed appstart, one measure. */
static void make(struct store_samples *s, double base_s, int with_only_a)
{
    s->rows = calloc(64, sizeof *s->rows);
    s->names = names_ab;
    s->name_count = 4;
    s->count = 0;
    for (int i = 0; i < 20; i++) {
        s->rows[s->count++] = (struct store_sample_row){ .ok = 1, .value_us = (int64_t)((base_s + 0.01 * (i % 7)) * 1e6), .name_id = 0 };
        s->rows[s->count++] = (struct store_sample_row){ .ok = 1, .value_us = 100000 + 1000 * ((i * 7) % 11), .name_id = 1 };
    }
    for (int i = 0; i < 5; i++)
        s->rows[s->count++] = (struct store_sample_row){ .ok = 0, .value_us = 99000000, .name_id = 0 };
    s->rows[s->count++] = (struct store_sample_row){ .ok = 1, .is_measure = 1, .value_us = 5, .name_id = 2 };
    if (with_only_a)
        s->rows[s->count++] = (struct store_sample_row){ .ok = 1, .value_us = 5, .name_id = 3 };
}

static void test_ab__table(void)
{
    struct store_samples a, b;
    make(&a, 1.0, 1);
    make(&b, 4.0, 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    struct ab_limit lim;
    CU_ASSERT_EQUAL(ab_parse_limit("2s", &lim), 0);
    CU_ASSERT_EQUAL(ab_write(&a, &b, 3, 4, &lim, NULL, o), 1);
    fclose(o);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "A/B: run 3 (A) vs run 4 (B)"));
    char *app = strstr(buf, "\nappstart"), *echo = strstr(buf, "\necho");
    CU_ASSERT_PTR_NOT_NULL_FATAL(app);
    CU_ASSERT_PTR_NOT_NULL_FATAL(echo);
    CU_ASSERT_PTR_NOT_NULL(strstr(app, "   20    20 "));                  /* failed samples left out */
    CU_ASSERT_PTR_NOT_NULL(strstr(app, "B slower by 3 s"));
    CU_ASSERT_PTR_NOT_NULL(strstr(app, "p < 0.001"));
    CU_ASSERT(strstr(app, "REGRESSION") && strstr(app, "REGRESSION") < echo);
    CU_ASSERT_PTR_NOT_NULL(strstr(echo, "no significant difference (p = 1.000)"));
    CU_ASSERT_PTR_NULL(strstr(buf, "\nvsi"));                              /* a measure, not a timer */
    CU_ASSERT_PTR_NULL(strstr(buf, "\nonly_a"));                           /* not in both runs */
    free(buf);
    o = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL(ab_parse_limit("10s", &lim), 0);
    CU_ASSERT_EQUAL(ab_write(&a, &b, 3, 4, &lim, NULL, o), 0);
    CU_ASSERT_EQUAL(ab_parse_limit("400%", &lim), 0);                   /* +300 % is within */
    CU_ASSERT_EQUAL(ab_write(&a, &b, 3, 4, &lim, NULL, o), 0);
    CU_ASSERT_EQUAL(ab_parse_limit("250%", &lim), 0);
    CU_ASSERT_EQUAL(ab_write(&a, &b, 3, 4, &lim, NULL, o), 1);
    CU_ASSERT_EQUAL(ab_write(&b, &a, 4, 3, &lim, NULL, o), 0);                /* faster is never a regression */
    CU_ASSERT_EQUAL(ab_write(&a, &b, 3, 4, NULL, NULL, o), 0);
    fclose(o);
    free(buf);
    struct store_samples none = { .rows = a.rows, .count = 0, .names = names_ab, .name_count = 4 };
    o = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL(ab_write(&a, &none, 3, 5, NULL, NULL, o), -1);
    fclose(o);
    free(buf);
    free(a.rows);
    free(b.rows);
}

static void test_ab__limits(void)
{
    struct ab_limit l;
    CU_ASSERT_EQUAL(ab_parse_limit("500ms", &l), 0);
    CU_ASSERT_DOUBLE_EQUAL(l.seconds, 0.5, 1e-12);
    CU_ASSERT(l.percent < 0);
    CU_ASSERT_EQUAL(ab_parse_limit("12.5%", &l), 0);
    CU_ASSERT_DOUBLE_EQUAL(l.percent, 12.5, 1e-12);
    CU_ASSERT(l.seconds < 0);
    CU_ASSERT_EQUAL(ab_parse_limit("2", &l), -1);       /* a duration needs a unit */
    CU_ASSERT_EQUAL(ab_parse_limit("%", &l), -1);
    CU_ASSERT_EQUAL(ab_parse_limit("x%", &l), -1);
    CU_ASSERT_EQUAL(ab_parse_limit("-5%", &l), -1);
    CU_ASSERT_EQUAL(ab_parse_limit(NULL, &l), -1);
}

/* A timer name from a tampered results file cannot start a line of the table. */
static void test_ab__hostile_name_stays_on_its_line(void)
{
    struct store_samples a, b;
    make(&a, 1.0, 0);
    make(&b, 1.0, 0);
    char *evil[] = { "app\nREGRESSION forged\r", "echo", "vsi", "only_a" };
    a.names = b.names = evil;
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL(ab_write(&a, &b, 1, 2, NULL, NULL, o), 0);
    fclose(o);
    CU_ASSERT_PTR_NULL(strstr(buf, "\nREGRESSION forged"));
    CU_ASSERT_PTR_NULL(strchr(buf, '\r'));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\napp\\nREGRESSION forged\\r "));
    free(buf);
    free(a.rows);
    free(b.rows);
}

int main(void)
{
    static const struct unit_test tests[] = { UNIT_TEST(test_ab__hostile_name_stays_on_its_line),
        UNIT_TEST(test_ab__table), UNIT_TEST(test_ab__limits), UNIT_END };
    return unit_run("ab", tests, NULL, NULL);
}

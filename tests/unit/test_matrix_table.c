/* test_matrix_table.c -- which run lands in which cell, a cell's figures over repeats (mean,
 * min-max, not reached), and the text, Markdown, CSV and JSON renderings with their escaping. */
#include "unit.h"

#include "controller/run/matrix_table.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char err[512];

/* A completed run of cell `tag` (smax < 0: not reached, with `open` the highest active count). */
static struct summary run(const char *tag, int smax, uint32_t open, double base, double kbps)
{
    struct summary s;
    memset(&s, 0, sizeof s);
    snprintf(s.run.cell, sizeof s.run.cell, "%s", tag);
    snprintf(s.run.status, sizeof s.run.status, "completed");
    s.score.status = SCORE_OK;
    s.score.reached = smax >= 0;
    s.score.smax = smax;
    s.score.max_active = open;
    s.score.baseline_ms = base;
    s.kbps_per_session = kbps;
    return s;
}

static char *render(const struct matrix_spec *s, const char *platform, const struct summary *r, size_t n,
                    enum matrix_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL(matrix_table_write(s, platform, r, n, fmt, o), 0);
    fclose(o);
    return buf;
}

static void test_matrix_table__stat(void)
{
    struct summary r[4] = { run("", 40, 0, 800, 90), run("", 44, 0, 900, 110), run("", -1, 50, NAN, NAN),
                            run("", -1, 46, 700, 100) };
    size_t all[] = { 0, 1, 2, 3 }, reached[] = { 0, 1 }, open[] = { 2, 3 };
    struct matrix_stat st;
    char text[160];
    matrix_stat_compute(r, all, 4, &st);
    CU_ASSERT_EQUAL(st.runs, 4);
    CU_ASSERT_EQUAL(st.reached, 2);
    CU_ASSERT_EQUAL(st.not_reached, 2);
    CU_ASSERT_DOUBLE_EQUAL(st.smax_mean, 42, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(st.smax_min, 40, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(st.smax_max, 44, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(st.open_min, 45, 1e-9);   /* not reached at 46: smax >= 45 */
    CU_ASSERT_DOUBLE_EQUAL(st.baseline_ms, 800, 1e-9);   /* NaN left out */
    CU_ASSERT_DOUBLE_EQUAL(st.kbps, 100, 1e-9);
    matrix_stat_text(&st, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "42.0 (+2 not reached) / 800 ms / 100.0 kbit/s");
    matrix_stat_compute(r, reached, 2, &st);
    matrix_stat_text(&st, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "42.0 (40-44) / 850 ms / 100.0 kbit/s");
    matrix_stat_compute(r, reached, 1, &st);
    matrix_stat_text(&st, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "40 / 800 ms / 90.0 kbit/s");
    matrix_stat_compute(r, open, 2, &st);
    matrix_stat_text(&st, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, ">= 45 / 700 ms / 100.0 kbit/s");
    CU_ASSERT_TRUE(isnan(st.smax_mean));
    matrix_stat_compute(r, all, 0, &st);
    matrix_stat_text(&st, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "-");
}

/* platform x network, columns by network: rows per platform label (target stripped); runs that
 * were aborted or name no cell stay out. */
static void test_matrix_table__text_and_markdown(void)
{
    struct matrix_spec s;
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "platform=ws2022@10.0.0.5:3390,xrdp", err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "network=lan,wan-100ms", err, sizeof err), 0);
    struct summary r[6] = {
        run("platform=ws2022@10.0.0.5:3390,network=lan", 79, 0, 812, 96.1),
        run("platform=ws2022@10.0.0.5:3390,network=lan", 81, 0, 812, 96.1),
        run("platform=ws2022@10.0.0.5:3390,network=wan-100ms", 76, 0, 1020, 110.4),
        run("platform=xrdp,network=lan", 45, 0, 700, 50),
        run("platform=xrdp,network=wan-100ms", 1, 0, 1, 1),
        run("platform=other,network=lan", 1, 0, 1, 1),
    };
    snprintf(r[4].run.status, sizeof r[4].run.status, "aborted");
    char *t = render(&s, "unused", r, 6, MATRIX_TEXT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(t,
        "platform   lan                                   wan-100ms\n"
        "ws2022     80.0 (79-81) / 812 ms / 96.1 kbit/s   76 / 1020 ms / 110.4 kbit/s\n"
        "xrdp       45 / 700 ms / 50.0 kbit/s             -\n"
        "(each cell: smax, mean (min-max) over repeats / baseline / kbit/s per session)\n");
    free(t);
    t = render(&s, NULL, r, 6, MATRIX_MARKDOWN);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "| platform | lan "));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\n|:---|----|----|\n| ws2022   | 80.0 (79-81) / 812 ms / 96.1 kbit/s | 76 / 1020"));
    free(t);
}

/* A night whose every logon was refused (status failed, no score) is a failed cell, not a blank:
 * "n/a (no score in 1 run)", with runs_without_score in JSON; an aborted run still stays out. */
static void test_matrix_table__failed_run_is_a_cell(void)
{
    struct matrix_spec s;
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "network=lan,wan-100ms", err, sizeof err), 0);
    struct summary r[3] = { run("network=lan", 40, 0, 800, 90), run("network=wan-100ms", -1, 0, NAN, NAN),
                            run("network=wan-100ms", 30, 0, 900, 80) };
    snprintf(r[1].run.status, sizeof r[1].run.status, "failed");
    r[1].score.status = SCORE_TOO_FEW;
    snprintf(r[2].run.status, sizeof r[2].run.status, "aborted");
    char *t = render(&s, "sim", r, 3, MATRIX_TEXT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "40 / 800 ms / 90.0 kbit/s   n/a (no score in 1 run) / - ms / - kbit/s\n"));
    free(t);
    t = render(&s, "sim", r, 3, MATRIX_JSON);
    json_error_t je;
    json_t *j = json_loads(t, 0, &je), *c1 = json_array_get(json_object_get(j, "cells"), 1);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(c1, "runs")), 1);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(c1, "runs_without_score")), 1);
    json_decref(j);
    free(t);
}

/* Without a platform axis the rows carry the plan's label; Markdown and CSV escape it. */
static void test_matrix_table__escaping(void)
{
    struct matrix_spec s;
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "sessions=2,4", err, sizeof err), 0);
    struct summary r[2] = { run("sessions=2", -1, 2, 150, 30), run("sessions=4", 3, 0, 160, 31) };
    char *t = render(&s, "lab|a,\"b\"", r, 2, MATRIX_MARKDOWN);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "| platform  | sessions=2                  | sessions=4               |\n|:---|----|----|\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "| lab\\|a,\"b\" | >= 1 / 150 ms / 30.0 kbit/s | 3 / 160 ms / 31.0 kbit/s |\n"));
    free(t);
    t = render(&s, "lab|a,\"b\"", r, 2, MATRIX_CSV);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(t,
        "platform,sessions,runs,smax_mean,smax_min,smax_max,smax_not_reached,smax_at_least,baseline_ms,kbps_per_session,"
        "target\n"
        "\"lab|a,\"\"b\"\"\",2,1,,,,1,1,150.0,30.00,\n"
        "\"lab|a,\"\"b\"\"\",4,1,3.00,3,3,0,,160.0,31.00,\n");
    free(t);
    /* a spreadsheet formula in a label is defused */
    t = render(&s, "=cmd()", r, 2, MATRIX_CSV);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\n\"'=cmd()\",2,"));
    free(t);
}

static void test_matrix_table__json(void)
{
    struct matrix_spec s;
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "network=lan,wan-100ms", err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "client=builtin,xfreerdp", err, sizeof err), 0);
    struct summary r[3] = { run("client=builtin,network=lan", 40, 0, 800, 90),
                            run("client=xfreerdp,network=lan", -1, 12, 900, 95),
                            run("client=builtin,network=wan-100ms", 30, 0, 1000, 120) };
    char *t = render(&s, "sim\"\n", r, 3, MATRIX_JSON);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    json_error_t je;
    json_t *j = json_loads(t, 0, &je);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "columns")), "network");
    json_t *rows = json_object_get(j, "rows"), *cells = json_object_get(j, "cells");
    CU_ASSERT_EQUAL(json_array_size(rows), 2);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(rows, 1)), "client");
    CU_ASSERT_EQUAL_FATAL(json_array_size(cells), 4);
    json_t *c0 = json_array_get(cells, 0), *c1 = json_array_get(cells, 1), *c2 = json_array_get(cells, 2),
           *c3 = json_array_get(cells, 3);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(c0, "platform")), "sim\"\n");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(c0, "client")), "builtin");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(c0, "network")), "lan");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(c0, "smax_mean")), 40);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(c1, "network")), "wan-100ms");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(c1, "smax_mean")), 30);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(c2, "client")), "xfreerdp");
    CU_ASSERT_TRUE(json_is_null(json_object_get(c2, "smax_mean")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(c2, "smax_at_least")), 11);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(c2, "smax_not_reached")), 1);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(c3, "runs")), 0);
    CU_ASSERT_TRUE(json_is_null(json_object_get(c3, "baseline_ms")));
    json_decref(j);
    free(t);
}

/* The transport comparison of issue 13: a column per client (the built-in engine, an RDP client
 * and a VNC viewer), a row per network; a client without traffic records shows "-" kbit/s. */
static void test_matrix_table__clients(void)
{
    struct matrix_spec s;
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "client=builtin,xfreerdp,vncviewer", err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "network=lan,wan-100ms", err, sizeof err), 0);
    struct summary r[5] = {
        run("client=builtin,network=lan", 40, 0, 500, 90),
        run("client=xfreerdp,network=lan", 38, 0, 650, NAN),
        run("client=vncviewer,network=lan", 30, 0, 700, NAN),
        run("client=builtin,network=wan-100ms", 35, 0, 800, 95),
        run("client=xfreerdp,network=wan-100ms", -1, 20, 900, NAN),
    };
    char *t = render(&s, "sim", r, 5, MATRIX_TEXT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(t,
        "platform   network     builtin                     xfreerdp                    vncviewer\n"
        "sim        lan         40 / 500 ms / 90.0 kbit/s   38 / 650 ms / - kbit/s      30 / 700 ms / - kbit/s\n"
        "sim        wan-100ms   35 / 800 ms / 95.0 kbit/s   >= 19 / 900 ms / - kbit/s   -\n"
        "(each cell: smax, mean (min-max) over repeats / baseline / kbit/s per session)\n");
    free(t);
}

/* A column whose client has its own target (a VNC viewer against VNC desktops, the others
 * against the RDP server): the table says the columns measured different servers, and names
 * each column's; CSV and JSON carry each cell's target. */
static void test_matrix_table__column_targets(void)
{
    struct matrix_spec s;
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "client=builtin,xfreerdp,vncviewer", err, sizeof err), 0);
    struct summary r[4] = { run("client=builtin", 40, 0, 500, 90), run("client=xfreerdp", 38, 0, 650, NAN),
                            run("client=vncviewer", 30, 0, 700, NAN), run("client=builtin", 42, 0, 520, 91) };
    const char *tg[4] = { "127.0.0.1:3389", "127.0.0.1:3389", "127.0.0.1:5901", "127.0.0.1:3389" };
    for (int i = 0; i < 4; i++)
        snprintf(r[i].run.target, sizeof r[i].run.target, "%s", tg[i]);
    char *t = render(&s, "sim", r, 4, MATRIX_TEXT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "(each cell: smax, mean (min-max) over repeats / baseline / kbit/s per session)\n"
        "(the columns ran against different servers: they compare clients and protocols, not one host; builtin at "
        "127.0.0.1:3389, xfreerdp at 127.0.0.1:3389, vncviewer at 127.0.0.1:5901)\n"));
    free(t);
    t = render(&s, "sim", r, 4, MATRIX_MARKDOWN);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "|\n\n(the columns ran against different servers"));
    free(t);
    t = render(&s, "sim", r, 4, MATRIX_CSV);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\nsim,vncviewer,1,30.00,30,30,0,,700.0,,127.0.0.1:5901\n"));
    free(t);
    t = render(&s, "sim", r, 4, MATRIX_JSON);
    json_error_t je;
    json_t *j = json_loads(t, 0, &je), *cells = json_object_get(j, "cells");
    CU_ASSERT_EQUAL_FATAL(json_array_size(cells), 3);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(cells, 0), "target")), "127.0.0.1:3389");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(cells, 2), "target")), "127.0.0.1:5901");
    json_decref(j);
    free(t);
    /* one server for every column: no note */
    snprintf(r[2].run.target, sizeof r[2].run.target, "127.0.0.1:3389");
    t = render(&s, "sim", r, 4, MATRIX_TEXT);
    CU_ASSERT_PTR_NULL(strstr(t, "different servers"));
    free(t);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_matrix_table__stat),
        UNIT_TEST(test_matrix_table__text_and_markdown),
        UNIT_TEST(test_matrix_table__failed_run_is_a_cell),
        UNIT_TEST(test_matrix_table__escaping),
        UNIT_TEST(test_matrix_table__json),
        UNIT_TEST(test_matrix_table__clients),
        UNIT_TEST(test_matrix_table__column_targets),
        UNIT_END,
    };
    return unit_run("matrix_table", tests, NULL, NULL);
}

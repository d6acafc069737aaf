/* test_matrix_plan.c -- a cell's plan text: the entries the cell sets are blanked where they were
 * (other lines keep their numbers) and appended; the target keeps its other keys; the result is
 * a valid plan with the cell's values; a flow-style top level is refused. */
#include "unit.h"

#include "controller/run/matrix_plan.h"
#include "controller/run/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char err[512];

/* Line n (1-based) of text into buf. */
static const char *line_of(const char *text, int n, char *buf, size_t len)
{
    for (int i = 1; i < n && text; i++)
        text = (text = strchr(text, '\n')) ? text + 1 : NULL;
    snprintf(buf, len, "%.*s", text ? (int)strcspn(text, "\n") : 0, text ? text : "");
    return buf;
}

static char *plan_text(void)
{
    char *t = NULL;
    if (asprintf(&t,
                 "# nightly\n"                                  /* 1 */
                 "name: nightly\n"                              /* 2 */
                 "target:\n"                                    /* 3 */
                 "  host: rdp01.lab\n"                          /* 4 */
                 "  port: 3389\n"                               /* 5 */
                 "  fingerprint: \"sha256:%s\"\n"               /* 6 */
                 "  security: tls\n"                            /* 7 */
                 "credentials: {user: \"u{n}\", password_env: PW}\n" /* 8 */
                 "network:\n"                                   /* 9 */
                 "  name: slow\n"                               /* 10 */
                 "  rtt: 80ms\n"                                /* 11 */
                 "workload: %s\n"                               /* 12 */
                 "sessions: 10   # users\n"                     /* 13 */
                 "launch_window: 1m\n"                          /* 14 */
                 "agents: {local: 1}\n",                        /* 15 */
                 "AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89",
                 unit_source_path("workloads/single-user.yaml")) < 0)
        return NULL;
    return t;
}

static void test_matrix_plan__cell_values(void)
{
    struct matrix_spec s;
    struct matrix_cell c;
    char a[512], b[512];
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "network=wan-100ms", err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "sessions=4", err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "platform=sim@127.0.0.1:3391", err, sizeof err), 0);
    matrix_spec_cell(&s, 0, &c);
    char *in = plan_text();
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    char *out = matrix_plan_text("dir/p.yaml", in, strlen(in), &s, &c, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    /* lines the cell does not set keep their number; the ones it sets are blank */
    for (int n = 1; n <= 15; n++) {
        int set = (n >= 3 && n <= 7) || (n >= 9 && n <= 11) || n == 13;
        line_of(out, n, a, sizeof a);
        CU_ASSERT_STRING_EQUAL(a, set ? "" : line_of(in, n, b, sizeof b));
    }
    CU_ASSERT_STRING_EQUAL(line_of(out, 16, a, sizeof a), "# sessmax matrix cell platform=sim@127.0.0.1:3391,network=wan-100ms,sessions=4");
    CU_ASSERT_STRING_EQUAL(line_of(out, 17, a, sizeof a), "platform: sim");
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\ntarget: {host: \"127.0.0.1\", port: 3391, fingerprint: \"sha256:AB:CD:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, ", security: tls}\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nnetwork: wan-100ms\nsessions: 4\n"));
    /* and it is a valid plan with the cell's values */
    struct plan *p = plan_load_string("dir/p.yaml", out, strlen(out), err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(p->platform, "sim");
    CU_ASSERT_STRING_EQUAL(p->target.host, "127.0.0.1");
    CU_ASSERT_EQUAL(p->target.port, 3391);
    CU_ASSERT_PTR_NOT_NULL(p->target.fingerprint);
    CU_ASSERT_EQUAL(p->target.security, PLAN_SEC_TLS);
    CU_ASSERT_STRING_EQUAL(p->network, "wan-100ms");
    CU_ASSERT_EQUAL(p->sessions, 4);
    CU_ASSERT_STRING_EQUAL(p->name, "nightly");
    plan_free(p);
    free(out);
    free(in);
}

/* A key the plan does not have is appended; a platform without a target keeps the plan's. */
static void test_matrix_plan__absent_key_and_label_only(void)
{
    struct matrix_spec s;
    struct matrix_cell c;
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "transport=tcp", err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "platform=ws2022", err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "client=xfreerdp", err, sizeof err), 0);
    matrix_spec_cell(&s, 0, &c);
    char *in = plan_text();
    char *out = matrix_plan_text("p.yaml", in, strlen(in), &s, &c, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n  host: rdp01.lab\n"));   /* target untouched */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "cell platform=ws2022,transport=tcp,client=xfreerdp\n"
                                       "platform: ws2022\ntransport: tcp\nclient: xfreerdp\n"));
    free(out);
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "client=builtin", err, sizeof err), 0);
    matrix_spec_cell(&s, 0, &c);
    out = matrix_plan_text("p.yaml", in, strlen(in), &s, &c, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nclient: builtin\n"));
    free(out);
    free(in);
}

static void test_matrix_plan__refused(void)
{
    struct matrix_spec s;
    struct matrix_cell c;
    matrix_spec_init(&s);
    CU_ASSERT_EQUAL_FATAL(matrix_spec_add_vary(&s, "sessions=2", err, sizeof err), 0);
    matrix_spec_cell(&s, 0, &c);
    const char *flow = "{name: x,\n sessions: 4}\n";
    CU_ASSERT_PTR_NULL(matrix_plan_text("f.yaml", flow, strlen(flow), &s, &c, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "f.yaml:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "block style"));
    const char *bad = "name: [x\n";
    CU_ASSERT_PTR_NULL(matrix_plan_text("b.yaml", bad, strlen(bad), &s, &c, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "b.yaml:"));
    const char *list = "- a\n- b\n";
    CU_ASSERT_PTR_NULL(matrix_plan_text("l.yaml", list, strlen(list), &s, &c, err, sizeof err));
    /* no final newline: the last line is kept whole */
    const char *tail = "name: x\nsessions: 9";
    char *out = matrix_plan_text("t.yaml", tail, strlen(tail), &s, &c, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_STRING_EQUAL(out, "name: x\n\n# sessmax matrix cell sessions=2\nsessions: 2\n");
    free(out);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_matrix_plan__cell_values),
        UNIT_TEST(test_matrix_plan__absent_key_and_label_only),
        UNIT_TEST(test_matrix_plan__refused),
        UNIT_END,
    };
    return unit_run("matrix_plan", tests, NULL, NULL);
}

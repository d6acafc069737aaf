/* test_sim_selfcheck.c -- the real-session check's failure paths: a simhost that does not start
 * is an error naming it, and --predict's use of the check then says so in one line and keeps the
 * synthetic cost model (integration/simhost_predict.sh runs the check against a real simhost). */
#include "unit.h"

#include "simhost/server/opts.h"
#include "simhost/model/selfcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_sim_selfcheck__no_simhost(void)
{
    char err[512], dir[1024];
    double cpu = -1;
    snprintf(dir, sizeof dir, "%s/check", unit_tmpdir());
    struct sim_selfcheck_args a = { "/nonexistent/sessmax-simhost", unit_source_path("workloads/simhost-task-worker.yaml"),
                                    1, 1.0, 16, dir };
    CU_ASSERT_EQUAL(sim_selfcheck_run(&a, &cpu, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/sessmax-simhost"));
    CU_ASSERT_DOUBLE_EQUAL(cpu, -1, 1e-12);
    a.workload = "/nonexistent/workload.yaml";
    CU_ASSERT_EQUAL(sim_selfcheck_run(&a, &cpu, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/workload.yaml"));
}

static void test_sim_selfcheck__predict_falls_back(void)
{
    struct sim_opts o;
    struct sim_costs c;
    char err[512], *text = NULL;
    size_t len = 0;
    char *argv[] = { "sessmax-simhost", "--predict", "/nonexistent/workload.yaml", "--cpus", "1", "--state-dir",
                     (char *)unit_tmpdir(), NULL };
    CU_ASSERT_EQUAL_FATAL(sim_opts_parse(7, argv, &o, err, sizeof err), 0);
    CU_ASSERT_EQUAL(o.session_loops, 2);   /* the default */
    memset(&c, 0, sizeof c);
    c.work_s[SIM_CMD_ZIP9] = 0.3;
    c.key_s = 0.0002;
    FILE *out = open_memstream(&text, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    sim_selfcheck_predict(&o, &c, out);
    fclose(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "sessmax-simhost: real-session check failed ("));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "the prediction uses the synthetic cost model\n"));
    CU_ASSERT_PTR_EQUAL(strchr(text, '\n'), text + len - 1);   /* one line */
    CU_ASSERT_DOUBLE_EQUAL(c.work_s[SIM_CMD_ZIP9], 0.3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c.key_s, 0.0002, 1e-12);
    free(text);
}

static void test_sim_selfcheck__option(void)
{
    struct sim_opts o;
    char err[512];
    char *off[] = { "sessmax-simhost", "--predict", "w.yaml", "--cpus", "1", "--session-loops", "0", NULL };
    CU_ASSERT_EQUAL(sim_opts_parse(7, off, &o, err, sizeof err), 0);
    CU_ASSERT_EQUAL(o.session_loops, 0);
    char *bad[] = { "sessmax-simhost", "--predict", "w.yaml", "--cpus", "1", "--session-loops", "-1", NULL };
    CU_ASSERT_EQUAL(sim_opts_parse(7, bad, &o, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "--session-loops"));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_selfcheck__no_simhost),
        UNIT_TEST(test_sim_selfcheck__predict_falls_back),
        UNIT_TEST(test_sim_selfcheck__option),
        UNIT_END,
    };
    return unit_run("sim_selfcheck", tests, NULL, NULL);
}

/* test_targetload.c -- a local target's CPU sampling: CPU lists, /proc/stat sums over a CPU set,
 * a live sample of this process's own group, and the summary's "shared" flag on fixed rows. */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "controller/run/targetload.h"
#include "controller/score/summary_target.h"

static void test_targetload__parse_cpus(void)
{
    cpu_set_t s;
    CU_ASSERT_EQUAL(targetload_parse_cpus("1", &s), 1);
    CU_ASSERT(CPU_ISSET(1, &s) && !CPU_ISSET(0, &s));
    CU_ASSERT_EQUAL(targetload_parse_cpus("0-2,5", &s), 4);
    CU_ASSERT(CPU_ISSET(5, &s) && !CPU_ISSET(3, &s));
    CU_ASSERT_EQUAL(targetload_parse_cpus("", &s), -1);
    CU_ASSERT_EQUAL(targetload_parse_cpus("2-1", &s), -1);
    CU_ASSERT_EQUAL(targetload_parse_cpus("1,x", &s), -1);
    CU_ASSERT_EQUAL(targetload_parse_cpus("-1", &s), -1);
    CU_ASSERT_EQUAL(targetload_parse_cpus("99999", &s), -1);
}

static void test_targetload__cpu_times(void)
{
    const char *stat = "cpu  500 0 500 9000 0 0 0 0 0 0\n"
                       "cpu0 100 10 100 4000 50 1 2 3 0 0\n"
                       "cpu1 200 0 300 500 0 0 0 0 0 0\n"
                       "intr 123\n";
    cpu_set_t s;
    uint64_t busy, total;
    targetload_parse_cpus("1", &s);
    CU_ASSERT_EQUAL(targetload_cpu_times(stat, &s, &busy, &total), 0);
    CU_ASSERT_EQUAL(busy, 500);
    CU_ASSERT_EQUAL(total, 1000);
    targetload_parse_cpus("0-1", &s);
    CU_ASSERT_EQUAL(targetload_cpu_times(stat, &s, &busy, &total), 0);
    CU_ASSERT_EQUAL(busy, 100 + 10 + 100 + 1 + 2 + 3 + 500);
    CU_ASSERT_EQUAL(total, busy + 4000 + 50 + 500);
    targetload_parse_cpus("7", &s);
    CU_ASSERT_EQUAL(targetload_cpu_times(stat, &s, &busy, &total), -1);
}

/* The root cgroup holds every process not in a group: two samples give figures in range. */
static void test_targetload__live_sample(void)
{
    char err[256];
    struct targetload *t = targetload_new("/sys/fs/cgroup/cpu", "0", err, sizeof err);
    if (!t)
        return;   /* no cgroup v1 here: nothing to sample */
    struct store_target_load l;
    CU_ASSERT_EQUAL(targetload_sample(t, 1, &l), 0);
    volatile unsigned long spin = 0;
    for (int i = 0; i < 200; i++) {
        for (unsigned long k = 0; k < 1000000; k++)
            spin += k;
        if (targetload_sample(t, 2, &l) == 1)
            break;
    }
    CU_ASSERT_EQUAL(l.cpus, 1);
    CU_ASSERT(l.target_permille <= 1000 && l.others_permille <= 1000);
    targetload_free(t);
    CU_ASSERT_PTR_NULL(targetload_new("/nonexistent/group", NULL, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "target.local: cannot read /nonexistent/group/cgroup.procs"));
}

static void test_targetload__summary_flag(void)
{
    struct store_target_load rows[3] = { { 1, 1, 400, 50 }, { 2, 1, 500, 90 }, { 3, 1, 600, 130 } };
    struct summary_input in = { 0 };
    struct summary s;
    char line[512];
    memset(&s, 0, sizeof s);
    in.target_load = rows;
    in.target_load_count = 3;
    summary_target(&in, &s);   /* others 9 % on average: below the 10 % mark */
    CU_ASSERT_DOUBLE_EQUAL(s.target_cpu_pct, 50.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.others_cpu_pct, 9.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.others_cpu_max_pct, 13.0, 1e-9);
    CU_ASSERT_FALSE(s.target_shared);
    summary_target_line(&s, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "CPU 50 % of its 1 CPU (max 60 %); other processes on its CPUs 9 % (max 13 %): not shared"));
    rows[0].others_permille = 80;   /* now 10 % */
    summary_target(&in, &s);
    CU_ASSERT_TRUE(s.target_shared);
    summary_target_line(&s, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, ": SHARED"));
    in.target_load_count = 0;
    summary_target(&in, &s);
    CU_ASSERT(isnan(s.others_cpu_pct));
    CU_ASSERT_FALSE(s.target_shared);
    summary_target_line(&s, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "not sampled"));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_targetload__parse_cpus),
        UNIT_TEST(test_targetload__cpu_times),
        UNIT_TEST(test_targetload__live_sample),
        UNIT_TEST(test_targetload__summary_flag),
        UNIT_END,
    };
    return unit_run("targetload", tests, NULL, NULL);
}

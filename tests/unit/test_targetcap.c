/* test_targetcap.c -- a plan's cap on a local target, applied to a stand-in group directory (the
 * same files a cgroup v1 cpu group has): the quota written, this process pinned, bad input refused. */
#include "unit.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "controller/run/targetcap.h"

static char dir[64];

static void put(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static void get(const char *name, char *buf, size_t len)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    buf[0] = 0;
    if (f) {
        if (!fgets(buf, (int)len, f))
            buf[0] = 0;
        fclose(f);
    }
}

static void test_targetcap__quota_and_pin(void)
{
    char err[256], buf[64], pid[32];
    cpu_set_t before, now;
    snprintf(dir, sizeof dir, "/tmp/test_targetcap.XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    put("cgroup.procs", pid);
    put("cpu.cfs_period_us", "250000\n");
    put("cpu.cfs_quota_us", "-1\n");
    CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof before, &before), 0);

    CU_ASSERT_EQUAL(targetcap_apply(dir, NULL, 0, err, sizeof err), 0);   /* nothing asked: nothing done */
    get("cpu.cfs_quota_us", buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "-1\n");
    CU_ASSERT_EQUAL(targetcap_apply(dir, "0", 150, err, sizeof err), 0);
    get("cpu.cfs_quota_us", buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "150000");
    get("cpu.cfs_period_us", buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "100000");
    CU_ASSERT_EQUAL(sched_getaffinity(0, sizeof now, &now), 0);
    CU_ASSERT(CPU_COUNT(&now) == 1 && CPU_ISSET(0, &now));

    CU_ASSERT_EQUAL(targetcap_apply(dir, "0-x", 0, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad CPU list '0-x'"));
    CU_ASSERT_EQUAL(targetcap_apply("/nonexistent/group", NULL, 50, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot write 50000 to /nonexistent/group/cpu.cfs_quota_us")
                           || strstr(err, "cannot write 100000 to /nonexistent/group/cpu.cfs_period_us"));

    sched_setaffinity(0, sizeof before, &before);
    static const char *const files[] = { "cgroup.procs", "cpu.cfs_period_us", "cpu.cfs_quota_us" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_targetcap__quota_and_pin),
        UNIT_END,
    };
    return unit_run("targetcap", tests, NULL, NULL);
}

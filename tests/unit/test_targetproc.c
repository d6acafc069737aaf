/* test_targetproc.c -- a local target's processes without a cgroup: by pid (with a child it
 * started), by name, by CPUs, bad selectors, and the line validate and the run print. */
#include "unit.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "controller/run/targetproc.h"

static int has(const int *pids, size_t n, int pid)
{
    for (size_t i = 0; i < n; i++)
        if (pids[i] == pid)
            return 1;
    return 0;
}

static void test_targetproc__by_pid_and_name(void)
{
    char err[256], self[24];
    struct targetproc_sel s;
    int pids[4096];
    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    CU_ASSERT_FATAL(child > 0);
    snprintf(self, sizeof self, "%ld", (long)getpid());
    CU_ASSERT_EQUAL(targetproc_init(&s, self, NULL, err, sizeof err), 0);
    size_t n = targetproc_list(&s, pids, 4096);
    CU_ASSERT_TRUE(has(pids, n, getpid()));
    CU_ASSERT_TRUE(has(pids, n, child));   /* a descendant */
    CU_ASSERT_FALSE(has(pids, n, getppid()));
    CU_ASSERT_EQUAL(targetproc_init(&s, "test_targetproc", NULL, err, sizeof err), 0);
    n = targetproc_list(&s, pids, 4096);
    CU_ASSERT_TRUE(has(pids, n, getpid()));
    CU_ASSERT_EQUAL(targetproc_init(&s, "no-such-process-xyz", NULL, err, sizeof err), 0);
    CU_ASSERT_EQUAL(targetproc_list(&s, pids, 4096), 0);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
}

static void test_targetproc__selectors_and_words(void)
{
    char err[256], line[512];
    struct targetproc_sel s;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(1, &one);
    CU_ASSERT_EQUAL(targetproc_init(&s, NULL, &one, err, sizeof err), 0);
    CU_ASSERT_TRUE(s.by_cpus);
    CU_ASSERT_EQUAL(targetproc_init(&s, NULL, NULL, err, sizeof err), -1);
    CU_ASSERT_EQUAL(targetproc_init(&s, "0", NULL, err, sizeof err), -1);
    targetproc_describe(1, NULL, NULL, "1", line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "every process pinned within CPUs 1 and its descendants (from /proc)");
    targetproc_describe(1, NULL, "xrdp", "1", line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "process xrdp and its descendants (from /proc), on CPUs 1");
    targetproc_describe(0, NULL, "xrdp", "1", line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "not sampled"));
    targetproc_describe(1, "sessmax-xrdp", NULL, "1", line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "the processes of cgroup sessmax-xrdp on CPUs 1");
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_targetproc__by_pid_and_name),
        UNIT_TEST(test_targetproc__selectors_and_words),
        UNIT_END,
    };
    return unit_run("targetproc", tests, NULL, NULL);
}

/* test_nodump.c -- a process holding secrets is not dumpable and may not write a core, unless
 * SESSMAX_CORE_DUMPS=1 asks to keep them. Each case runs in a child (the change is for good). */
#include "unit.h"

#include "common/nodump.h"

#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Exit status of a child that applies nodump and reports: 0 dumps off, 1 dumps kept, 2 other. */
static int child(const char *env)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (env)
            setenv(NODUMP_ENV, env, 1);
        else
            unsetenv(NODUMP_ENV);
        int rc = nodump_apply();
        struct rlimit rl;
        getrlimit(RLIMIT_CORE, &rl);
        int dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
        if (rc == 1 && dumpable == 0 && rl.rlim_cur == 0 && rl.rlim_max == 0)
            _exit(0);
        _exit(rc == 0 && dumpable == 1 ? 1 : 2);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
}

static void test_nodump__dumps_off_unless_asked(void)
{
    CU_ASSERT_EQUAL(child(NULL), 0);
    CU_ASSERT_EQUAL(child("0"), 0);
    CU_ASSERT_EQUAL(child("1"), 1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_nodump__dumps_off_unless_asked),
        UNIT_END,
    };
    return unit_run("nodump", tests, NULL, NULL);
}

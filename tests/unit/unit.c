/* unit.c -- shared CUnit runner: registers one suite, runs it verbosely, prints the summary. */
#include "unit.h"

#include <CUnit/Basic.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int unit_run(const char *suite, const struct unit_test *tests,
             int (*setup)(void), int (*teardown)(void))
{
    /* Every sessmax program ignores SIGPIPE (a peer that hangs up is an error to report, not a
     * reason to die); the code under test runs the same way here. */
    signal(SIGPIPE, SIG_IGN);
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite(suite, setup, teardown);
    if (!s)
        goto fail;
    for (const struct unit_test *t = tests; t->name; t++)
        if (!CU_add_test(s, t->name, t->fn))
            goto fail;
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned ran = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    return (failed == 0 && ran > 0) ? 0 : 1;
fail:
    fprintf(stderr, "unit: cannot register suite %s: %s\n", suite, CU_get_error_msg());
    CU_cleanup_registry();
    return 2;
}

const char *unit_tmpdir(void)
{
    static char dir[PATH_MAX];
    if (dir[0])
        return dir;
    mkdir("tmp", 0700);
    snprintf(dir, sizeof dir, "%s/tmp/unit.%ld", getenv("PWD") ? getenv("PWD") : ".", (long)getpid());
    char cwd[PATH_MAX - 64];   /* room for "/tmp/unit.<pid>" (-Wformat-truncation) */
    if (getcwd(cwd, sizeof cwd))
        snprintf(dir, sizeof dir, "%s/tmp/unit.%ld", cwd, (long)getpid());
    mkdir(dir, 0700);
    return dir;
}

const char *unit_write_file(const char *name, const char *text)
{
    static char path[PATH_MAX + 256];
    snprintf(path, sizeof path, "%s/%s", unit_tmpdir(), name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    CU_ASSERT_EQUAL_FATAL(fclose(f), 0);
    return path;
}

const char *unit_source_path(const char *relative)
{
    static char path[PATH_MAX];
    const char *root = getenv("SESSMAX_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/%s", root ? root : SESSMAX_SOURCE_DIR, relative);
    return path;
}

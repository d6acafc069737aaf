/* unit.h -- the tiny runner every CUnit suite shares.
 *
 * Each tests/unit/test_<module>.c is one executable holding one CUnit suite. It lists its
 * tests in a NULL-terminated table and calls unit_run() from main(); the runner prints CUnit's
 * summary (suites, tests, asserts) and returns non-zero on any failure, which ctest reports.
 * Test functions are named test_<module>__<case>. */
#ifndef SESSMAX_UNIT_H
#define SESSMAX_UNIT_H

#include <CUnit/CUnit.h>

struct unit_test {
    const char *name;
    void (*fn)(void);
};

#define UNIT_TEST(fn) { #fn, fn }
#define UNIT_END { NULL, NULL }

/* Runs one suite with optional setup/teardown (either may be NULL). Returns the process exit
 * code: 0 when every assert passed. */
int unit_run(const char *suite, const struct unit_test *tests,
             int (*setup)(void), int (*teardown)(void));

/* A fresh temporary directory for this test process (created once, removed by nobody:
 * it lives under the build tree's tests/tmp so a failure leaves evidence). */
const char *unit_tmpdir(void);

/* Writes `text` to the file `name` in unit_tmpdir() (the test stops when it cannot) and returns
 * its path, in a static buffer the next call overwrites. */
const char *unit_write_file(const char *name, const char *text);

/* Path of a file under the source tree (e.g. "workloads/single-user.yaml"); static buffer. */
const char *unit_source_path(const char *relative);

#endif

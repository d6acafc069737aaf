/* test_secret_file.c -- a secret only from a regular, owner-only file of the caller's: a FIFO is
 * refused at once instead of blocking, a symbolic link is refused, a file others can read is
 * refused with the chmod that fixes it, a file of another user is refused, a file over the limit
 * is refused. */
#include "unit.h"

#include "common/secret_file.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/securebits.h>
#include <unistd.h>

static void on_alarm(int sig) { (void)sig; }

static const char *secret(const char *name, const char *text, mode_t mode)
{
    const char *path = unit_write_file(name, text);
    chmod(path, mode);
    return path;
}

static void test_secret_file__regular_owner_only_file_is_read(void)
{
    char out[64], err[256];
    CU_ASSERT_EQUAL(secret_file_read(secret("ok", "s3cret\r\n", 0600), "token file", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "s3cret");
    size_t len = 0;
    char *all = secret_file_read_all(secret("all", "a:b\nc:d\n", 0400), "users file", 100, &len, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(all);
    CU_ASSERT_EQUAL(len, 8);
    CU_ASSERT_STRING_EQUAL(all, "a:b\nc:d\n");
    free(all);
    CU_ASSERT_PTR_NULL(secret_file_read_all(secret("big", "0123456789", 0600), "users file", 9, &len, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "larger than the limit of 9 bytes"));
}

/* Without O_NONBLOCK, opening a FIFO nobody writes to blocks forever (the alarm is only a
 * safety net: it turns that hang into EINTR, a failure of this test). */
static void test_secret_file__fifo_is_refused_without_blocking(void)
{
    char path[512], out[64], err[256];
    snprintf(path, sizeof path, "%s/fifo", unit_tmpdir());
    unlink(path);
    CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
    struct sigaction sa = { .sa_handler = on_alarm }, old;
    sigaction(SIGALRM, &sa, &old);   /* no SA_RESTART: a blocked open returns EINTR */
    alarm(5);
    int rc = secret_file_read(path, "password file", out, sizeof out, err, sizeof err);
    alarm(0);
    sigaction(SIGALRM, &old, NULL);
    CU_ASSERT_EQUAL(rc, -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a regular file"));
    size_t len;
    CU_ASSERT_PTR_NULL(secret_file_read_all(path, "users file", 100, &len, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a regular file"));
}

static void test_secret_file__link_and_loose_mode_are_refused(void)
{
    char link[512], out[64], err[256];
    const char *target = secret("target", "pw\n", 0600);
    snprintf(link, sizeof link, "%s/link", unit_tmpdir());
    unlink(link);
    CU_ASSERT_EQUAL_FATAL(symlink(target, link), 0);
    CU_ASSERT_EQUAL(secret_file_read(link, "token file", out, sizeof out, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "symbolic link"));
    CU_ASSERT_EQUAL(secret_file_read(secret("loose", "pw\n", 0640), "token file", out, sizeof out, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "chmod 600"));
    CU_ASSERT_EQUAL(secret_file_read(unit_tmpdir(), "token file", out, sizeof out, err, sizeof err), -1);
}

/* A file of another user: run as another uid that keeps the right to read any file (root with
 * SECBIT_NO_SETUID_FIXUP), so only the owner check can refuse it. Skipped where that cannot be
 * arranged (not root). */
static void test_secret_file__another_users_file_is_refused(void)
{
    const char *path = secret("theirs", "pw\n", 0600);
    if (geteuid() != 0) {
        fprintf(stderr, "(skipped: needs root to act as another user) ");
        return;
    }
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        char out[64], err[256];
        if (prctl(PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP) < 0 || seteuid(65534) < 0)
            _exit(3);
        int rc = secret_file_read(path, "token file", out, sizeof out, err, sizeof err);
        _exit(rc == -1 && strstr(err, "belongs to uid 0") ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CU_ASSERT(WIFEXITED(st));
    if (WEXITSTATUS(st) == 3)
        fprintf(stderr, "(skipped: cannot keep file access as another uid) ");
    else
        CU_ASSERT_EQUAL(WEXITSTATUS(st), 0);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_secret_file__regular_owner_only_file_is_read),
        UNIT_TEST(test_secret_file__fifo_is_refused_without_blocking),
        UNIT_TEST(test_secret_file__link_and_loose_mode_are_refused),
        UNIT_TEST(test_secret_file__another_users_file_is_refused),
        UNIT_END,
    };
    return unit_run("secret_file", tests, NULL, NULL);
}

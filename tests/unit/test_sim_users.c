/* test_sim_users.c -- accounts, passwords from the environment or a 0600 file only. */
#include "unit.h"

#include "simhost/server/users.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *write_file(const char *name, const char *text, int mode)
{
    const char *path = unit_write_file(name, text);
    chmod(path, (mode_t)mode);
    return path;
}

static void test_sim_users__env_password(void)
{
    struct sim_users u;
    char err[256], name[64];
    unsetenv(SIM_USERS_ENV);
    CU_ASSERT_EQUAL(sim_users_load(&u, 20, NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, SIM_USERS_ENV));
    setenv(SIM_USERS_ENV, "s3cret", 1);
    CU_ASSERT_EQUAL_FATAL(sim_users_load(&u, 20, NULL, err, sizeof err), 0);
    CU_ASSERT(sim_users_check(&u, "simuser001", "s3cret"));
    CU_ASSERT(sim_users_check(&u, "SimUser020", "s3cret"));
    CU_ASSERT(!sim_users_check(&u, "simuser021", "s3cret"));
    CU_ASSERT(!sim_users_check(&u, "simuser000", "s3cret"));
    CU_ASSERT(!sim_users_check(&u, "simuser01", "s3cret"));
    CU_ASSERT(!sim_users_check(&u, "simuser001", "s3cre"));
    CU_ASSERT(!sim_users_check(&u, "simuser001", "s3cret!"));
    CU_ASSERT(!sim_users_check(&u, "simuser001", NULL));
    CU_ASSERT(!sim_users_check(&u, NULL, "s3cret"));
    CU_ASSERT_EQUAL(sim_users_total(&u), 20);
    CU_ASSERT_EQUAL(sim_users_name(&u, 19, name, sizeof name), 0);
    CU_ASSERT_STRING_EQUAL(name, "simuser020");
    CU_ASSERT_EQUAL(sim_users_name(&u, 20, name, sizeof name), -1);
    sim_users_free(&u);
    unsetenv(SIM_USERS_ENV);
}

static void test_sim_users__file(void)
{
    struct sim_users u;
    char err[256];
    const char *open_file = write_file("users.open", "pw\n", 0644);
    CU_ASSERT_EQUAL(sim_users_load(&u, 5, open_file, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "chmod 600"));
    CU_ASSERT_PTR_NULL(strstr(err, "pw\n"));
    const char *one = write_file("users.one", "# shared\nhunter2\n", 0600);
    CU_ASSERT_EQUAL_FATAL(sim_users_load(&u, 5, one, err, sizeof err), 0);
    CU_ASSERT(sim_users_check(&u, "simuser005", "hunter2"));
    sim_users_free(&u);
    const char *list = write_file("users.list", "alice:a1\nbob:b2\n", 0600);
    CU_ASSERT_EQUAL_FATAL(sim_users_load(&u, 5, list, err, sizeof err), 0);
    CU_ASSERT(sim_users_check(&u, "alice", "a1"));
    CU_ASSERT(!sim_users_check(&u, "alice", "b2"));
    CU_ASSERT(!sim_users_check(&u, "simuser001", "a1"));
    CU_ASSERT_EQUAL(sim_users_total(&u), 2);
    sim_users_free(&u);
    const char *crlf = write_file("users.crlf", "alice:a1\r\nbob:b2", 0600);   /* no final newline */
    CU_ASSERT_EQUAL_FATAL(sim_users_load(&u, 5, crlf, err, sizeof err), 0);
    CU_ASSERT(sim_users_check(&u, "bob", "b2"));
    CU_ASSERT_EQUAL(sim_users_total(&u), 2);
    sim_users_free(&u);
    char longline[400];
    memset(longline, 'p', sizeof longline - 1);
    memcpy(longline, "carol:", 6);
    longline[sizeof longline - 1] = '\0';
    const char *toolong = write_file("users.long", longline, 0600);   /* one line, not two */
    CU_ASSERT_EQUAL(sim_users_load(&u, 5, toolong, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "users.long:1: bad name:password line"));
    sim_users_free(&u);
    const char *mixed = write_file("users.bad", "alice:a1\nshared\n", 0600);
    CU_ASSERT_EQUAL(sim_users_load(&u, 5, mixed, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "users.bad:2:"));
    sim_users_free(&u);
}

/* A name becomes a home directory (<state>/home/<name>): "../x" or "a/b" must be refused with
 * file:line, not followed. */
static void test_sim_users__unsafe_names(void)
{
    static const char *const bad[] = { "../escape:pw\n", "ok:pw\n..:pw\n", "a/b:pw\n", ".hidden:pw\n",
                                       "sp ace:pw\n", "tab\t:pw\n" };
    struct sim_users u;
    char err[256];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *f = write_file("users.unsafe", bad[i], 0600);
        CU_ASSERT_EQUAL(sim_users_load(&u, 5, f, err, sizeof err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, i == 1 ? "users.unsafe:2:" : "users.unsafe:1:"));
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "user name"));
        sim_users_free(&u);
    }
    const char *good = write_file("users.good", "user.one:pw\nUser_2-b:pw\n", 0600);
    CU_ASSERT_EQUAL(sim_users_load(&u, 5, good, err, sizeof err), 0);
    CU_ASSERT(sim_users_check(&u, "user.one", "pw"));
    sim_users_free(&u);
}

static void on_alarm(int sig) { (void)sig; }

/* The users file is a secret file (common/secret_file.h): a link to a good file and a FIFO are
 * refused, neither followed nor waited on. */
static void test_sim_users__users_file_no_link_no_fifo(void)
{
    struct sim_users u;
    char err[256], link[512], fifo[512];
    const char *good = write_file("users-good", "s3cret\n", 0600);
    snprintf(link, sizeof link, "%s/users-link", unit_tmpdir());
    snprintf(fifo, sizeof fifo, "%s/users-fifo", unit_tmpdir());
    unlink(link);
    unlink(fifo);
    CU_ASSERT_EQUAL_FATAL(symlink(good, link), 0);
    CU_ASSERT_EQUAL(sim_users_load(&u, 5, link, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "symbolic link"));
    sim_users_free(&u);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    struct sigaction sa = { .sa_handler = on_alarm }, old;
    sigaction(SIGALRM, &sa, &old);   /* a safety net: a blocked open returns EINTR instead of hanging */
    alarm(5);
    CU_ASSERT_EQUAL(sim_users_load(&u, 5, fifo, err, sizeof err), -1);
    alarm(0);
    sigaction(SIGALRM, &old, NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a regular file"));
    sim_users_free(&u);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_users__users_file_no_link_no_fifo),
        UNIT_TEST(test_sim_users__env_password), UNIT_TEST(test_sim_users__file),
        UNIT_TEST(test_sim_users__unsafe_names), UNIT_END,
    };
    return unit_run("sim_users", tests, NULL, NULL);
}

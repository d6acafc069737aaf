/* test_outpipe.c -- stdout through the writer thread: every byte arrives, in order, also past the
 * pipe's capacity; the descriptor points at its file again afterwards; a child still holding the
 * pipe does not keep the stop waiting. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent/front/outpipe.h"
#include "unit.h"

static char path[] = "/tmp/sessmax-test-outpipe.XXXXXX";
static int file_fd = -1, saved_out = -1;

/* fd 1 -> a fresh temporary file (CUnit's own output is kept aside meanwhile). */
static void to_file(void)
{
    fflush(stdout);
    strcpy(path + sizeof path - 7, "XXXXXX");
    file_fd = mkstemp(path);
    saved_out = dup(1);
    dup2(file_fd, 1);
}

static void back(void)
{
    fflush(stdout);
    dup2(saved_out, 1);
    close(saved_out);
    close(file_fd);
    unlink(path);
}

/** 40,000 numbered lines (about 3 MiB with padding, more than the pipe holds) arrive in order. */
static void test_outpipe__order_and_all(void)
{
    to_file();
    struct outpipe *o = outpipe_start();
    CU_ASSERT_PTR_NOT_NULL(o);
    for (int i = 0; i < 40000; i++)
        printf("%08d %.70s\n", i, "0123456789012345678901234567890123456789012345678901234567890123456789");
    outpipe_stop(o);
    struct stat st;
    CU_ASSERT_EQUAL(fstat(file_fd, &st), 0);
    CU_ASSERT_EQUAL(st.st_size, 40000 * 80);
    FILE *f = fopen(path, "r");
    char line[128];
    int i = 0, ordered = 1;
    while (f && fgets(line, sizeof line, f))
        ordered &= atoi(line) == i++;
    CU_ASSERT_EQUAL(i, 40000);
    CU_ASSERT(ordered);
    if (f)
        fclose(f);
    /* after the stop, fd 1 is the file itself again */
    struct stat a, b;
    fstat(1, &a);
    fstat(file_fd, &b);
    CU_ASSERT(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
    back();
}

/** A child that inherited the pipe and lives on: the stop still returns with the parent's data out. */
static void test_outpipe__child_holds_pipe(void)
{
    to_file();
    struct outpipe *o = outpipe_start();
    CU_ASSERT_PTR_NOT_NULL(o);
    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    printf("parent line\n");
    outpipe_stop(o);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    char buf[64] = "";
    CU_ASSERT_EQUAL(pread(file_fd, buf, sizeof buf - 1, 0), 12);
    CU_ASSERT_STRING_EQUAL(buf, "parent line\n");
    back();
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_outpipe__order_and_all), UNIT_TEST(test_outpipe__child_holds_pipe), UNIT_END,
    };
    return unit_run("outpipe", tests, NULL, NULL);
}

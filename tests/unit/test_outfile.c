/* test_outfile.c -- outputs go through a temporary file renamed over the target: a symbolic link
 * planted at the target is replaced, its own target untouched; the file is 0600; a discarded or
 * failed output leaves the old file and no temporary behind. */
#include "unit.h"

#include "common/outfile.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *slurp(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    return buf;
}

/* Entries of the scratch directory whose names start with ".out" (temporaries of "out..."). */
static int temporaries(void)
{
    DIR *d = opendir(unit_tmpdir());
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strncmp(e->d_name, ".out", 4) == 0;
    if (d)
        closedir(d);
    return n;
}

static void test_outfile__planted_link_is_replaced_not_followed(void)
{
    char link[512], err[256];
    const char *victim = unit_write_file("victim", "precious\n");
    snprintf(link, sizeof link, "%s/out-link.html", unit_tmpdir());
    unlink(link);
    CU_ASSERT_EQUAL_FATAL(symlink(victim, link), 0);
    FILE *f = outfile_open(link, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("report\n", f);
    CU_ASSERT_EQUAL(outfile_commit(f, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(slurp(victim), "precious\n");
    struct stat sb;
    CU_ASSERT_EQUAL_FATAL(lstat(link, &sb), 0);
    CU_ASSERT(S_ISREG(sb.st_mode));
    CU_ASSERT_EQUAL(sb.st_mode & 0777, 0600);
    CU_ASSERT_STRING_EQUAL(slurp(link), "report\n");
    CU_ASSERT_EQUAL(temporaries(), 0);
}

static void test_outfile__discard_and_failure_keep_the_old_file(void)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/out-keep.csv", unit_tmpdir());
    FILE *f = outfile_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("old\n", f);
    CU_ASSERT_EQUAL_FATAL(outfile_commit(f, err, sizeof err), 0);
    f = outfile_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("half", f);
    outfile_discard(f);
    outfile_discard(NULL);
    CU_ASSERT_STRING_EQUAL(slurp(path), "old\n");
    CU_ASSERT_EQUAL(temporaries(), 0);
    snprintf(path, sizeof path, "%s/no/such/dir/out.csv", unit_tmpdir());
    CU_ASSERT_PTR_NULL(outfile_open(path, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot write"));
    /* a name without a directory is in the current one */
    char cwd[512];
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
    CU_ASSERT_EQUAL_FATAL(chdir(unit_tmpdir()), 0);
    f = outfile_open("out-here.txt", err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL(f);
    if (f)
        CU_ASSERT_EQUAL(outfile_commit(f, err, sizeof err), 0);
    CU_ASSERT_EQUAL(access("out-here.txt", F_OK), 0);
    CU_ASSERT_EQUAL(chdir(cwd), 0);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_outfile__planted_link_is_replaced_not_followed),
        UNIT_TEST(test_outfile__discard_and_failure_keep_the_old_file),
        UNIT_END,
    };
    return unit_run("outfile", tests, NULL, NULL);
}

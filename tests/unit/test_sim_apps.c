/* test_sim_apps.c -- the applications do real work on disk: documents are created, zip writes a
 * compressed file, edit reads the file, open lists the directory, errors become error windows. */
#include "unit.h"

#include "simhost/desktop/apps.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

static char dir[1024];

static int setup(void)
{
    char err[512];
    snprintf(dir, sizeof dir, "%s/home", unit_tmpdir());
    return sim_apps_prepare_dir(dir, err, sizeof err);
}

static off_t file_size(const char *name)
{
    char path[1200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0 ? st.st_size : -1;
}

static void test_sim_apps__documents(void)
{
    CU_ASSERT_EQUAL(file_size("doc1.txt"), (off_t)SIM_DOC_BYTES);
    CU_ASSERT_EQUAL(file_size("doc3.txt"), (off_t)SIM_DOC_BYTES);
    char err[512];
    CU_ASSERT_EQUAL(sim_apps_prepare_dir(dir, err, sizeof err), 0);   /* idempotent */
    CU_ASSERT_EQUAL(sim_apps_prepare_dir("/proc/nope/x", err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/proc/nope/x"));
}

static void test_sim_apps__zip(void)
{
    struct sim_app_out o;
    struct sim_cmd c = { .kind = SIM_CMD_ZIP9 };
    snprintf(c.arg, sizeof c.arg, "doc1.txt");
    CU_ASSERT_EQUAL(sim_app_run(&c, dir, 0.05, 7, &o), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(o.line[0], "zip9 #7: "));
    CU_ASSERT_EQUAL(o.title_rgb, SIM_RGB_ZIP9_TITLE);
    off_t z9 = file_size("doc1.txt.z9");
    CU_ASSERT(z9 > 1000 && z9 < (off_t)(SIM_ZIP9_BYTES * 0.05));
    /* the output is a real zlib stream of the input */
    char path[1200];
    snprintf(path, sizeof path, "%s/doc1.txt.z9", dir);
    FILE *f = fopen(path, "rb");
    static unsigned char zbuf[1 << 20], raw[1 << 21];
    size_t zn = fread(zbuf, 1, sizeof zbuf, f);
    fclose(f);
    uLongf rawn = sizeof raw;
    CU_ASSERT_EQUAL(uncompress(raw, &rawn, zbuf, zn), Z_OK);
    CU_ASSERT_EQUAL(rawn, (uLongf)(SIM_ZIP9_BYTES * 0.05));
    CU_ASSERT_EQUAL(memcmp(raw, "Document 1", 10), 0);
    c.kind = SIM_CMD_ZIP1;
    CU_ASSERT_EQUAL(sim_app_run(&c, dir, 0.05, 8, &o), 0);
    CU_ASSERT(file_size("doc1.txt.z1") > z9);     /* level 1 compresses less */
}

static void test_sim_apps__edit_cpu_open(void)
{
    struct sim_app_out o, o2;
    struct sim_cmd c = { .kind = SIM_CMD_EDIT };
    snprintf(c.arg, sizeof c.arg, "doc2.txt");
    CU_ASSERT_EQUAL(sim_app_run(&c, dir, 0.01, 3, &o), 0);
    CU_ASSERT_TRUE(o.editor);
    CU_ASSERT_PTR_NOT_NULL(strstr(o.line[0], "edit #3: doc2.txt"));
    CU_ASSERT_PTR_NOT_NULL(strstr(o.line[1], "Document 2"));
    CU_ASSERT_EQUAL(o.n, SIM_LINES);
    c.kind = SIM_CMD_CPU;
    CU_ASSERT_EQUAL(sim_app_run(&c, dir, 0.01, 4, &o), 0);
    CU_ASSERT_EQUAL(sim_app_run(&c, dir, 0.01, 5, &o2), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(o.line[0], "cpu #4: "));
    CU_ASSERT_STRING_NOT_EQUAL(o.line[0], o2.line[0]);   /* the sequence number changes the pixels */
    c.kind = SIM_CMD_OPEN;
    CU_ASSERT_EQUAL(sim_app_run(&c, dir, 1, 6, &o), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(o.line[0], "listing #6"));
    int seen = 0;
    for (int i = 1; i < o.n; i++)
        seen += strncmp(o.line[i], "doc", 3) == 0;
    CU_ASSERT(seen >= 3);
}

static void test_sim_apps__errors(void)
{
    struct sim_app_out o;
    struct sim_cmd c = { .kind = SIM_CMD_EDIT };
    snprintf(c.arg, sizeof c.arg, "missing.txt");
    CU_ASSERT_EQUAL(sim_app_run(&c, dir, 0.01, 9, &o), -1);
    CU_ASSERT_EQUAL(o.title_rgb, SIM_RGB_ERROR_TITLE);
    CU_ASSERT_PTR_NOT_NULL(strstr(o.line[0], "missing.txt"));
    snprintf(c.arg, sizeof c.arg, ".");                     /* not a regular file: refused */
    CU_ASSERT_EQUAL(sim_app_run(&c, dir, 0.01, 9, &o), -1);
    CU_ASSERT_EQUAL(o.title_rgb, SIM_RGB_ERROR_TITLE);
    sim_cmd_parse("format c:", &c);
    CU_ASSERT_EQUAL(sim_app_run(&c, dir, 1, 10, &o), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(o.line[0], "unknown command: format c: (#10)"));
    c.kind = SIM_CMD_LOGOFF;
    CU_ASSERT_EQUAL(sim_app_run(&c, dir, 1, 11, &o), 0);
    CU_ASSERT_EQUAL(o.n, 0);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_apps__documents), UNIT_TEST(test_sim_apps__zip),
        UNIT_TEST(test_sim_apps__edit_cpu_open), UNIT_TEST(test_sim_apps__errors), UNIT_END,
    };
    return unit_run("sim_apps", tests, setup, NULL);
}

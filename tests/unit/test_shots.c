/* test_shots.c -- the shots directory: mkdir -p, and the contact sheet grouping PNGs by user. */
#include "unit.h"

#include "common/shots.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void touch(const char *dir, const char *name)
{
    char path[1100];   /* dir (< 1024) + "/" + the longest name: no truncation at -O3 either */
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fclose(f);
}

static void test_shots__mkdir_and_sheet(void)
{
    char dir[1024], err[256], *html = NULL;
    snprintf(dir, sizeof dir, "%s/shots/a/b", unit_tmpdir());
    CU_ASSERT_EQUAL_FATAL(shots_mkdir(dir, err, sizeof err), 0);
    CU_ASSERT_EQUAL(shots_mkdir(dir, err, sizeof err), 0);          /* exists: fine */
    touch(dir, "u-loop1-x.png");
    touch(dir, "u-loop0-app_start.png");
    touch(dir, "u-logon.png");
    touch(dir, "my-loopy-user-loop0-echo.png");
    touch(dir, "notes.txt");
    CU_ASSERT_EQUAL(shots_contact_sheet(dir, err, sizeof err), 4);
    char path[1100];
    snprintf(path, sizeof path, "%s/index.html", dir);
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    size_t cap = 0;
    CU_ASSERT(getdelim(&html, &cap, '\0', f) > 0);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h2>my-loopy-user</h2>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h2>u</h2>"));
    CU_ASSERT_PTR_NULL(strstr(html, "notes.txt"));
    /* one row per user, in name order */
    char *a = strstr(html, "u-logon.png"), *b = strstr(html, "u-loop0-app_start.png"), *c = strstr(html, "u-loop1-x.png");
    CU_ASSERT(a && b && c && b < c && strstr(html, "<figcaption>loop0-app_start.png"));
    free(html);
    snprintf(path, sizeof path, "%s/missing", dir);
    CU_ASSERT_EQUAL(shots_contact_sheet(path, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "missing"));
    snprintf(path, sizeof path, "%s/u-logon.png/x", dir);          /* a file in the way */
    CU_ASSERT_EQUAL(shots_mkdir(path, err, sizeof err), -1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_shots__mkdir_and_sheet),
        UNIT_END,
    };
    return unit_run("shots", tests, NULL, NULL);
}

/* test_drive_gen.c -- the keyed content of drive-test files: offsets, files, sizes. */
#include "unit.h"

#include "common/drive_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_drive_gen__offsets(void)
{
    uint64_t k = drive_gen_key("file10m");
    CU_ASSERT_EQUAL(drive_gen_key(""), 0xcbf29ce484222325ull);      /* FNV-1a 64 offset basis */
    CU_ASSERT_EQUAL(drive_gen_key("a"), 0xaf63dc4c8601ec8cull);     /* FNV-1a 64 of "a" */
    CU_ASSERT_NOT_EQUAL(k, drive_gen_key("file300m"));
    uint8_t whole[100], part[100];
    drive_gen_fill(k, 0, whole, sizeof whole);
    for (size_t off = 0; off < 40; off += 3) {        /* any offset, aligned or not, same bytes */
        drive_gen_fill(k, off, part, 37);
        CU_ASSERT_EQUAL(memcmp(part, whole + off, 37), 0);
    }
    /* word 0 = splitmix64 finaliser of key + gamma, little-endian */
    uint64_t z = k + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    for (int i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(whole[i], (uint8_t)(z >> (8 * i)));
}

static void test_drive_gen__file(void)
{
    char dir[] = "/tmp/test_drive_gen.XXXXXX", path[64], err[256];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/f1", dir);
    uint64_t size = (1u << 20) + 12345;               /* crosses the 1 MiB chunk */
    CU_ASSERT_EQUAL(drive_gen_write_file(path, "f1", size, err, sizeof err), 0);
    struct stat st;
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL((uint64_t)st.st_size, size);
    CU_ASSERT_EQUAL(st.st_mode & 0777, 0444);
    FILE *f = fopen(path, "rb");
    uint8_t *got = malloc(size), *want = malloc(size);
    CU_ASSERT_EQUAL(fread(got, 1, size, f), size);
    fclose(f);
    drive_gen_fill(drive_gen_key("f1"), 0, want, size);
    CU_ASSERT_EQUAL(memcmp(got, want, size), 0);
    CU_ASSERT_EQUAL(drive_gen_write_file(path, "f1", size, err, sizeof err), 0);   /* kept */
    free(got);
    free(want);
    snprintf(path, sizeof path, "%s/nodir/f", dir);
    CU_ASSERT_EQUAL(drive_gen_write_file(path, "f", 10, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "nodir"));
    snprintf(path, sizeof path, "%s/f1", dir);
    chmod(path, 0644);
    unlink(path);
    rmdir(dir);
}

static void test_drive_gen__sizes(void)
{
    uint64_t v = 0;
    CU_ASSERT_EQUAL(drive_gen_parse_size("10MB", &v), 0);
    CU_ASSERT_EQUAL(v, 10485760);
    CU_ASSERT_EQUAL(drive_gen_parse_size("300MB", &v), 0);
    CU_ASSERT_EQUAL(v, 314572800);
    CU_ASSERT_EQUAL(drive_gen_parse_size("64KB", &v), 0);
    CU_ASSERT_EQUAL(v, 65536);
    CU_ASSERT_EQUAL(drive_gen_parse_size("2GB", &v), 0);
    CU_ASSERT_EQUAL(v, 2147483648ull);
    CU_ASSERT_EQUAL(drive_gen_parse_size("4096", &v), 0);
    CU_ASSERT_EQUAL(v, 4096);
    CU_ASSERT_EQUAL(drive_gen_parse_size("7B", &v), 0);
    CU_ASSERT_EQUAL(v, 7);
    CU_ASSERT_EQUAL(drive_gen_parse_size("", &v), -1);
    CU_ASSERT_EQUAL(drive_gen_parse_size("MB", &v), -1);
    CU_ASSERT_EQUAL(drive_gen_parse_size("0", &v), -1);
    CU_ASSERT_EQUAL(drive_gen_parse_size("10 MB", &v), -1);
    CU_ASSERT_EQUAL(drive_gen_parse_size("10mb", &v), -1);
    CU_ASSERT_EQUAL(drive_gen_parse_size("-1", &v), -1);
    CU_ASSERT_EQUAL(drive_gen_parse_size("99999999999999999999", &v), -1);
    CU_ASSERT_EQUAL(drive_gen_parse_size("99999999999GB", &v), -1);
    CU_ASSERT_DOUBLE_EQUAL(drive_gen_mbps(10485760, 2000000), 5.0, 1e-9);   /* 10 MiB in 2 s */
    CU_ASSERT_DOUBLE_EQUAL(drive_gen_mbps(1, 0), 0.0, 1e-12);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_drive_gen__offsets), UNIT_TEST(test_drive_gen__file), UNIT_TEST(test_drive_gen__sizes),
        UNIT_END,
    };
    return unit_run("drive_gen", tests, NULL, NULL);
}

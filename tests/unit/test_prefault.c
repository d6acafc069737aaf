/* test_prefault.c -- prefault maps a fresh array's pages at once and keeps what they hold. */
#include "unit.h"

#include "common/prefault.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Pages of [p, p + len) resident now (mincore). */
static size_t resident(void *p, size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (len + page - 1) / page, k = 0;
    unsigned char *v = malloc(n);
    if (v && mincore(p, len, v) == 0)
        for (size_t i = 0; i < n; i++)
            k += v[i] & 1;
    free(v);
    return k;
}

static void test_prefault__maps_every_page(void)
{
    size_t len = 8u << 20, page = (size_t)sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CU_ASSERT_FATAL(p != MAP_FAILED);
    CU_ASSERT_EQUAL(resident(p, len), 0);
    int rc = prefault(p, len);
    if (rc == 0)   /* a kernel before 5.14 cannot: then nothing is asked of it */
        CU_ASSERT_EQUAL(resident(p, len), len / page);
    munmap(p, len);
}

static void test_prefault__keeps_contents(void)
{
    size_t len = 3u << 20;
    unsigned char *p = malloc(len + 123);
    CU_ASSERT_FATAL(p != NULL);
    for (size_t i = 0; i < len + 123; i++)
        p[i] = (unsigned char)(i * 7);
    prefault(p + 123, len);          /* not page aligned: only whole pages inside */
    size_t bad = 0;
    for (size_t i = 0; i < len + 123; i++)
        bad += p[i] != (unsigned char)(i * 7);
    CU_ASSERT_EQUAL(bad, 0);
    free(p);
}

static void test_prefault__small_or_null_is_nothing(void)
{
    char buf[64];
    CU_ASSERT_EQUAL(prefault(NULL, 1u << 24), 0);
    CU_ASSERT_EQUAL(prefault(buf, sizeof buf), 0);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_prefault__maps_every_page),
        UNIT_TEST(test_prefault__keeps_contents),
        UNIT_TEST(test_prefault__small_or_null_is_nothing),
        UNIT_END,
    };
    return unit_run("prefault", tests, NULL, NULL);
}

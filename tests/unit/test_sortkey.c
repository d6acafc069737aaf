/* test_sortkey.c -- the radix sort against qsort: random, signed, constant and tied keys, with
 * and without the payload, and stability (equal keys keep their payload order), at every size
 * around the small-input path and around the merge sort's run and size limits. */
#include "unit.h"

#include "common/sortkey.h"

#include <stdlib.h>
#include <string.h>

struct pair { int64_t k; uint32_t p; };

static int by_key_then_payload(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    return (x->p > y->p) - (x->p < y->p);
}

/* Sorts n keys drawn by gen() both ways; the payload is the original position, so a stable sort
 * equals qsort by (key, position). */
static void check(size_t n, int64_t (*gen)(uint64_t *s))
{
    int64_t *k = malloc((n ? n : 1) * sizeof *k);
    uint32_t *p = malloc((n ? n : 1) * sizeof *p);
    struct pair *ref = malloc((n ? n : 1) * sizeof *ref);
    uint64_t seed = 0x9E3779B97F4A7C15ull + n;
    CU_ASSERT_FATAL(k && p && ref);
    for (size_t i = 0; i < n; i++) {
        k[i] = gen(&seed);
        p[i] = (uint32_t)i;
        ref[i] = (struct pair){ k[i], (uint32_t)i };
    }
    qsort(ref, n, sizeof *ref, by_key_then_payload);
    CU_ASSERT_EQUAL_FATAL(sortkey_i64(k, p, n), 0);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += k[i] != ref[i].k || p[i] != ref[i].p;
    CU_ASSERT_EQUAL(bad, 0);
    for (size_t i = 0; i < n; i++)        /* keys alone */
        k[i] = ref[(i * 7919) % (n ? n : 1)].k;
    CU_ASSERT_EQUAL_FATAL(sortkey_i64(k, NULL, n), 0);
    for (size_t i = 0; i + 1 < n; i++)
        bad += k[i] > k[i + 1];
    CU_ASSERT_EQUAL(bad, 0);
    free(k);
    free(p);
    free(ref);
}

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int64_t any64(uint64_t *s) { return (int64_t)next(s); }
static int64_t micros(uint64_t *s) { return 800000 + (int64_t)(next(s) % 200000); }
static int64_t few(uint64_t *s) { return (int64_t)(next(s) % 5) - 2; }
static int64_t same(uint64_t *s) { (void)s; return 42; }

static void test_sortkey__matches_qsort(void)
{
    check(100000, any64);
    check(100000, micros);
    check(7919, few);
}

/* Around the insertion-sort threshold: every size from 2 to 130, tied and spread keys. */
static void test_sortkey__small(void)
{
    for (size_t n = 2; n <= 130; n++) {
        check(n, few);
        check(n, any64);
    }
}

/* The merge sort (65..1024 keys): sizes at and next to its 32-key runs and powers of two, an odd
 * last run, and both sides of its limit, where the radix sort takes over. */
static void test_sortkey__merge(void)
{
    static const size_t sizes[] = { 65, 95, 96, 97, 127, 128, 129, 255, 256, 257, 300, 511, 512, 513,
                                    777, 1000, 1023, 1024, 1025, 1100 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        check(sizes[i], few);
        check(sizes[i], micros);
        check(sizes[i], any64);
        check(sizes[i], same);
    }
}

static void test_sortkey__edges(void)
{
    check(0, micros);
    check(1, micros);
    check(1000, same);
    int64_t k[] = { INT64_MAX, INT64_MIN, 0, -1, 1 };
    CU_ASSERT_EQUAL_FATAL(sortkey_i64(k, NULL, 5), 0);
    CU_ASSERT_TRUE(k[0] == INT64_MIN && k[1] == -1 && k[2] == 0 && k[3] == 1 && k[4] == INT64_MAX);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sortkey__matches_qsort),
        UNIT_TEST(test_sortkey__small),
        UNIT_TEST(test_sortkey__merge),
        UNIT_TEST(test_sortkey__edges),
        UNIT_END,
    };
    return unit_run("sortkey", tests, NULL, NULL);
}

/* test_runmerge.c -- runmerge_sort: a stable sort of ordered stretches, any element size. */
#include "unit.h"

#include "common/runmerge.h"

#include <stdint.h>
#include <stdlib.h>

/* key to sort by, and the element's place before the sort (to see stability) */
struct item {
    int32_t key;
    uint32_t at;
    char pad[5];              /* an odd size: nothing may assume a word-sized element */
};

static int by_key(const void *a, const void *b)
{
    return ((const struct item *)a)->key < ((const struct item *)b)->key;
}

static struct item *items(const int32_t *keys, size_t n)
{
    struct item *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        v[i] = (struct item){ keys[i], (uint32_t)i, "pad" };
    return v;
}

/* Ascending by key, and equal keys in their first order. */
static int stably_sorted(const struct item *v, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (v[i].key < v[i - 1].key || (v[i].key == v[i - 1].key && v[i].at < v[i - 1].at))
            return 0;
    return 1;
}

static void test_runmerge__equal_keys_keep_their_order(void)
{
    static const int32_t keys[] = { 5, 7, 7, 9, 1, 7, 7, 2, 5, 5, 7, 0 };
    size_t n = sizeof keys / sizeof keys[0];
    struct item *v = items(keys, n);
    CU_ASSERT_FATAL(v != NULL);
    CU_ASSERT_EQUAL(runmerge_sort((void **)&v, n, sizeof *v, by_key) >= 0, 1);
    CU_ASSERT_TRUE(stably_sorted(v, n));
    /* the 7s: places 1, 2, 5, 6, 10 in that order */
    static const uint32_t sevens[] = { 1, 2, 5, 6, 10 };
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].key == 7)
            CU_ASSERT_EQUAL(v[i].at, sevens[k++]);
    CU_ASSERT_EQUAL(k, 5);
    CU_ASSERT_STRING_EQUAL(v[3].pad, "pad");
    free(v);
}

/* Stretch counts 1..9 (odd ones leave a last stretch with no partner in a pass). */
static void test_runmerge__any_number_of_stretches(void)
{
    for (size_t stretches = 1; stretches <= 9; stretches++) {
        int32_t keys[90];
        size_t n = 0;
        for (size_t s = 0; s < stretches; s++)      /* each ascends, each starts below the last's end */
            for (size_t i = 0; i < 10; i++)
                keys[n++] = (int32_t)((stretches - s + 3 * i) / 2);
        struct item *v = items(keys, n);
        CU_ASSERT_FATAL(v != NULL);
        int rc = runmerge_sort((void **)&v, n, sizeof *v, by_key);
        CU_ASSERT_TRUE(rc >= 0);
        CU_ASSERT_TRUE(stably_sorted(v, n));
        free(v);
    }
}

static void test_runmerge__in_order_stays_in_place(void)
{
    static const int32_t keys[] = { 1, 1, 2, 3, 3, 3, 8 };
    struct item *v = items(keys, 7), *was = v;
    CU_ASSERT_FATAL(v != NULL);
    CU_ASSERT_EQUAL(runmerge_sort((void **)&v, 7, sizeof *v, by_key), 0);
    CU_ASSERT_PTR_EQUAL(v, was);
    for (uint32_t i = 0; i < 7; i++)
        CU_ASSERT_EQUAL(v[i].at, i);
    free(v);
}

static void test_runmerge__zero_and_one_element(void)
{
    void *none = NULL;
    CU_ASSERT_EQUAL(runmerge_sort(&none, 0, sizeof(struct item), by_key), 0);
    CU_ASSERT_PTR_NULL(none);
    static const int32_t one[] = { 42 };
    struct item *v = items(one, 1), *was = v;
    CU_ASSERT_FATAL(v != NULL);
    CU_ASSERT_EQUAL(runmerge_sort((void **)&v, 1, sizeof *v, by_key), 0);
    CU_ASSERT_PTR_EQUAL(v, was);
    CU_ASSERT_EQUAL(v[0].key, 42);
    free(v);
}

/* Random keys from a small range (many ties) against a plain stable insertion sort. */
static void test_runmerge__matches_a_stable_insertion_sort(void)
{
    enum { N = 1000 };
    int32_t keys[N];
    uint32_t seed = 7;
    for (size_t i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        keys[i] = (int32_t)((seed >> 16) % 50) - 25;
    }
    struct item *v = items(keys, N), *ref = items(keys, N);
    CU_ASSERT_FATAL(v != NULL && ref != NULL);
    for (size_t i = 1; i < N; i++) {
        struct item x = ref[i];
        size_t j = i;
        for (; j > 0 && ref[j - 1].key > x.key; j--)
            ref[j] = ref[j - 1];
        ref[j] = x;
    }
    CU_ASSERT_EQUAL(runmerge_sort((void **)&v, N, sizeof *v, by_key), 1);
    size_t same = 0;
    for (size_t i = 0; i < N; i++)
        same += v[i].key == ref[i].key && v[i].at == ref[i].at;
    CU_ASSERT_EQUAL(same, N);
    free(v);
    free(ref);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_runmerge__equal_keys_keep_their_order),
        UNIT_TEST(test_runmerge__any_number_of_stretches),
        UNIT_TEST(test_runmerge__in_order_stays_in_place),
        UNIT_TEST(test_runmerge__zero_and_one_element),
        UNIT_TEST(test_runmerge__matches_a_stable_insertion_sort),
        UNIT_END,
    };
    return unit_run("runmerge", tests, NULL, NULL);
}

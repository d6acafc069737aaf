/* runmerge.c -- stable merge of ordered stretches (runmerge.h). */
#include "common/runmerge.h"

#include <stdlib.h>
#include <string.h>

/* End of the ordered stretch that starts at element i. */
static size_t stretch(const char *a, size_t i, size_t n, size_t size, runmerge_before_fn before)
{
    while (++i < n && !before(a + i * size, a + (i - 1) * size))
        ;
    return i;
}

/* One pass: merges each pair of neighbouring stretches of a into b, the left one first on ties. */
static void merge_pass(const char *a, char *b, size_t n, size_t size, runmerge_before_fn before)
{
    char *o = b;
    for (size_t lo = 0; lo < n;) {
        size_t mid = stretch(a, lo, n, size, before), hi = mid < n ? stretch(a, mid, n, size, before) : n;
        size_t i = lo, j = mid;
        while (i < mid && j < hi) {
            size_t from = before(a + j * size, a + i * size) ? j++ : i++;
            memcpy(o, a + from * size, size);
            o += size;
        }
        memcpy(o, a + i * size, (mid - i) * size);
        o += (mid - i) * size;
        memcpy(o, a + j * size, (hi - j) * size);
        o += (hi - j) * size;
        lo = hi;
    }
}

int runmerge_sort(void **base, size_t n, size_t size, runmerge_before_fn before)
{
    char *a = *base, *b = NULL;
    while (n && stretch(a, 0, n, size, before) < n) {
        if (!b && !(b = malloc(n * size)))
            return -1;
        merge_pass(a, b, n, size, before);
        char *t = a;
        a = b;
        b = t;
    }
    if (a == *base) {
        free(b);
        return 0;
    }
    free(*base);
    *base = a;
    return 1;
}

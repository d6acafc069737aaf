/* sortkey.c -- stable LSD radix sort, 11-bit digits: one pass builds every digit's histogram,
 * digits that are the same for every key (the high bits of microsecond values) are skipped, so
 * typical response times take 3 passes. Up to SORTKEY_SMALL keys (a timer of a short run) an
 * insertion sort does it without the 96 KB of histograms; up to SORTKEY_MERGE keys (a short
 * run's traffic, a timer of a few hundred samples) a merge sort of insertion-sorted runs does,
 * where zeroing and sweeping the 6 x 2048 counters cost more than the sort itself. */
#include "common/sortkey.h"
#include "common/prefault.h"

#include <stdlib.h>
#include <string.h>

#define SORTKEY_BITS 11
#define SORTKEY_DIGITS 6            /* 6 x 11 >= 64 */
#define SORTKEY_RADIX (1u << SORTKEY_BITS)
#define SORTKEY_SMALL 64
#define SORTKEY_MERGE 1024
#define SORTKEY_RUN 32              /* the merge sort's first runs, each insertion-sorted */

/* Stable insertion sort for a few keys: no scratch memory. */
static void sort_small(int64_t *key, uint32_t *payload, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        int64_t k = key[i];
        uint32_t p = payload ? payload[i] : 0;
        size_t j = i;
        for (; j > 0 && key[j - 1] > k; j--) {
            key[j] = key[j - 1];
            if (payload)
                payload[j] = payload[j - 1];
        }
        key[j] = k;
        if (payload)
            payload[j] = p;
    }
}

/* After a pass: the pass's output (d) is the next pass's input (s). */
static void flip(int64_t **ks, int64_t **kd, uint32_t **ps, uint32_t **pd)
{
    int64_t *kt = *ks;
    uint32_t *pt = *ps;
    *ks = *kd, *kd = kt;
    *ps = *pd, *pd = pt;
}

/* After the last pass: the sorted keys (and payloads) into the caller's arrays if not there. */
static void copy_back(int64_t *key, uint32_t *payload, const int64_t *ks, const uint32_t *ps, size_t n)
{
    if (ks == key)
        return;
    memcpy(key, ks, n * sizeof *key);
    if (payload)
        memcpy(payload, ps, n * sizeof *payload);
}

/* Merges the sorted runs src[lo..mid) and src[mid..hi) into dst[lo..hi), the left run first on ties. */
static void merge(const int64_t *ks, const uint32_t *ps, int64_t *kd, uint32_t *pd, size_t lo, size_t mid,
                  size_t hi)
{
    size_t i = lo, j = mid;
    for (size_t o = lo; o < hi; o++) {
        size_t from = (j >= hi || (i < mid && ks[i] <= ks[j])) ? i++ : j++;
        kd[o] = ks[from];
        if (ps)
            pd[o] = ps[from];
    }
}

/* Stable bottom-up merge sort through the scratch arrays kbuf and pbuf (n keys each). */
static void sort_merge(int64_t *key, uint32_t *payload, int64_t *kbuf, uint32_t *pbuf, size_t n)
{
    for (size_t lo = 0; lo < n; lo += SORTKEY_RUN)
        sort_small(key + lo, payload ? payload + lo : NULL, n - lo < SORTKEY_RUN ? n - lo : SORTKEY_RUN);
    int64_t *ks = key, *kd = kbuf;
    uint32_t *ps = payload, *pd = pbuf;
    for (size_t w = SORTKEY_RUN; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            merge(ks, ps, kd, pd, lo, mid, hi);
        }
        flip(&ks, &kd, &ps, &pd);
    }
    copy_back(key, payload, ks, ps, n);
}

static inline uint64_t ukey(int64_t k)
{
    return (uint64_t)k ^ (UINT64_C(1) << 63);   /* signed order as unsigned order */
}

static inline unsigned digit(uint64_t u, unsigned d)
{
    return (unsigned)(u >> (d * SORTKEY_BITS)) & (SORTKEY_RADIX - 1);
}

/* kbuf: the caller's scratch for n keys, or NULL (then malloc'd and freed here). */
static int sort_keys(int64_t *key, uint32_t *payload, size_t n, int64_t *given)
{
    if (n <= SORTKEY_SMALL) {
        sort_small(key, payload, n);
        return 0;
    }
    int64_t *kbuf = given ? given : malloc(n * sizeof *kbuf);
    uint32_t *pbuf = payload ? malloc(n * sizeof *pbuf) : NULL;
    if (n <= SORTKEY_MERGE && kbuf && (pbuf || !payload)) {
        sort_merge(key, payload, kbuf, pbuf, n);
        if (!given)
            free(kbuf);
        free(pbuf);
        return 0;
    }
    size_t (*hist)[SORTKEY_RADIX] = calloc(SORTKEY_DIGITS, sizeof *hist);
    if (!hist || !kbuf || (payload && !pbuf)) {
        free(hist);
        if (!given)
            free(kbuf);
        free(pbuf);
        return -1;
    }
    if (!given)
        prefault(kbuf, n * sizeof *kbuf);
    prefault(pbuf, payload ? n * sizeof *pbuf : 0);
    for (size_t i = 0; i < n; i++) {
        uint64_t u = ukey(key[i]);
        for (unsigned d = 0; d < SORTKEY_DIGITS; d++)
            hist[d][digit(u, d)]++;
    }
    int64_t *ks = key, *kd = kbuf;
    uint32_t *ps = payload, *pd = pbuf;
    for (unsigned d = 0; d < SORTKEY_DIGITS; d++) {
        size_t *h = hist[d];
        if (h[digit(ukey(key[0]), d)] == n)
            continue;                    /* every key has this digit: the pass would not move */
        size_t pos = 0;
        for (unsigned b = 0; b < SORTKEY_RADIX; b++) {
            size_t c = h[b];
            h[b] = pos;
            pos += c;
        }
        for (size_t i = 0; i < n; i++) {
            size_t at = h[digit(ukey(ks[i]), d)]++;
            kd[at] = ks[i];
            if (ps)
                pd[at] = ps[i];
        }
        flip(&ks, &kd, &ps, &pd);
    }
    copy_back(key, payload, ks, ps, n);
    free(hist);
    if (!given)
        free(kbuf);
    free(pbuf);
    return 0;
}

int sortkey_i64(int64_t *key, uint32_t *payload, size_t n)
{
    return sort_keys(key, payload, n, NULL);
}

int sortkey_i64_scratch(int64_t *key, size_t n, int64_t *scratch, size_t room)
{
    return sort_keys(key, NULL, n, scratch && room >= n ? scratch : NULL);
}

/* sortkey.c -- stable LSD radix sort, 11-bit digits: one pass builds every digit's histogram,
 * digits that are the same for every key (the high bits of microsecond values) are skipped, so
 * typical response times take 3 passes. Up to SORTKEY_SMALL keys (a timer of a short run) an
 * insertion sort does it without the 96 KB of histograms. */
#include "controller/score/sortkey.h"
#include "common/prefault.h"

#include <stdlib.h>
#include <string.h>

#define SORTKEY_BITS 11
#define SORTKEY_DIGITS 6            /* 6 x 11 >= 64 */
#define SORTKEY_RADIX (1u << SORTKEY_BITS)
#define SORTKEY_SMALL 64

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

static inline uint64_t ukey(int64_t k)
{
    return (uint64_t)k ^ (UINT64_C(1) << 63);   /* signed order as unsigned order */
}

static inline unsigned digit(uint64_t u, unsigned d)
{
    return (unsigned)(u >> (d * SORTKEY_BITS)) & (SORTKEY_RADIX - 1);
}

int sortkey_i64(int64_t *key, uint32_t *payload, size_t n)
{
    if (n <= SORTKEY_SMALL) {
        sort_small(key, payload, n);
        return 0;
    }
    size_t (*hist)[SORTKEY_RADIX] = calloc(SORTKEY_DIGITS, sizeof *hist);
    int64_t *kbuf = malloc(n * sizeof *kbuf);
    uint32_t *pbuf = payload ? malloc(n * sizeof *pbuf) : NULL;
    if (!hist || !kbuf || (payload && !pbuf)) {
        free(hist);
        free(kbuf);
        free(pbuf);
        return -1;
    }
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
        int64_t *kt = ks; ks = kd; kd = kt;
        uint32_t *pt = ps; ps = pd; pd = pt;
    }
    if (ks != key) {
        memcpy(key, ks, n * sizeof *key);
        if (payload)
            memcpy(payload, ps, n * sizeof *payload);
    }
    free(hist);
    free(kbuf);
    free(pbuf);
    return 0;
}

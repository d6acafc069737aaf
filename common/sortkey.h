/* sortkey.h -- stable LSD radix sort of 64-bit signed keys, optionally carrying a 32-bit payload
 * per key. The score ranks a million samples and the summary sorts every timer's values: a
 * comparison sort through qsort's callback was a third of `sessmax score`'s time. Pure, no I/O. */
#ifndef SESSMAX_SORTKEY_H
#define SESSMAX_SORTKEY_H

#include <stddef.h>
#include <stdint.h>

/* Sorts key[0..n) ascending, moving payload[i] (when not NULL) with key[i]; equal keys keep
 * their order. Returns -1 when the scratch memory cannot be allocated (nothing moved). */
int sortkey_i64(int64_t *key, uint32_t *payload, size_t n);
/* The same without payloads, using `scratch` (room for `room` keys, memory already mapped) when
 * it holds n keys: a fresh array of a million keys costs more to map than the sort itself. */
int sortkey_i64_scratch(int64_t *key, size_t n, int64_t *scratch, size_t room);

#endif

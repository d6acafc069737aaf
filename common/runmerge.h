/* runmerge.h -- stable sort of an array that is already made of a few ordered stretches (samples
 * read back in arrival order are nearly in time order): neighbouring stretches are merged, pass
 * after pass, until one is left. An array already in order costs one read-only pass and no
 * memory. Any element size; the order is the caller's `before`. Pure, no I/O. */
#ifndef SESSMAX_RUNMERGE_H
#define SESSMAX_RUNMERGE_H

#include <stddef.h>

/* Whether element a goes strictly before element b (equal elements keep their order). */
typedef int (*runmerge_before_fn)(const void *a, const void *b);

/* Sorts the n elements of `size` bytes at *base (malloc'd) by `before`, stably. The result may
 * end up in a new malloc'd array: then the old one is freed, *base points to the new one and 1
 * is returned. 0: sorted where it was. -1: no memory for the scratch array (nothing moved). */
int runmerge_sort(void **base, size_t n, size_t size, runmerge_before_fn before);

#endif

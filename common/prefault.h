/* prefault.h -- map a large fresh array at once, in huge pages where the kernel allows, before
 * it is filled.
 *
 * On this project's virtual machines the first write to each fresh 4 KiB page costs about 5 µs
 * (a guest page fault and the hypervisor's own): filling 40 MB took 215 ms, the same memory
 * advised as huge pages (transparent_hugepage "madvise" mode) and populated at once 15 ms. The
 * analysis verbs fill arrays of tens of MB for a million samples and spent most of their time
 * there. */
#ifndef SESSMAX_PREFAULT_H
#define SESSMAX_PREFAULT_H

#include <stddef.h>

/* Advises the whole pages inside [p, p + len) as huge pages and maps them writable now, keeping
 * their contents. Below
 * PREFAULT_MIN bytes it does nothing. Returns 0, or -1 when the kernel cannot (before Linux 5.14):
 * the memory is then faulted in on first touch as usual, so callers may ignore the result. */
#define PREFAULT_MIN (1u << 20)
int prefault(void *p, size_t len);

#endif

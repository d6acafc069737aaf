/* prefault.c -- fault in a large fresh array in one system call (prefault.h). */
#include "common/prefault.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23   /* Linux 5.14 */
#endif

int prefault(void *p, size_t len)
{
    if (!p || len < PREFAULT_MIN)
        return 0;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1), e = ((uintptr_t)p + len) & ~(page - 1);
    if (e <= a)
        return 0;
    (void)madvise((void *)a, e - a, MADV_HUGEPAGE);   /* advice only: fine when refused */
    return madvise((void *)a, e - a, MADV_POPULATE_WRITE) == 0 ? 0 : -1;
}

/* bulk_tables.c -- the bulk context constructors replaced so that their zeroed tables are not
 * resident (contract and why: bulk_tables.h; figures in docs/agent.md and docs/simhost.md).
 *
 * The replacements come first in symbol lookup because the program defines them; rdp_new's
 * calls reach them through libfreerdp's PLT. Each is made by one macro from the list below,
 * and the library's own constructors are looked up once, under pthread_once, because sessions
 * connect on several threads at a time. */
#include "compat/bulk_tables.h"

#include <dlfcn.h>
#include <freerdp/freerdp.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <freerdp/codec/mppc.h>
#include <freerdp/codec/ncrush.h>
#include <freerdp/codec/xcrush.h>

/* X(context type, constructor, parameters, arguments): the constructors replaced. */
#define BULK_CONSTRUCTORS(X)                                                                   \
    X(XCRUSH_CONTEXT, xcrush_context_new, (BOOL compressor), (compressor))                     \
    X(NCRUSH_CONTEXT, ncrush_context_new, (BOOL compressor), (compressor))                     \
    X(MPPC_CONTEXT, mppc_context_new, (DWORD level, BOOL compressor), (level, compressor))

#define BULK_ENUM(type, name, params, args) BULK_##name,
#define BULK_NAME(type, name, params, args) #name,
enum bulk_constructor { BULK_CONSTRUCTORS(BULK_ENUM) BULK_COUNT };
static const char *const bulk_names[BULK_COUNT] = { BULK_CONSTRUCTORS(BULK_NAME) };

static void *bulk_real[BULK_COUNT];   /* the library's own, written once under bulk_once */
static pthread_once_t bulk_once = PTHREAD_ONCE_INIT;
static int bulk_none;   /* set by bulk_tables_none before any connection */

static void bulk_resolve(void)
{
    for (int i = 0; i < BULK_COUNT; i++)
        bulk_real[i] = dlsym(RTLD_NEXT, bulk_names[i]);
}

/* The library's own constructor i (NULL when it has none). */
static void *bulk_next(enum bulk_constructor i)
{
    pthread_once(&bulk_once, bulk_resolve);
    return bulk_real[i];
}

int bulk_tables_init(void)
{
    for (int i = 0; i < BULK_COUNT; i++)
        if (!bulk_next((enum bulk_constructor)i))
            return -1;
    return 0;
}

/* Relies on FreeRDP 2.11's bulk_new, bulk_free and server (bulk_tables.h): compiled only when the
 * configure-time probe COMPAT_HAVE_BULK_NULL_CONTEXTS (compat/probes.cmake) made and freed a server
 * context with these constructors returning NULL; otherwise compiled out (contexts are made). */
int bulk_tables_none(void)
{
#ifdef COMPAT_HAVE_BULK_NULL_CONTEXTS
    bulk_none = 1;
#endif
    return bulk_none;
}

static int page_is_zero(const unsigned char *p, size_t n)
{
    static const unsigned char zero[256];
    for (size_t i = 0; i < n; i += sizeof zero)
        if (memcmp(p + i, zero, sizeof zero) != 0)
            return 0;
    return 1;
}

/* Releases [from, to) when it is not empty; returns the bytes released. */
static size_t release_run(uintptr_t from, uintptr_t to)
{
    return to > from && madvise((void *)from, to - from, MADV_DONTNEED) == 0 ? to - from : 0;
}

size_t bulk_tables_release_zero_pages(void *block)
{
    if (!block)
        return 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), released = 0;
    uintptr_t start = (uintptr_t)block, end = start + malloc_usable_size(block);
    uintptr_t p = (start + page - 1) & ~(uintptr_t)(page - 1), run = p;
    /* whole pages inside the block only: nothing else lives in them, and the caller owns the
     * block, so no other thread writes them between the check and the release. Each run of zero
     * pages is one madvise: a call per page costs a TLB shootdown each, and in simhost these
     * calls run on the thread that accepts connections (≈ 2,500 pages per peer). */
    for (; p + page <= end; p += page) {
        if (!page_is_zero((const unsigned char *)p, page)) {
            released += release_run(run, p);
            run = p + page;
        }
    }
    return released + release_run(run, p);
}

/* One replacement: no context (bulk_tables_none), or the library's own constructor, then the new
 * context's zero pages released. */
#define BULK_REPLACE(type, name, params, args)                                                 \
    type *name params                                                                          \
    {                                                                                          \
        if (bulk_none)                                                                         \
            return NULL;                                                                       \
        type *(*real) params = (type * (*) params) bulk_next(BULK_##name);                     \
        type *c = real ? real args : NULL;                                                     \
        bulk_tables_release_zero_pages(c);                                                        \
        return c;                                                                              \
    }

BULK_CONSTRUCTORS(BULK_REPLACE)

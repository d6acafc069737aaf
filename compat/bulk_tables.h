/* bulk_tables.h -- FreeRDP 2.11's bulk (de)compressor contexts without their zeroed tables resident,
 * for the agent and simhost alike.
 *
 * rdp_new makes a compressor and a decompressor of each bulk type (XCrush, NCrush, MPPC; about
 * 5 MB of address space per connection) and zeroes their tables, which makes about 2.2 MB
 * resident before a byte is exchanged, whether or not the connection ever uses them. Linking
 * bulk_tables.c replaces xcrush_context_new, ncrush_context_new and mppc_context_new for the whole
 * process: each calls the library's own (dlsym(RTLD_NEXT)) and hands the context's zero pages
 * back to the kernel. They read as zero again and become resident only when data reaches them.
 * No private FreeRDP layout is needed, so this holds for any FreeRDP with these entry points.
 *
 * Finding those pages means reading the whole context (≈ 5 MB per connection). A program whose
 * connections never use their bulk contexts skips that: after bulk_tables_none() the constructors
 * make no context at all. That is simhost's case: a FreeRDP 2.11 server never decompresses what a
 * client sends, compresses only fast-path updates while CompressionEnabled is set (simhost clears
 * it, simhost/server/bulk.h), and its bulk_new/bulk_free accept NULL contexts. That is checked
 * at configure time (compat/probes.cmake); where the check fails, bulk_tables_none() changes
 * nothing. */
#ifndef SESSMAX_BULK_TABLES_H
#define SESSMAX_BULK_TABLES_H

#include <stddef.h>

/* Finds the library's own constructors (the replacements also do it on their first call, once
 * for all threads). Call it once at start: it keeps the replacements in a program linked from
 * static libraries, and says whether they can work. Returns 0, or -1 when the library's
 * constructors were not found (then no bulk context can be made). */
int bulk_tables_init(void);

/* From now on the constructors make no context (see above); call it at start, before any
 * connection. Returns 1, or 0 when the build's probe did not find FreeRDP 2.11's NULL-tolerant server
 * (then contexts are made and their zero pages released as before). */
int bulk_tables_none(void);

/* Hands the whole pages of a malloc'd block that hold only zeroes back to the kernel (they read
 * as zero again); the caller owns the block. Returns the bytes released (0 for NULL). */
size_t bulk_tables_release_zero_pages(void *block);

#endif

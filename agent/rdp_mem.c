/* rdp_mem.c -- keeps FreeRDP's per-session memory to what a load client uses (contract:
 * rdp_mem.h; the breakdown is in docs/agent.md).
 *
 * FreeRDP 2.11 has no setting for two of its biggest per-session costs, so the agent replaces
 * three library entry points (its definitions come first in symbol lookup; each calls the
 * library's own through dlsym(RTLD_NEXT)):
 *  - freerdp_client_codecs_prepare: every connect asks for FREERDP_CODEC_ALL; only the codecs
 *    the session can receive are made (no GFX: no H.264, progressive or ClearCodec; RemoteFX
 *    and NSCodec only if announced);
 *  - xcrush/ncrush/mppc_context_new: rdp_new makes a compressor and a decompressor of each bulk
 *    type (≈ 5 MB of address space) and zeroes their tables, which makes ≈ 2.2 MB resident
 *    before a byte is exchanged. A client only ever decompresses, and only with the type the
 *    server picked. The zeroed pages are handed back to the kernel (MADV_DONTNEED): they read
 *    as zero again, and become resident only if the server's data reaches them. */
#include "agent/rdp_mem.h"

#include <dlfcn.h>
#include <malloc.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <freerdp/codec/mppc.h>
#include <freerdp/codec/ncrush.h>
#include <freerdp/codec/xcrush.h>
#include <freerdp/codecs.h>
#include <freerdp/freerdp.h>

/* Big allocations always come from their own mapping, and are unmapped when freed: glibc's
 * default threshold grows to the size of the largest block freed (a framebuffer, a bulk
 * context), after which those come from the heap, where calloc must write zeroes over reused
 * memory and a framebuffer nobody paints is resident anyway. */
#define RDP_MEM_MMAP_THRESHOLD (256 * 1024)

void rdp_mem_init(void)
{
    mallopt(M_MMAP_THRESHOLD, RDP_MEM_MMAP_THRESHOLD);
}

static int page_is_zero(const unsigned char *p, size_t n)
{
    static const unsigned char zero[256];
    for (size_t i = 0; i < n; i += sizeof zero)
        if (memcmp(p + i, zero, sizeof zero) != 0)
            return 0;
    return 1;
}

size_t rdp_mem_release_zero_pages(void *block)
{
    if (!block)
        return 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), released = 0;
    uintptr_t start = (uintptr_t)block, end = start + malloc_usable_size(block);
    uintptr_t p = (start + page - 1) & ~(uintptr_t)(page - 1);
    /* whole pages inside the block only: nothing else lives in them, and the caller owns the
     * block, so no other thread writes them between the check and the release */
    for (; p + page <= end; p += page) {
        if (page_is_zero((const unsigned char *)p, page) &&
            madvise((void *)p, page, MADV_DONTNEED) == 0)
            released += page;
    }
    return released;
}

static void *next_symbol(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

XCRUSH_CONTEXT *xcrush_context_new(BOOL compressor)
{
    static XCRUSH_CONTEXT *(*real)(BOOL);
    if (!real && !(real = (XCRUSH_CONTEXT * (*)(BOOL)) next_symbol("xcrush_context_new")))
        return NULL;
    XCRUSH_CONTEXT *c = real(compressor);
    rdp_mem_release_zero_pages(c);
    return c;
}

NCRUSH_CONTEXT *ncrush_context_new(BOOL compressor)
{
    static NCRUSH_CONTEXT *(*real)(BOOL);
    if (!real && !(real = (NCRUSH_CONTEXT * (*)(BOOL)) next_symbol("ncrush_context_new")))
        return NULL;
    NCRUSH_CONTEXT *c = real(compressor);
    rdp_mem_release_zero_pages(c);
    return c;
}

MPPC_CONTEXT *mppc_context_new(DWORD level, BOOL compressor)
{
    static MPPC_CONTEXT *(*real)(DWORD, BOOL);
    if (!real && !(real = (MPPC_CONTEXT * (*)(DWORD, BOOL)) next_symbol("mppc_context_new")))
        return NULL;
    MPPC_CONTEXT *c = real(level, compressor);
    rdp_mem_release_zero_pages(c);
    return c;
}

uint32_t rdp_mem_codecs_needed(const rdpSettings *s)
{
    uint32_t f = FREERDP_CODEC_INTERLEAVED | FREERDP_CODEC_PLANAR | FREERDP_CODEC_ALPHACODEC;
    if (!s)
        return FREERDP_CODEC_ALL;
    if (s->NSCodec)
        f |= FREERDP_CODEC_NSCODEC;
    if (s->RemoteFxCodec)
        f |= FREERDP_CODEC_REMOTEFX;
    if (s->SupportGraphicsPipeline)
        f = FREERDP_CODEC_ALL;
    return f;
}

BOOL freerdp_client_codecs_prepare(rdpCodecs *codecs, UINT32 flags, UINT32 width, UINT32 height)
{
    static BOOL (*real)(rdpCodecs *, UINT32, UINT32, UINT32);
    if (!real && !(real = (BOOL(*)(rdpCodecs *, UINT32, UINT32, UINT32))
                       next_symbol("freerdp_client_codecs_prepare")))
        return FALSE;
    if (codecs && codecs->context)
        flags &= rdp_mem_codecs_needed(codecs->context->settings);
    return real(codecs, flags, width, height);
}

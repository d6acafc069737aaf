/* client_codecs.c -- keeps FreeRDP's per-session memory to what a load client uses (contract:
 * client_codecs.h; the breakdown is in docs/agent.md).
 *
 * FreeRDP 2.11 has no setting for two of its biggest per-session costs, so the agent replaces
 * library entry points (its definitions come first in symbol lookup; each calls the library's
 * own through dlsym(RTLD_NEXT)):
 *  - freerdp_client_codecs_prepare (here): every connect asks for FREERDP_CODEC_ALL; only the
 *    codecs the session can receive are made (no GFX: no H.264, progressive or ClearCodec;
 *    RemoteFX and NSCodec only if announced);
 *  - xcrush/ncrush/mppc_context_new (bulk_tables.c, shared with simhost): the bulk
 *    contexts' zeroed tables are handed back to the kernel. A client only ever decompresses,
 *    and only with the type the server picked, so they mostly stay that way. */
#include "compat/client_codecs.h"
#include "common/log.h"
#include "compat/bulk_tables.h"

#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>

#include <freerdp/codecs.h>
#include <freerdp/freerdp.h>

/* Big allocations always come from their own mapping, and are unmapped when freed: glibc's
 * default threshold grows to the size of the largest block freed (a framebuffer, a bulk
 * context), after which those come from the heap, where calloc must write zeroes over reused
 * memory and a framebuffer nobody paints is resident anyway. */
#define CLIENT_CODECS_MMAP_THRESHOLD (256 * 1024)

void client_codecs_init(void)
{
    mallopt(M_MMAP_THRESHOLD, CLIENT_CODECS_MMAP_THRESHOLD);
    if (bulk_tables_init() != 0)
        log_warn("FreeRDP's bulk context constructors were not found: sessions cannot connect");
}

uint32_t client_codecs_needed(const rdpSettings *s)
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

/* The library's own freerdp_client_codecs_prepare, found once for all connector threads. */
static BOOL (*real_prepare)(rdpCodecs *, UINT32, UINT32, UINT32);
static pthread_once_t prepare_once = PTHREAD_ONCE_INIT;

static void prepare_resolve(void)
{
    real_prepare = (BOOL(*)(rdpCodecs *, UINT32, UINT32, UINT32))dlsym(RTLD_NEXT,
                                                                     "freerdp_client_codecs_prepare");
}

BOOL freerdp_client_codecs_prepare(rdpCodecs *codecs, UINT32 flags, UINT32 width, UINT32 height)
{
    pthread_once(&prepare_once, prepare_resolve);
    if (!real_prepare)
        return FALSE;
    if (codecs && codecs->context)
        flags &= client_codecs_needed(codecs->context->settings);
    return real_prepare(codecs, flags, width, height);
}

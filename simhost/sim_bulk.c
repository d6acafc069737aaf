/* sim_bulk.c -- frees FreeRDP 2.11's unused per-peer bulk compressors (sim_bulk.h). struct
 * mirror_bulk mirrors struct rdp_bulk (libfreerdp/core/bulk.c, the same from 2.11.0 to 2.11.8).
 * struct rdp_rdp (libfreerdp/core/rdp.h) starts with the connection state and then pointers:
 * up to 2.11.7 `instance, context, nla, mcs, nego, bulk, input, update, fastpath, license,
 * redirection, settings`; 2.11.8 dropped `instance`. Both are tried, and a layout is only used
 * when every pointer the public context also holds matches. */
#include "simhost/sim_bulk.h"

#include <freerdp/codec/mppc.h>
#include <freerdp/codec/ncrush.h>
#include <freerdp/codec/xcrush.h>
#include <freerdp/settings.h>

struct mirror_bulk {              /* struct rdp_bulk */
    rdpContext *context;
    UINT32 CompressionLevel;
    UINT32 CompressionMaxSize;
    MPPC_CONTEXT *mppcSend;
    MPPC_CONTEXT *mppcRecv;
    NCRUSH_CONTEXT *ncrushRecv;
    NCRUSH_CONTEXT *ncrushSend;
    XCRUSH_CONTEXT *xcrushRecv;
    XCRUSH_CONTEXT *xcrushSend;
};

/* The rdpBulk of ctx, or NULL when neither layout matches. k = 1 with `instance`, 0 without. */
static struct mirror_bulk *bulk_of(rdpContext *ctx)
{
    void **f = (void **)((char *)ctx->rdp + sizeof(void *));   /* after the (padded) state */
    for (int k = 1; k >= 0; k--) {
        struct mirror_bulk *b = f[k + 4];
        if (f[k] == ctx && f[k + 5] == ctx->input && f[k + 6] == ctx->update && f[k + 10] == ctx->settings &&
            b && b->context == ctx)
            return b;
    }
    return NULL;
}

int sim_bulk_trim(rdpContext *ctx)
{
    int major = 0, minor = 0, rev = 0;
    freerdp_get_version(&major, &minor, &rev);
    if (major != 2 || minor != 11 || !ctx || !ctx->rdp || !ctx->input || !ctx->update || !ctx->settings)
        return 0;
    struct mirror_bulk *b = bulk_of(ctx);
    if (!b)
        return 0;
    sim_bulk_off(ctx->settings);
    mppc_context_free(b->mppcSend);
    mppc_context_free(b->mppcRecv);
    ncrush_context_free(b->ncrushRecv);
    ncrush_context_free(b->ncrushSend);
    xcrush_context_free(b->xcrushRecv);
    xcrush_context_free(b->xcrushSend);
    b->mppcSend = b->mppcRecv = NULL;   /* bulk_free() accepts NULL contexts */
    b->ncrushRecv = b->ncrushSend = NULL;
    b->xcrushRecv = b->xcrushSend = NULL;
    return 1;
}

void sim_bulk_off(rdpSettings *st)
{
    freerdp_settings_set_bool(st, FreeRDP_CompressionEnabled, FALSE);
}

/* rdpdr_completion.c -- a correct parser for FreeRDP 2.11's rdpdr server write completions
 * (see sim_rdpdr_fix.h). The structs below mirror channels/rdpdr/server/rdpdr_main.h at 2.11.7. */
#include "compat/rdpdr_completion.h"

#include <stdlib.h>

#include <freerdp/freerdp.h>
#include <winpr/collections.h>
#include <winpr/stream.h>

struct fix_priv {                 /* struct _rdpdr_server_private */
    HANDLE Thread;
    HANDLE StopEvent;
    void *ChannelHandle;
    UINT32 ClientId;
    UINT16 VersionMajor;
    UINT16 VersionMinor;
    char *ClientComputerName;
    BOOL UserLoggedOnPdu;
    wListDictionary *IrpList;
    UINT32 NextCompletionId;
};

struct fix_irp;
typedef UINT (*fix_irp_cb)(RdpdrServerContext *ctx, wStream *s, struct fix_irp *irp, UINT32 dev,
                           UINT32 completion, UINT32 io);
struct fix_irp {                  /* struct _RDPDR_IRP */
    UINT32 CompletionId;
    UINT32 DeviceId;
    UINT32 FileId;
    char PathName[256];
    char ExtraBuffer[256];
    void *CallbackData;
    fix_irp_cb Callback;
};

static sim_rdpdr_write_done g_done;   /* one simhost, one handler of each kind */
static sim_rdpdr_close_done g_close;

int sim_rdpdr_fix_supported(void)
{
    int major = 0, minor = 0, rev = 0;
    freerdp_get_version(&major, &minor, &rev);
    return major == 2 && minor == 11;
}

/* DR_DRIVE_WRITE_RSP after the DeviceIoReply header: Length (4), Padding (1, optional). */
static UINT write_parser(RdpdrServerContext *ctx, wStream *s, struct fix_irp *irp, UINT32 dev,
                         UINT32 completion, UINT32 io)
{
    UINT32 written = 0;
    (void)dev, (void)completion;
    if (Stream_GetRemainingLength(s) >= 4)
        Stream_Read_UINT32(s, written);
    if (Stream_GetRemainingLength(s) >= 1)
        Stream_Seek(s, 1);
    if (g_done)
        g_done(ctx, irp->CallbackData, io, written);
    free(irp);                    /* rdpdr_server_irp_free() is free() */
    return CHANNEL_RC_OK;
}

/* DR_CLOSE_RSP after the DeviceIoReply header: Padding (5). */
static UINT close_parser(RdpdrServerContext *ctx, wStream *s, struct fix_irp *irp, UINT32 dev,
                         UINT32 completion, UINT32 io)
{
    (void)dev, (void)completion;
    Stream_Seek(s, Stream_GetRemainingLength(s) < 5 ? Stream_GetRemainingLength(s) : 5);
    if (g_close)
        g_close(ctx, irp->CallbackData, io);
    free(irp);
    return CHANNEL_RC_OK;
}

static int swap_newest(RdpdrServerContext *ctx, fix_irp_cb parser)
{
    struct fix_priv *p = (struct fix_priv *)ctx->priv;
    UINT32 id = p->NextCompletionId - 1;
    struct fix_irp *irp = ListDictionary_GetItemValue(p->IrpList, (void *)(size_t)id);
    if (!irp || irp->CompletionId != id)
        return -1;
    irp->Callback = parser;
    return 0;
}

int sim_rdpdr_fix_write(RdpdrServerContext *ctx, sim_rdpdr_write_done done)
{
    g_done = done;
    return swap_newest(ctx, write_parser);
}

int sim_rdpdr_fix_close(RdpdrServerContext *ctx, sim_rdpdr_close_done done)
{
    g_close = done;
    return swap_newest(ctx, close_parser);
}

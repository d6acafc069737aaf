/* rdpdr_completion.c -- a correct parser for FreeRDP 2.11's rdpdr server write and close
 * completions (see rdpdr_completion.h).
 *
 * It reads and writes FreeRDP's private rdpdr structs through a mirror (rdpdr_completion_layout.h:
 * the server's private IrpList and NextCompletionId; an IRP's CompletionId, CallbackData and
 * Callback). A mirror that no longer matches would write a function pointer into the wrong place
 * of a heap block, so it is checked where the compiler cannot see the private headers: at
 * configure time, the probe COMPAT_HAVE_RDPDR_IRP_LAYOUT (compat/probes.cmake) runs the installed
 * library's own rdpdr_server_context_new, DriveWriteFile and DriveCloseFile and reads every one of
 * those members back through this same mirror (known values for the private struct's members and
 * for the IRPs' ids, device, file and callback data; each Callback a function of that library).
 * Without it the workaround is compiled out: rdpdr_completion_supported() is 0 and the swaps do
 * nothing (simhost then refuses copies, drive.c). At run time each swap still checks that the IRP
 * it found carries the completion id it looked up. */
#include "compat/rdpdr_completion.h"

#include <stdlib.h>

#ifdef COMPAT_HAVE_RDPDR_IRP_LAYOUT
#include "compat/rdpdr_completion_layout.h"

static rdpdr_completion_write_done g_done;   /* one simhost, one handler of each kind */
static rdpdr_completion_close_done g_close;

int rdpdr_completion_supported(void)
{
    return 1;
}

/* DR_DRIVE_WRITE_RSP after the DeviceIoReply header: Length (4), Padding (1, optional). */
static UINT write_parser(RdpdrServerContext *ctx, wStream *s, struct rdpdr_completion_irp *irp,
                         UINT32 dev, UINT32 completion, UINT32 io)
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
static UINT close_parser(RdpdrServerContext *ctx, wStream *s, struct rdpdr_completion_irp *irp,
                         UINT32 dev, UINT32 completion, UINT32 io)
{
    (void)dev, (void)completion;
    Stream_Seek(s, Stream_GetRemainingLength(s) < 5 ? Stream_GetRemainingLength(s) : 5);
    if (g_close)
        g_close(ctx, irp->CallbackData, io);
    free(irp);
    return CHANNEL_RC_OK;
}

static int swap_newest(RdpdrServerContext *ctx, rdpdr_completion_cb parser)
{
    struct rdpdr_completion_priv *p = (struct rdpdr_completion_priv *)ctx->priv;
    UINT32 id = p->NextCompletionId - 1;
    struct rdpdr_completion_irp *irp = ListDictionary_GetItemValue(p->IrpList, (void *)(size_t)id);
    if (!irp || irp->CompletionId != id)
        return -1;
    irp->Callback = parser;
    return 0;
}

int rdpdr_completion_write(RdpdrServerContext *ctx, rdpdr_completion_write_done done)
{
    g_done = done;
    return swap_newest(ctx, write_parser);
}

int rdpdr_completion_close(RdpdrServerContext *ctx, rdpdr_completion_close_done done)
{
    g_close = done;
    return swap_newest(ctx, close_parser);
}

#else /* the probe did not find the mirrored layout: compiled out */

int rdpdr_completion_supported(void)
{
    return 0;
}

int rdpdr_completion_write(RdpdrServerContext *ctx, rdpdr_completion_write_done done)
{
    (void)ctx, (void)done;
    return -1;
}

int rdpdr_completion_close(RdpdrServerContext *ctx, rdpdr_completion_close_done done)
{
    (void)ctx, (void)done;
    return -1;
}

#endif

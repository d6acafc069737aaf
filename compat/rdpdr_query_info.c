/* rdpdr_query_info.c -- FileStandardInformation queries on FreeRDP 2.11's rdpdr server (see
 * rdpdr_query_info.h).
 *
 * FreeRDP's own request calls follow one pattern: allocate an IRP, take NextCompletionId, put the
 * IRP in IrpList under that id, write the request on the channel; the rdpdr thread later finds the
 * IRP by the reply's CompletionId, calls its Callback with the stream after the DeviceIoReply
 * header, and the callback frees the IRP with free(). This file does the same through the mirror
 * in rdpdr_completion_layout.h. ChannelHandle is not one of the members the configure-time probe
 * reads back with a known value, but it lies between members it does (StopEvent, ClientId), so a
 * layout that moved it fails the probe too. */
#include "compat/rdpdr_query_info.h"

#include <stdlib.h>
#include <string.h>

#include <freerdp/channels/rdpdr.h>
#include <winpr/nt.h>
#include <winpr/stream.h>
#include <winpr/wtsapi.h>

#define FILE_STANDARD_INFORMATION_LEN 22   /* AllocationSize 8, EndOfFile 8, links 4, 2 flags */

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

long rdpdr_query_info_parse(const uint8_t *p, size_t len, struct rdpdr_file_info *out)
{
    out->valid = 0;
    out->size = 0;
    out->is_dir = 0;
    if (len < 4)
        return -1;
    uint32_t n = le32(p);
    if (n > len - 4)
        return -1;
    if (n >= FILE_STANDARD_INFORMATION_LEN) {
        out->valid = 1;
        out->size = le64(p + 4 + 8);
        out->is_dir = p[4 + 21] != 0;
    }
    return 4 + (long)n;
}

#ifdef COMPAT_HAVE_RDPDR_IRP_LAYOUT
#include "compat/rdpdr_completion_layout.h"

static rdpdr_query_info_done g_done;   /* one simhost, one handler */

static UINT query_parser(RdpdrServerContext *ctx, wStream *s, struct rdpdr_completion_irp *irp,
                         UINT32 dev, UINT32 completion, UINT32 io)
{
    struct rdpdr_file_info info = {.io = io};
    (void)dev, (void)completion;
    long used = rdpdr_query_info_parse(Stream_Pointer(s), Stream_GetRemainingLength(s), &info);
    info.io = io;
    Stream_Seek(s, used < 0 ? Stream_GetRemainingLength(s) : (size_t)used);
    if (used < 0 && io == 0)
        info.io = STATUS_INVALID_NETWORK_RESPONSE;   /* a reply shorter than its own Length */
    if (g_done)
        g_done(ctx, irp->CallbackData, &info);
    free(irp);
    return CHANNEL_RC_OK;
}

int rdpdr_query_info(RdpdrServerContext *ctx, void *cb, UINT32 dev, UINT32 file_id, rdpdr_query_info_done done)
{
    struct rdpdr_completion_priv *p = (struct rdpdr_completion_priv *)ctx->priv;
    if (!p || !p->ChannelHandle || !p->IrpList)
        return -1;
    struct rdpdr_completion_irp *irp = calloc(1, sizeof *irp);
    wStream *s = Stream_New(NULL, 64);
    if (!irp || !s) {
        free(irp);
        Stream_Free(s, TRUE);
        return -1;
    }
    g_done = done;
    irp->CompletionId = p->NextCompletionId++;
    irp->DeviceId = dev;
    irp->FileId = file_id;
    irp->CallbackData = cb;
    irp->Callback = query_parser;
    Stream_Write_UINT16(s, RDPDR_CTYP_CORE);
    Stream_Write_UINT16(s, PAKID_CORE_DEVICE_IOREQUEST);
    Stream_Write_UINT32(s, dev);
    Stream_Write_UINT32(s, file_id);
    Stream_Write_UINT32(s, irp->CompletionId);
    Stream_Write_UINT32(s, IRP_MJ_QUERY_INFORMATION);
    Stream_Write_UINT32(s, 0);                       /* MinorFunction */
    Stream_Write_UINT32(s, FileStandardInformation); /* FsInformationClass */
    Stream_Write_UINT32(s, 0);                       /* Length: no query buffer */
    Stream_Zero(s, 24);                              /* Padding */
    if (!ListDictionary_Add(p->IrpList, (void *)(size_t)irp->CompletionId, irp)) {
        free(irp);
        Stream_Free(s, TRUE);
        return -1;
    }
    ULONG written = 0;
    BOOL ok = WTSVirtualChannelWrite(p->ChannelHandle, (PCHAR)Stream_Buffer(s), (ULONG)Stream_GetPosition(s), &written);
    Stream_Free(s, TRUE);
    if (!ok) {
        ListDictionary_Remove(p->IrpList, (void *)(size_t)irp->CompletionId);
        free(irp);
        return -1;
    }
    return 0;
}

#else /* the probe did not find the mirrored layout: compiled out */

int rdpdr_query_info(RdpdrServerContext *ctx, void *cb, UINT32 dev, UINT32 file_id, rdpdr_query_info_done done)
{
    (void)ctx, (void)cb, (void)dev, (void)file_id, (void)done;
    return -1;
}

#endif

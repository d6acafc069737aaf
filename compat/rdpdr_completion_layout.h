/* rdpdr_completion_layout.h -- the mirror of FreeRDP 2.11's private rdpdr server structs that
 * rdpdr_completion.c reads and writes (channels/rdpdr/server/rdpdr_main.h, the same from 2.11.0 to
 * 2.11.8). Only rdpdr_completion.c, rdpdr_query_info.c and their layout probe (compat/probes.cmake)
 * include it: the probe runs the installed library's own DriveWriteFile/DriveCloseFile and checks
 * every member below that the workarounds rely on, so a different layout disables them at build
 * time. */
#ifndef SESSMAX_RDPDR_COMPLETION_LAYOUT_H
#define SESSMAX_RDPDR_COMPLETION_LAYOUT_H

#include <freerdp/server/rdpdr.h>
#include <winpr/collections.h>
#include <winpr/stream.h>

struct rdpdr_completion_priv {    /* struct _rdpdr_server_private */
    HANDLE Thread;
    HANDLE StopEvent;
    void *ChannelHandle;
    UINT32 ClientId;
    UINT16 VersionMajor;
    UINT16 VersionMinor;
    char *ClientComputerName;
    BOOL UserLoggedOnPdu;
    wListDictionary *IrpList;     /* relied on */
    UINT32 NextCompletionId;      /* relied on */
};

struct rdpdr_completion_irp;
typedef UINT (*rdpdr_completion_cb)(RdpdrServerContext *ctx, wStream *s,
                                    struct rdpdr_completion_irp *irp, UINT32 dev,
                                    UINT32 completion, UINT32 io);
struct rdpdr_completion_irp {     /* struct _RDPDR_IRP */
    UINT32 CompletionId;          /* relied on */
    UINT32 DeviceId;
    UINT32 FileId;
    char PathName[256];
    char ExtraBuffer[256];
    void *CallbackData;           /* relied on */
    rdpdr_completion_cb Callback; /* relied on: replaced */
};

#endif

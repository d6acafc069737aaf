/* rdpdr_completion.h -- works around two bugs in FreeRDP 2.11's rdpdr server (2.11.7 and 2.11.8):
 * - its write-completion parser checks that `Length` bytes follow the Length field, but a
 *   DR_DRIVE_WRITE_RSP carries only the count of bytes written (MS-RDPEFS 2.2.1.5.4), so every
 *   completion of a non-empty write is rejected;
 * - its close-completion parser leaves the 5 padding bytes of DR_CLOSE_RSP (2.2.1.5.2) unread, and
 *   the receive loop parses them as a PDU with Component 0.
 * Either stops FreeRDP's rdpdr thread (ERROR_INVALID_DATA): the channel is dead for the session.
 * After each DriveWriteFile / DriveCloseFile we swap the pending IRP's parser for a correct one.
 * That needs FreeRDP's private IRP layout, mirrored in rdpdr_completion_layout.h and checked against
 * the installed library at configure time (rdpdr_completion.c says how); without that layout the
 * workaround is compiled out and copies report it. */
#ifndef SESSMAX_RDPDR_COMPLETION_H
#define SESSMAX_RDPDR_COMPLETION_H

#include <freerdp/server/rdpdr.h>

typedef void (*rdpdr_completion_write_done)(RdpdrServerContext *ctx, void *cb, UINT32 io, UINT32 written);
typedef void (*rdpdr_completion_close_done)(RdpdrServerContext *ctx, void *cb, UINT32 io);

/* 1 when the workaround was built (the configure-time probe found the mirrored layout), else 0. */
int rdpdr_completion_supported(void);

/* Must be called right after a successful DriveWriteFile, on the thread that will parse its
 * completion (FreeRDP's rdpdr thread) or before the request can be sent. Replaces the parser of
 * the newest pending IRP; `done` is called with the parsed completion. Returns 0, or -1 if the
 * IRP was not found or the workaround is compiled out (then the completion will stop FreeRDP's
 * rdpdr thread). */
int rdpdr_completion_write(RdpdrServerContext *ctx, rdpdr_completion_write_done done);
/* The same for the newest DriveCloseFile. */
int rdpdr_completion_close(RdpdrServerContext *ctx, rdpdr_completion_close_done done);

#endif

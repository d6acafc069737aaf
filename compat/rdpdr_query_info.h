/* rdpdr_query_info.h -- asks a client for an open file's size (IRP_MJ_QUERY_INFORMATION,
 * FileStandardInformation, MS-RDPEFS 2.2.3.3.8), which FreeRDP 2.11's rdpdr server has no call for.
 * A Windows server learns a redirected file's size this way before it reads, and so never asks
 * past the end; simhost must do the same since FreeRDP 2.11.7+dfsg1-6~deb12u2, whose client answers
 * a read past the end with STATUS_UNSUCCESSFUL (CVE-2026-109947) where older packages answered
 * with success and no bytes.
 * The request goes through the same mirror of FreeRDP's private IRP list as rdpdr_completion.h
 * (checked at configure time, COMPAT_HAVE_RDPDR_IRP_LAYOUT); without it the query is compiled out. */
#ifndef SESSMAX_RDPDR_QUERY_INFO_H
#define SESSMAX_RDPDR_QUERY_INFO_H

#include <stdint.h>

#include <freerdp/server/rdpdr.h>

/* The parsed reply: io is the client's NTSTATUS; size and is_dir are meaningful when io is 0 and
 * `valid` is 1 (a reply too short for FILE_STANDARD_INFORMATION has valid 0). */
struct rdpdr_file_info {
    UINT32 io;
    int valid;
    uint64_t size;
    int is_dir;
};
typedef void (*rdpdr_query_info_done)(RdpdrServerContext *ctx, void *cb, const struct rdpdr_file_info *info);

/* Sends the query for file_id of device dev; `done` is called on FreeRDP's rdpdr thread with cb
 * and the reply. The caller serialises this with its other requests on ctx (FreeRDP's own request
 * calls do not lock the IRP counter either). Returns 0, or -1 when the channel is not started,
 * memory or the write failed, or the workaround is compiled out (then nothing was sent). */
int rdpdr_query_info(RdpdrServerContext *ctx, void *cb, UINT32 dev, UINT32 file_id, rdpdr_query_info_done done);

/* Parses the part of a DR_DRIVE_QUERY_INFORMATION_RSP after its DeviceIoReply header: Length (4)
 * and a FILE_STANDARD_INFORMATION buffer of Length bytes. Consumes exactly those bytes (never more
 * than `len`) and returns how many, or -1 when Length runs past `len`. Exposed for the unit test
 * and the fuzzer. */
long rdpdr_query_info_parse(const uint8_t *p, size_t len, struct rdpdr_file_info *out);

#endif

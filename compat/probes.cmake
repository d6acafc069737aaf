# compat/probes.cmake -- configure-time probes of the FreeRDP that compat/ is built against. Each
# workaround that relies on more than FreeRDP's public API is compiled only when its probe, compiled
# against the installed headers and run against the installed libraries, finds what it relies on;
# when a probe fails, that workaround is compiled out (its macro stays undefined, the function
# reports "unsupported") and configure warns. The others need no probe: client_codecs.c,
# loop_sleep.c, rdpdr_logon_order.c and codec_threads.c use public members and entry points only,
# so a FreeRDP without them fails to compile them.
#   COMPAT_HAVE_BULK_NULL_CONTEXTS  bulk_tables.c's bulk_tables_none(): a server context is made and
#       freed with the six bulk constructors returning NULL (replaced in the probe as in the program),
#       on the 2.11 series, whose server never decompresses and compresses only while
#       CompressionEnabled is set (read in 2.11.7's bulk.c and fastpath.c).
#   COMPAT_HAVE_RDPDR_IRP_LAYOUT  rdpdr_completion.c: the installed rdpdr server's own DriveWriteFile
#       and DriveCloseFile leave IRPs whose every member the mirror (rdpdr_completion_layout.h)
#       relies on reads as written, in a private struct whose members do too.
include(CheckCSourceRuns)

# The results are cached; they are probed again when pkg-config reports another FreeRDP.
set(compat_probed "${FREERDP_freerdp2_VERSION}/${FREERDPS_VERSION}")
if(NOT "${COMPAT_PROBED_FREERDP}" STREQUAL "${compat_probed}")
  unset(COMPAT_HAVE_BULK_NULL_CONTEXTS CACHE)
  unset(COMPAT_HAVE_RDPDR_IRP_LAYOUT CACHE)
  set(COMPAT_PROBED_FREERDP "${compat_probed}" CACHE INTERNAL "FreeRDP version compat/ was probed with")
endif()

set(CMAKE_REQUIRED_DEFINITIONS -D_GNU_SOURCE)
set(CMAKE_REQUIRED_INCLUDES ${CMAKE_SOURCE_DIR})
set(CMAKE_REQUIRED_LIBRARIES PkgConfig::FREERDPS PkgConfig::FREERDP ${CMAKE_DL_LIBS})
set(CMAKE_REQUIRED_QUIET OFF)

check_c_source_runs([[
#include <sys/socket.h>
#include <freerdp/codec/mppc.h>
#include <freerdp/codec/ncrush.h>
#include <freerdp/codec/xcrush.h>
#include <freerdp/peer.h>
#include <freerdp/version.h>
#if FREERDP_VERSION_MAJOR != 2 || FREERDP_VERSION_MINOR != 11
#error "the server's bulk paths were read in FreeRDP 2.11"
#endif
static int made;
XCRUSH_CONTEXT *xcrush_context_new(BOOL c) { (void)c; made++; return NULL; }
NCRUSH_CONTEXT *ncrush_context_new(BOOL c) { (void)c; made++; return NULL; }
MPPC_CONTEXT *mppc_context_new(DWORD l, BOOL c) { (void)l, (void)c; made++; return NULL; }
int main(void)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return 1;
    freerdp_peer *p = freerdp_peer_new(sv[0]);
    if (!p || !freerdp_peer_context_new(p))
        return 2;
    freerdp_peer_context_free(p);
    freerdp_peer_free(p);
    return made == 6 ? 0 : 3;
}
]] COMPAT_HAVE_BULK_NULL_CONTEXTS)

check_c_source_runs([[
#include <dlfcn.h>
#include <freerdp/channels/channels.h>
#include <freerdp/channels/rdpdr.h>
#include <winpr/wtsapi.h>
#include "compat/rdpdr_completion_layout.h"
static int same_library(void *a, void *b)
{
    Dl_info x, y;
    return dladdr(a, &x) && dladdr(b, &y) && x.dli_fbase == y.dli_fbase;
}
int main(void)
{
    static int wcb, ccb;
    WTSRegisterWtsApiFunctionTable(FreeRDP_InitWtsApi());
    RdpdrServerContext *ctx = rdpdr_server_context_new(NULL);
    if (!ctx || !ctx->priv || !ctx->DriveWriteFile || !ctx->DriveCloseFile)
        return 1;
    struct rdpdr_completion_priv *p = (struct rdpdr_completion_priv *)ctx->priv;
    if (p->Thread || p->StopEvent || p->ChannelHandle || p->ClientComputerName || !p->IrpList ||
        p->VersionMajor != RDPDR_VERSION_MAJOR || p->UserLoggedOnPdu != TRUE || p->NextCompletionId != 1)
        return 2;
    ctx->DriveWriteFile(ctx, &wcb, 0x11223344, 0x55667788, "x", 1, 0);   /* no channel: not sent */
    ctx->DriveCloseFile(ctx, &ccb, 0x01020304, 0x05060708);
    struct rdpdr_completion_irp *w = ListDictionary_GetItemValue(p->IrpList, (void *)(size_t)1);
    struct rdpdr_completion_irp *c = ListDictionary_GetItemValue(p->IrpList, (void *)(size_t)2);
    if (p->NextCompletionId != 3 || !w || !c)
        return 3;
    if (w->CompletionId != 1 || w->DeviceId != 0x11223344 || w->FileId != 0x55667788 ||
        w->CallbackData != &wcb || c->CompletionId != 2 || c->DeviceId != 0x01020304 ||
        c->FileId != 0x05060708 || c->CallbackData != &ccb)
        return 4;
    if (!w->Callback || !c->Callback || w->Callback == c->Callback ||
        !same_library((void *)w->Callback, (void *)rdpdr_server_context_new))
        return 5;
    return 0;
}
]] COMPAT_HAVE_RDPDR_IRP_LAYOUT)

unset(CMAKE_REQUIRED_DEFINITIONS)
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_LIBRARIES)

foreach(probe COMPAT_HAVE_BULK_NULL_CONTEXTS COMPAT_HAVE_RDPDR_IRP_LAYOUT)
  if(${probe})
    target_compile_definitions(sessmax_compat PRIVATE ${probe}=1)
  else()
    message(WARNING "compat/probes.cmake: ${probe} failed against FreeRDP ${compat_probed}: that "
                    "workaround is compiled out (see compat/probes.cmake and CMakeFiles/CMakeError.log)")
  endif()
endforeach()

/* wlog_loggers.c -- FreeRDP 2.11's loggers made before any connect thread runs (wlog_loggers.h).
 * The list is the TAGs of libfreerdp2 2.11 and libwinpr2 2.11 on the client's connect path; a tag
 * missing here is only a lost logger (the race below), never a crash. */
#include "compat/wlog_loggers.h"

#include <stdio.h>

#include <winpr/wlog.h>

/* WinPR creates a named logger on its first WLog_Get and keeps it in the root logger's child
 * list; the lookup and the insertion take the root's lock separately, so two connector threads
 * asking for the same new name both create it. Every logger FreeRDP 2.11 and WinPR use on the
 * connect path (the TAGs of libfreerdp2 and libwinpr2) is therefore created here, on the loop
 * thread before the first connect: a worker only ever finds them. */
void wlog_loggers_create(void)
{
    static const char *const names[] = {
        "core", "core.activation", "core.autodetect", "core.capabilities", "core.channels",
        "core.client", "core.codecs", "core.connection", "core.fastpath", "core.gateway.http",
        "core.gateway.ntlm", "core.gateway.rdg", "core.gateway.rpc", "core.gateway.rts",
        "core.gateway.tsg", "core.gcc", "core.heartbeat", "core.license", "core.message",
        "core.nego", "core.nla", "core.orders", "core.proxy", "core.rdp", "core.redirection",
        "core.surface", "core.tpkt", "core.transport", "core.update", "core.window", "crypto",
        "addin", "cache.bitmap", "cache.glyph", "cache.offscreen", "cache.palette", "cache.pointer",
        "codec", "codec.clear", "codec.color", "codec.mppc", "codec.nsc", "codec.progressive",
        "codec.rfx", "color", "common", "common.settings", "gdi", "gdi.bitmap", "gdi.region",
        "gdi.shape", "primitives", "utils",
    };
    static const char *const winpr[] = {
        "crt", "file", "io", "library", "negotiate", "nt", "path", "pool", "registry", "sspi",
        "sspi.Kerberos", "sspi.NTLM", "sspi.Schannel", "sspi.gss", "sspi.schannel", "sync",
        "sync.mutex", "sync.pollset", "sync.wait", "synch.critical", "synch.event",
        "synch.semaphore", "synch.sleep", "synch.timer", "thread", "timezone", "unicode", "utils",
        "utils.ssl", "utils.wlog",
    };
    static int done;
    if (done)
        return;
    done = 1;
    char tag[64];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(tag, sizeof tag, "com.freerdp.%s", names[i]);
        WLog_Get(tag);
    }
    for (size_t i = 0; i < sizeof winpr / sizeof winpr[0]; i++) {
        snprintf(tag, sizeof tag, "com.winpr.%s", winpr[i]);
        WLog_Get(tag);
    }
}

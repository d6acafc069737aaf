/* codec_threads.h -- FreeRDP 2.11's RemoteFX/progressive codec thread pools off for this process,
 * with no file written anywhere.
 *
 * rfx_context_new (libfreerdp/codec/rfx.c, made on every client connect by
 * freerdp_client_codecs_prepare, twice with progressive) starts a thread pool of max(4, CPUs)
 * idle threads unless WinPR's registry says HKEY_LOCAL_MACHINE\Software\FreeRDP\FreeRDP\RemoteFX
 * "UseThreads"=0. WinPR 2.11 reads its registry only from the file /etc/winpr/HKLM.reg. Linking
 * codec_threads.c replaces WinPR's RegOpenKeyExA, RegQueryValueExA and RegCloseKey for the whole
 * process (the program's definitions come first in symbol lookup; libfreerdp calls them through
 * its PLT): once codec_threads_off() was called, opening exactly that key gives a key whose
 * UseThreads reads 0 and whose other values are absent (rfx's defaults); every other key and
 * handle goes to WinPR's own functions (dlsym(RTLD_NEXT)). RemoteFX and progressive tiles are then
 * decoded (or encoded) on the calling thread. No FreeRDP layout is involved: with a FreeRDP that
 * reads the setting some other way, the pools are simply there again. */
#ifndef SESSMAX_CODEC_THREADS_H
#define SESSMAX_CODEC_THREADS_H

/* From now on the RemoteFX key reads UseThreads=0 (see above). Idempotent, thread-safe; call it at
 * start, before the first connection. */
void codec_threads_off(void);

#endif

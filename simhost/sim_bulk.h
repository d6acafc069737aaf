/* sim_bulk.h -- frees the bulk (MPPC/NCRUSH/XCRUSH) compressor contexts FreeRDP 2.11 creates for
 * every peer, which a simhost session never uses.
 *
 * rdp_new() allocates a compressor and a decompressor of each kind for both directions (about
 * 2.5 MB written per connection). A FreeRDP 2.11 server never decompresses what a client sends
 * (its data PDU and fast-path input parsers ignore the compression flags), and it compresses only
 * fast-path updates when the Client Info PDU asked for compression and the update does not set
 * skipCompression. simhost's bitmaps and surface bits skip compression already (its codecs
 * compress); only the few bytes of frame markers went through the bulk compressor. So the server
 * turns compression off once the Client Info has been read (sim_bulk_off, before the Demand
 * Active: nothing has gone out on the fast path yet), and the six contexts are freed when the
 * peer's context is created. Reaching them needs FreeRDP's private rdpRdp/rdpBulk layout, mirrored
 * here for 2.11 only, and checked against the context before anything is freed. */
#ifndef SIM_BULK_H
#define SIM_BULK_H

#include <freerdp/freerdp.h>

/* Frees the peer's six bulk contexts (ctx = the peer's context, right after it was created).
 * Returns 1 when they were freed, 0 when this FreeRDP's layout is not the mirrored one (nothing is
 * touched: the session just costs more memory). */
int sim_bulk_trim(rdpContext *ctx);
/* Turns server-side bulk compression off; call after the Client Info PDU was read and before any
 * fast-path update is sent (the peer's Capabilities callback), and again in PostConnect. */
void sim_bulk_off(rdpSettings *st);

#endif

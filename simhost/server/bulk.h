/* bulk.h -- server-side bulk compression off for every simhost session.
 *
 * A FreeRDP 2.11 server compresses fast-path updates when the Client Info PDU asked for
 * compression and the update does not set skipCompression. simhost's bitmaps and surface bits
 * skip compression already (its codecs compress); only the few bytes of frame markers went
 * through the bulk compressor. So the server turns compression off once the Client Info has been
 * read (before the Demand Active: nothing has gone out on the fast path yet). No peer then needs
 * the six bulk contexts rdp_new makes for it, so simhost has none made (bulk_tables_none,
 * rdpmem/rdp_bulk.h): neither their tables nor a scan of them on the accept thread. */
#ifndef SIM_BULK_H
#define SIM_BULK_H

#include <freerdp/freerdp.h>

/* Turns server-side bulk compression off; call when the peer's context is made, after the Client
 * Info PDU was read and before any fast-path update is sent (the peer's Capabilities callback),
 * and again in PostConnect. */
void sim_bulk_off(rdpSettings *st);

#endif

/* rdpdr_logon_order.h -- makes FreeRDP 2.11's drive redirection work against servers that send the
 * rdpdr User Logged On PDU before their capabilities (xrdp 0.9: devredir.c sends it right after
 * the Client Name Request, then Server Capability, then Client ID Confirm).
 *
 * FreeRDP 2.11's client accepts PAKID_CORE_USER_LOGGEDON only once the server's capabilities
 * advertised RDPDR_USER_LOGGEDON_PDU (rdpdr_check_extended_pdu_flag); arriving first, it is
 * dropped with the warning "Checking ExtendedPDU::RDPDR_USER_LOGGEDON_PDU, client supported,
 * server not found". Since the server announced protocol 1.12 (not 1.5), the client then
 * withholds file-system devices forever. The fix wraps the instance's ReceiveChannelData: it
 * remembers a User Logged On seen before the capabilities and, after the Client ID Confirm has
 * been passed on, hands the client one more User Logged On. Servers that send it in the
 * documented order are untouched. */
#ifndef SESSMAX_RDPDR_LOGON_ORDER_H
#define SESSMAX_RDPDR_LOGON_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include <freerdp/freerdp.h>

/* Wraps inst->ReceiveChannelData (call in PreConnect, once per instance). */
void rdpdr_logon_order_install(freerdp *inst);
/* Forgets the instance (call before freeing it; no-op if never installed). */
void rdpdr_logon_order_forget(freerdp *inst);

/* The decision, pure (unit-tested): state bits in *st; returns 1 when a User Logged On must be
 * injected after passing on this PDU (a complete rdpdr message from the server). */
int rdpdr_logon_order_observe(unsigned *st, const uint8_t *data, size_t size);

#endif

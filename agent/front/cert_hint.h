/* cert_hint.h -- what `shot` tells the user when the server's certificate was refused: FreeRDP
 * 2.11 refuses a certificate whose name does not match (every self-signed RDP host reached by
 * address) before any callback sees it, so the agent never learns the fingerprint from FreeRDP.
 * The hint probes the server (agent/pin/pin.h) and prints the fingerprint it presents, ready for
 * --fingerprint or a plan's `fingerprint:`, or says to run `sessmax-agent probe HOST:PORT`. */
#ifndef SESSMAX_CERT_HINT_H
#define SESSMAX_CERT_HINT_H

#include <stddef.h>
#include <stdint.h>

#include "agent/pin/pin.h"

/* Formats the hint (one to four lines, each ending in '\n') into out. target: "HOST:PORT" as the
 * user gave it; pinned: the --fingerprint list, or NULL; st, r, err: what pin_probe returned.
 * Returns out. Pure (for tests). */
const char *cert_hint_format(const char *target, const char *pinned, enum pin_status st,
                             const struct pin_report *r, const char *err, char *out, size_t outlen);

/* Probes host:port (each connection within timeout_ms) and writes the hint to stderr. Blocks:
 * call it after the session's event loop has ended. */
void cert_hint_print(const char *target, const char *host, uint16_t port, const char *pinned, uint64_t timeout_ms);

#endif

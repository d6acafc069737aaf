/* pin.h -- what an RDP server offers before any logon, for `sessmax-agent probe`: three
 * connections, each sending one X.224 Connection Request (x224.h) -- for TLS alone, for TLS with
 * NLA (CredSSP), and for standard RDP security -- and reading the server's Connection Confirm.
 * On the first connection where the server goes to TLS, a TLS handshake reads its certificate:
 * the SHA-256 fingerprint in the form a plan's `fingerprint:` and the agent's --fingerprint take,
 * the subject, issuer and validity (certinfo.h). No credentials are sent; nothing is logged on. */
#ifndef SESSMAX_PIN_H
#define SESSMAX_PIN_H

#include <stddef.h>
#include <stdint.h>

#include "agent/pin/certinfo.h"
#include "agent/pin/pin_io.h"
#include "agent/pin/x224.h"
#include "common/tls.h"

/* Requests of the three connections, in the order they are made. */
#define PIN_ASK_TLS X224_PROTOCOL_SSL
#define PIN_ASK_NLA (X224_PROTOCOL_SSL | X224_PROTOCOL_HYBRID)   /* as clients ask: NLA includes TLS */
#define PIN_ASK_RDP X224_PROTOCOL_RDP

struct pin_report {
    struct x224_confirm tls, nla, rdp;   /* the server's answer to each request */
    int have_cert;                        /* a TLS handshake succeeded; the two fields below are set */
    char fingerprint[TLS_FP_LEN];         /* "sha256:AA:BB:..." */
    struct certinfo cert;
    char cert_error[256];                 /* why the handshake failed; "" when none was tried or it worked */
};

/* Probes host:port, each of the three connections bounded by timeout_ms. PIN_OK with r filled
 * (a failed TLS handshake is not fatal: r->cert_error says why there is no certificate), else the status of the first connection that failed (PIN_UNREACHABLE, PIN_TIMEOUT, PIN_NOT_RDP,
 * PIN_FAILED) with a one-line reason in err (without the host). */
enum pin_status pin_probe(const char *host, uint16_t port, uint64_t timeout_ms, struct pin_report *r,
                          char *err, size_t errlen);

enum pin_offer {
    PIN_ACCEPTED,      /* the server goes on with this security layer */
    PIN_REFUSED,       /* the server answered with a Negotiation Failure */
    PIN_NOT_OFFERED,   /* the server chose another layer (or does not negotiate at all) */
};

/* Whether the server accepts the layer asked for with `ask` (PIN_ASK_*), judged from its answer;
 * *detail gets a static explanation (the failure code's text, or the layer it chose). */
enum pin_offer pin_offer_of(uint32_t ask, const struct x224_confirm *cc, const char **detail);

#endif

/* x224.h -- the first packet pair of an RDP connection (MS-RDPBCGR 2.2.1.1 and 2.2.1.2): builds
 * the X.224 Connection Request carrying an RDP Negotiation Request, and parses the server's
 * Connection Confirm with its Negotiation Response or Negotiation Failure. No I/O; the parser
 * reads outside input, so every length is checked against the bytes it was given. */
#ifndef SESSMAX_X224_H
#define SESSMAX_X224_H

#include <stddef.h>
#include <stdint.h>

/* requestedProtocols / selectedProtocol flags */
#define X224_PROTOCOL_RDP 0x0u      /* standard RDP security */
#define X224_PROTOCOL_SSL 0x1u      /* TLS */
#define X224_PROTOCOL_HYBRID 0x2u   /* CredSSP (NLA), after TLS */
#define X224_PROTOCOL_RDSTLS 0x4u
#define X224_PROTOCOL_HYBRID_EX 0x8u

#define X224_REQUEST_LEN 19         /* TPKT 4 + X.224 CR 7 + RDP_NEG_REQ 8 */
#define X224_TPKT_HEADER 4
#define X224_CONFIRM_MAX 1024       /* a Connection Confirm is 11 or 19 bytes; more is not one */

/* Writes the Connection Request asking for `protocols` into out (at least X224_REQUEST_LEN
 * bytes). Returns the length, or 0 when out is too small. */
size_t x224_build_request(uint32_t protocols, uint8_t *out, size_t outlen);

/* The TPKT length announced by the first bytes of a packet. Returns it (at least 4), 0 when
 * fewer than 4 bytes were given, or -1 (err filled) when they are no TPKT header or announce
 * more than X224_CONFIRM_MAX bytes. */
int x224_tpkt_length(const uint8_t *buf, size_t len, char *err, size_t errlen);

enum x224_answer {
    X224_NO_NEGOTIATION,   /* Connection Confirm without negotiation data: standard RDP security only */
    X224_SELECTED,         /* RDP_NEG_RSP: value is the selected protocol */
    X224_FAILURE,          /* RDP_NEG_FAILURE: value is the failure code */
};

struct x224_confirm {
    enum x224_answer answer;
    uint8_t flags;         /* the negotiation structure's flags (0 without one) */
    uint32_t value;        /* selectedProtocol or failureCode */
};

/* Parses one whole TPKT (len bytes, as x224_tpkt_length announced) holding a Connection
 * Confirm. Returns 0, or -1 with a one-line reason in err (not a Connection Confirm, a
 * Disconnect Request, truncated or inconsistent lengths, an unknown negotiation type). */
int x224_parse_confirm(const uint8_t *buf, size_t len, struct x224_confirm *out, char *err, size_t errlen);

/* What a failureCode means, e.g. "the server requires TLS (SSL_REQUIRED_BY_SERVER)"; a static
 * string, "unknown failure code" for codes MS-RDPBCGR does not define. */
const char *x224_failure_text(uint32_t code);

/* The name of one selectedProtocol value: "rdp", "tls", "nla", "rdstls", "nla-ex", or "?". */
const char *x224_protocol_name(uint32_t protocol);

#endif

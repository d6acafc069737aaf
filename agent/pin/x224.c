/* x224.c -- the X.224 Connection Request / Confirm pair of an RDP connection (see x224.h).
 *
 * Request (19 bytes):  TPKT  03 00 00 13
 *                      X.224 0e e0 00 00 00 00 00      (LI 14, CR, dst-ref, src-ref, class 0)
 *                      RDP_NEG_REQ 01 00 08 00 pp pp pp pp   (type, flags, length 8, protocols LE)
 * Confirm:             TPKT, X.224 LI d0 dst-ref src-ref class, then (when LI > 6) RDP_NEG_RSP
 *                      (type 2) or RDP_NEG_FAILURE (type 3), 8 bytes, little-endian fields. */
#include "agent/pin/x224.h"

#include <stdio.h>

#define TPKT_VERSION 3
#define X224_CR 0xE0
#define X224_CC 0xD0
#define X224_DR 0x80
#define X224_FIXED_LI 6        /* code, dst-ref (2), src-ref (2), class */
#define NEG_LEN 8
#define NEG_REQ 1
#define NEG_RSP 2
#define NEG_FAILURE 3

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

size_t x224_build_request(uint32_t protocols, uint8_t *out, size_t outlen)
{
    if (!out || outlen < X224_REQUEST_LEN)
        return 0;
    const uint8_t head[] = { TPKT_VERSION, 0, 0, X224_REQUEST_LEN,
                             X224_FIXED_LI + NEG_LEN, X224_CR, 0, 0, 0, 0, 0,
                             NEG_REQ, 0, NEG_LEN, 0 };
    for (size_t i = 0; i < sizeof head; i++)
        out[i] = head[i];
    for (int i = 0; i < 4; i++)
        out[sizeof head + (size_t)i] = (uint8_t)(protocols >> (8 * i));
    return X224_REQUEST_LEN;
}

int x224_tpkt_length(const uint8_t *buf, size_t len, char *err, size_t errlen)
{
    if (len < X224_TPKT_HEADER)
        return 0;
    if (buf[0] != TPKT_VERSION || buf[1] != 0) {
        snprintf(err, errlen, "not an RDP answer (first bytes %02x %02x, a TPKT header starts 03 00)",
                 buf[0], buf[1]);
        return -1;
    }
    int n = buf[2] << 8 | buf[3];
    if (n < X224_TPKT_HEADER + 1 + X224_FIXED_LI || n > X224_CONFIRM_MAX) {
        snprintf(err, errlen, "TPKT length %d is no Connection Confirm (%d to %d bytes)", n,
                 X224_TPKT_HEADER + 1 + X224_FIXED_LI, X224_CONFIRM_MAX);
        return -1;
    }
    return n;
}

/* The negotiation structure after the fixed X.224 part: at p, avail bytes. */
static int parse_negotiation(const uint8_t *p, size_t avail, struct x224_confirm *out, char *err, size_t errlen)
{
    if (avail < NEG_LEN) {
        snprintf(err, errlen, "truncated negotiation data (%zu of %d bytes)", avail, NEG_LEN);
        return -1;
    }
    unsigned len = (unsigned)p[2] | (unsigned)p[3] << 8;
    if (len != NEG_LEN) {
        snprintf(err, errlen, "negotiation data of length %u (MS-RDPBCGR says %d)", len, NEG_LEN);
        return -1;
    }
    if (p[0] != NEG_RSP && p[0] != NEG_FAILURE) {
        snprintf(err, errlen, "unknown negotiation type %u (2: response, 3: failure)", p[0]);
        return -1;
    }
    out->answer = p[0] == NEG_RSP ? X224_SELECTED : X224_FAILURE;
    out->flags = p[1];
    out->value = le32(p + 4);
    return 0;
}

int x224_parse_confirm(const uint8_t *buf, size_t len, struct x224_confirm *out, char *err, size_t errlen)
{
    int n = x224_tpkt_length(buf, len, err, errlen);
    if (n < 0)
        return -1;
    if (n == 0 || (size_t)n != len) {
        snprintf(err, errlen, n ? "TPKT announces %d bytes, %zu given" : "%.0d%zu bytes: shorter than a TPKT header", n, len);
        return -1;
    }
    size_t li = buf[4];
    if (li < X224_FIXED_LI || 5 + li > len) {
        snprintf(err, errlen, "X.224 length indicator %zu does not fit the %zu-byte packet", li, len);
        return -1;
    }
    if ((buf[5] & 0xF0) == X224_DR) {
        snprintf(err, errlen, "the server sent an X.224 Disconnect Request instead of a Connection Confirm");
        return -1;
    }
    if ((buf[5] & 0xF0) != X224_CC) {
        snprintf(err, errlen, "X.224 TPDU code 0x%02x is no Connection Confirm (0xd0)", buf[5]);
        return -1;
    }
    out->answer = X224_NO_NEGOTIATION;
    out->flags = 0;
    out->value = 0;
    if (li == X224_FIXED_LI)
        return 0;
    return parse_negotiation(buf + 5 + X224_FIXED_LI, li - X224_FIXED_LI, out, err, errlen);
}

const char *x224_failure_text(uint32_t code)
{
    switch (code) {
    case 1: return "the server requires TLS (SSL_REQUIRED_BY_SERVER)";
    case 2: return "the server allows only standard RDP security (SSL_NOT_ALLOWED_BY_SERVER)";
    case 3: return "the server has no certificate for TLS (SSL_CERT_NOT_ON_SERVER)";
    case 4: return "the server found the request's flags inconsistent (INCONSISTENT_FLAGS)";
    case 5: return "the server requires NLA (HYBRID_REQUIRED_BY_SERVER)";
    case 6: return "the server requires TLS with user authentication (SSL_WITH_USER_AUTH_REQUIRED_BY_SERVER)";
    default: return "unknown failure code";
    }
}

const char *x224_protocol_name(uint32_t protocol)
{
    switch (protocol) {
    case X224_PROTOCOL_RDP: return "rdp";
    case X224_PROTOCOL_SSL: return "tls";
    case X224_PROTOCOL_HYBRID: return "nla";
    case X224_PROTOCOL_RDSTLS: return "rdstls";
    case X224_PROTOCOL_HYBRID_EX: return "nla-ex";
    default: return "?";
    }
}

/* pin.c -- the probe of an RDP server's security layers and certificate (see pin.h). Each
 * connection has its own deadline; the certificate is read once, on the first connection the
 * server takes to TLS (TLS alone, else TLS with NLA: CredSSP starts with a TLS handshake). */
#include "agent/pin/pin.h"

#include <arpa/inet.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A host name (not an address literal) is sent as SNI, as RDP clients do. */
static const char *sni_of(const char *host)
{
    unsigned char buf[sizeof(struct in6_addr)];
    return inet_pton(AF_INET, host, buf) == 1 || inet_pton(AF_INET6, host, buf) == 1 ? NULL : host;
}

/* The TLS handshake on fd and the certificate it brought; a failure is kept in r->cert_error. */
static void read_cert(int fd, SSL_CTX *ctx, const char *host, uint64_t deadline_us, struct pin_report *r)
{
    SSL *ssl = NULL;
    if (pin_io_tls(fd, ctx, sni_of(host), deadline_us, &ssl, r->cert_error, sizeof r->cert_error) != PIN_OK)
        return;
    X509 *x = SSL_get1_peer_certificate(ssl);
    if (x && tls_peer_fingerprint(ssl, r->fingerprint) == 0) {
        certinfo_describe(x, (int64_t)time(NULL), &r->cert);
        r->have_cert = 1;
        r->cert_error[0] = '\0';
    } else {
        snprintf(r->cert_error, sizeof r->cert_error, "the server sent no certificate in the TLS handshake");
    }
    X509_free(x);
    SSL_free(ssl);
}

/* One connection: the request asking for `ask`, the server's answer into *cc. */
static enum pin_status ask_once(const char *host, uint16_t port, uint32_t ask, uint64_t timeout_ms, SSL_CTX *ctx,
                                struct x224_confirm *cc, struct pin_report *r, char *err, size_t errlen)
{
    uint8_t req[X224_REQUEST_LEN], ans[X224_CONFIRM_MAX];
    size_t n = 0;
    char why[200];
    int fd = -1;
    uint64_t deadline = pin_io_deadline(timeout_ms);
    enum pin_status st = pin_io_connect(host, port, deadline, &fd, err, errlen);
    if (st != PIN_OK)
        return st;
    st = pin_io_send(fd, req, x224_build_request(ask, req, sizeof req), deadline, err, errlen);
    if (st == PIN_OK)
        st = pin_io_recv_tpkt(fd, ans, sizeof ans, &n, deadline, "X.224 Connection Confirm", err, errlen);
    if (st == PIN_OK && x224_parse_confirm(ans, n, cc, why, sizeof why) != 0) {
        snprintf(err, errlen, "not an RDP server: %s", why);
        st = PIN_NOT_RDP;
    }
    if (st == PIN_OK && !r->have_cert && cc->answer == X224_SELECTED && cc->value != X224_PROTOCOL_RDP)
        read_cert(fd, ctx, host, deadline, r);
    close(fd);
    return st;
}

enum pin_status pin_probe(const char *host, uint16_t port, uint64_t timeout_ms, struct pin_report *r,
                          char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    SSL_CTX *ctx = pin_io_tls_ctx();
    if (!ctx) {
        snprintf(err, errlen, "cannot create a TLS context (OpenSSL)");
        return PIN_FAILED;
    }
    enum pin_status st = ask_once(host, port, PIN_ASK_TLS, timeout_ms, ctx, &r->tls, r, err, errlen);
    if (st == PIN_OK)
        st = ask_once(host, port, PIN_ASK_NLA, timeout_ms, ctx, &r->nla, r, err, errlen);
    if (st == PIN_OK)
        st = ask_once(host, port, PIN_ASK_RDP, timeout_ms, ctx, &r->rdp, r, err, errlen);
    SSL_CTX_free(ctx);
    return st;
}

static const char *chose(uint32_t selected)
{
    switch (selected) {
    case X224_PROTOCOL_RDP: return "the server chose standard RDP security";
    case X224_PROTOCOL_SSL: return "the server chose TLS without NLA";
    case X224_PROTOCOL_HYBRID: case X224_PROTOCOL_HYBRID_EX: return "the server chose NLA";
    default: return "the server chose a layer it was not asked for";
    }
}

static int selects(uint32_t ask, uint32_t selected)
{
    if (ask == PIN_ASK_NLA)
        return selected == X224_PROTOCOL_HYBRID || selected == X224_PROTOCOL_HYBRID_EX;
    return selected == ask;
}

enum pin_offer pin_offer_of(uint32_t ask, const struct x224_confirm *cc, const char **detail)
{
    switch (cc->answer) {
    case X224_FAILURE:
        *detail = x224_failure_text(cc->value);
        return PIN_REFUSED;
    case X224_NO_NEGOTIATION:
        *detail = "the server does not negotiate: standard RDP security only";
        return ask == PIN_ASK_RDP ? PIN_ACCEPTED : PIN_NOT_OFFERED;
    default:
        if (selects(ask, cc->value)) {
            *detail = "selected";
            return PIN_ACCEPTED;
        }
        *detail = chose(cc->value);
        return PIN_NOT_OFFERED;
    }
}

/* pin_io.h -- the probe's side of one TCP connection to an RDP server, with a deadline on every
 * wait so that a silent peer ends in a timeout, never a hang: connect, send, receive one whole
 * TPKT, and a TLS handshake (OpenSSL on the same socket) to read the server's certificate.
 * Errors are one line naming what failed ("connection refused", "no answer within 10 s to the
 * X.224 Connection Request", ...); the caller adds the HOST:PORT. */
#ifndef SESSMAX_PIN_IO_H
#define SESSMAX_PIN_IO_H

#include <stddef.h>
#include <stdint.h>

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;

enum pin_status {
    PIN_OK,
    PIN_UNREACHABLE,   /* name not found, connection refused, no route, ... */
    PIN_TIMEOUT,       /* the deadline passed while waiting for the peer */
    PIN_NOT_RDP,       /* the peer answered, but not as an RDP server does (or closed) */
    PIN_FAILED,        /* a local failure (out of memory, no socket) */
};

/* A deadline: now + timeout_ms on CLOCK_MONOTONIC, in microseconds. */
uint64_t pin_io_deadline(uint64_t timeout_ms);

/* Connects to host:port (any address getaddrinfo gives, in turn) before the deadline. PIN_OK with
 * the connected socket in *fd (the caller closes it), else the status with err filled. */
enum pin_status pin_io_connect(const char *host, uint16_t port, uint64_t deadline_us, int *fd,
                               char *err, size_t errlen);

/* Sends all len bytes before the deadline. */
enum pin_status pin_io_send(int fd, const uint8_t *buf, size_t len, uint64_t deadline_us, char *err, size_t errlen);

/* Receives one whole TPKT (header, then the length it announces; at most cap bytes) before the
 * deadline into buf; its length in *len. `what` names the awaited packet in errors. */
enum pin_status pin_io_recv_tpkt(int fd, uint8_t *buf, size_t cap, size_t *len, uint64_t deadline_us,
                                 const char *what, char *err, size_t errlen);

/* A TLS client handshake on fd before the deadline, any certificate accepted (the caller shows
 * it, the user judges it). sni: the server name to send, or NULL. PIN_OK with the connection in
 * *ssl (free with SSL_free; fd stays the caller's). */
enum pin_status pin_io_tls(int fd, SSL_CTX *ctx, const char *sni, uint64_t deadline_us, SSL **ssl,
                           char *err, size_t errlen);

/* A client context for pin_io_tls that reaches old servers too: TLS 1.0 and up, security level
 * 0 (a probe reports what the server has, it sends no secret). NULL when OpenSSL fails. */
SSL_CTX *pin_io_tls_ctx(void);

#endif

/* pin_io.c -- one TCP connection of the probe, every wait bounded by a deadline (see pin_io.h).
 * The socket is non-blocking from the start; poll(2) does the waiting. */
#include "agent/pin/pin_io.h"

#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent/pin/x224.h"
#include "common/clock.h"

uint64_t pin_io_deadline(uint64_t timeout_ms)
{
    return clock_now_us() + timeout_ms * 1000;
}

/* strerror's text starting in lower case ("connection refused"), into buf. */
static const char *errno_text(int e, char *buf, size_t len)
{
    snprintf(buf, len, "%s", strerror(e));
    buf[0] = (char)tolower((unsigned char)buf[0]);
    return buf;
}

/* PIN_OK when fd is ready for events, PIN_TIMEOUT at the deadline, PIN_FAILED on a poll error. */
static enum pin_status wait_fd(int fd, short events, uint64_t deadline_us)
{
    for (;;) {
        uint64_t now = clock_now_us();
        if (now >= deadline_us)
            return PIN_TIMEOUT;
        uint64_t left_ms = (deadline_us - now + 999) / 1000;
        struct pollfd p = { .fd = fd, .events = events };
        int n = poll(&p, 1, left_ms > 60000 ? 60000 : (int)left_ms);
        if (n > 0)
            return PIN_OK;
        if (n < 0 && errno != EINTR)
            return PIN_FAILED;
    }
}

/* One address: PIN_OK with *fd, else the status and *sys_errno (0 for a timeout). */
static enum pin_status connect_one(const struct addrinfo *ai, uint64_t deadline_us, int *fd, int *sys_errno)
{
    int s = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    enum pin_status st = PIN_UNREACHABLE;
    *sys_errno = 0;
    if (s < 0) {
        *sys_errno = errno;
        return PIN_FAILED;
    }
    if (connect(s, ai->ai_addr, ai->ai_addrlen) == 0)
        goto ok;
    if (errno != EINPROGRESS) {
        *sys_errno = errno;
        goto fail;
    }
    st = wait_fd(s, POLLOUT, deadline_us);
    if (st != PIN_OK) {
        *sys_errno = st == PIN_FAILED ? errno : 0;
        goto fail;
    }
    int e = 0;
    socklen_t elen = sizeof e;
    if (getsockopt(s, SOL_SOCKET, SO_ERROR, &e, &elen) != 0)
        e = errno;
    if (e) {
        *sys_errno = e;
        st = PIN_UNREACHABLE;
        goto fail;
    }
ok:
    *fd = s;
    return PIN_OK;
fail:
    close(s);
    return st;
}

enum pin_status pin_io_connect(const char *host, uint16_t port, uint64_t deadline_us, int *fd,
                               char *err, size_t errlen)
{
    char service[8], text[128];
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV };
    struct addrinfo *res = NULL;
    snprintf(service, sizeof service, "%u", (unsigned)port);
    int g = getaddrinfo(host, service, &hints, &res);
    if (g != 0) {
        snprintf(err, errlen, "cannot resolve the host name: %s", g == EAI_SYSTEM ? strerror(errno) : gai_strerror(g));
        return PIN_UNREACHABLE;
    }
    enum pin_status st = PIN_UNREACHABLE;
    int e = 0;
    for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        st = connect_one(ai, deadline_us, fd, &e);
        if (st == PIN_OK || st == PIN_TIMEOUT)
            break;
    }
    freeaddrinfo(res);
    if (st == PIN_TIMEOUT)
        snprintf(err, errlen, "timed out connecting (no TCP answer)");
    else if (st != PIN_OK)
        snprintf(err, errlen, "%s", e ? errno_text(e, text, sizeof text) : "cannot connect");
    return st;
}

enum pin_status pin_io_send(int fd, const uint8_t *buf, size_t len, uint64_t deadline_us, char *err, size_t errlen)
{
    char text[128];
    size_t off = 0;
    while (off < len) {
        ssize_t n = send(fd, buf + off, len - off, MSG_NOSIGNAL);
        if (n > 0) {
            off += (size_t)n;
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EINTR) {
            snprintf(err, errlen, "sending the X.224 Connection Request: %s", errno_text(errno, text, sizeof text));
            return PIN_NOT_RDP;
        }
        enum pin_status st = wait_fd(fd, POLLOUT, deadline_us);
        if (st != PIN_OK) {
            snprintf(err, errlen, "%s sending the X.224 Connection Request",
                     st == PIN_TIMEOUT ? "timed out" : "poll failed");
            return st;
        }
    }
    return PIN_OK;
}

/* Reads exactly want bytes into buf. */
static enum pin_status recv_exact(int fd, uint8_t *buf, size_t want, uint64_t deadline_us,
                                  const char *what, char *err, size_t errlen)
{
    char text[128];
    size_t got = 0;
    while (got < want) {
        ssize_t n = recv(fd, buf + got, want - got, 0);
        if (n > 0) {
            got += (size_t)n;
            continue;
        }
        if (n == 0) {
            snprintf(err, errlen, "the server closed the connection instead of sending the %s", what);
            return PIN_NOT_RDP;
        }
        if (errno != EAGAIN && errno != EINTR) {
            snprintf(err, errlen, "waiting for the %s: %s", what, errno_text(errno, text, sizeof text));
            return PIN_NOT_RDP;
        }
        enum pin_status st = wait_fd(fd, POLLIN, deadline_us);
        if (st != PIN_OK) {
            snprintf(err, errlen, "%s waiting for the %s", st == PIN_TIMEOUT ? "timed out" : "poll failed", what);
            return st;
        }
    }
    return PIN_OK;
}

enum pin_status pin_io_recv_tpkt(int fd, uint8_t *buf, size_t cap, size_t *len, uint64_t deadline_us,
                                 const char *what, char *err, size_t errlen)
{
    char why[160];
    enum pin_status st = cap < X224_TPKT_HEADER ? PIN_FAILED
                         : recv_exact(fd, buf, X224_TPKT_HEADER, deadline_us, what, err, errlen);
    if (st != PIN_OK)
        return st;
    int n = x224_tpkt_length(buf, X224_TPKT_HEADER, why, sizeof why);
    if (n < 0 || (size_t)n > cap) {
        snprintf(err, errlen, "%s", n < 0 ? why : "the answer is longer than a Connection Confirm");
        return PIN_NOT_RDP;
    }
    st = recv_exact(fd, buf + X224_TPKT_HEADER, (size_t)n - X224_TPKT_HEADER, deadline_us, what, err, errlen);
    if (st == PIN_OK)
        *len = (size_t)n;
    return st;
}

SSL_CTX *pin_io_tls_ctx(void)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx)
        return NULL;
    SSL_CTX_set_min_proto_version(ctx, TLS1_VERSION);
    SSL_CTX_set_security_level(ctx, 0);
    SSL_CTX_set_options(ctx, SSL_OP_LEGACY_SERVER_CONNECT);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
    return ctx;
}

/* The reason of a failed handshake step, and its status. */
static enum pin_status tls_failure(int code, char *err, size_t errlen)
{
    unsigned long e = ERR_get_error();
    const char *r = e ? ERR_reason_error_string(e) : NULL;
    int eof = code == SSL_ERROR_ZERO_RETURN || (code == SSL_ERROR_SYSCALL && !e);
#ifdef SSL_R_UNEXPECTED_EOF_WHILE_READING
    eof |= ERR_GET_REASON(e) == SSL_R_UNEXPECTED_EOF_WHILE_READING;   /* OpenSSL 3's EOF */
#endif
    if (eof)
        snprintf(err, errlen, "the server closed the connection during the TLS handshake");
    else
        snprintf(err, errlen, "TLS handshake failed: %s", r ? r : "unknown error");
    ERR_clear_error();
    return PIN_NOT_RDP;
}

enum pin_status pin_io_tls(int fd, SSL_CTX *ctx, const char *sni, uint64_t deadline_us, SSL **ssl,
                           char *err, size_t errlen)
{
    SSL *s = SSL_new(ctx);
    if (!s || !SSL_set_fd(s, fd) || (sni && !SSL_set_tlsext_host_name(s, sni))) {
        SSL_free(s);
        snprintf(err, errlen, "cannot set up TLS (OpenSSL)");
        return PIN_FAILED;
    }
    for (;;) {
        int rc = SSL_connect(s);
        if (rc == 1)
            break;
        int code = SSL_get_error(s, rc);
        enum pin_status st;
        if (code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE)
            st = wait_fd(fd, code == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline_us);
        else
            st = tls_failure(code, err, errlen);
        if (st == PIN_TIMEOUT || st == PIN_FAILED)
            snprintf(err, errlen, "%s in the TLS handshake", st == PIN_TIMEOUT ? "timed out" : "poll failed");
        if (st != PIN_OK) {
            SSL_free(s);
            return st;
        }
    }
    *ssl = s;
    return PIN_OK;
}

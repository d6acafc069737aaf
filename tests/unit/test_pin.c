/* test_pin.c -- the probe of an RDP server (agent/pin/pin.c) against fake servers on loopback: a
 * TLS-only server (like simhost), an NLA-only one (the certificate then comes from the NLA
 * connection's TLS handshake), one that closes instead of the TLS handshake, a silent one (a
 * timeout, not a hang), a closed port (connection refused); and how each answer reads as
 * accepted, refused or not offered. */
#include "unit.h"

#include "agent/pin/pin.h"
#include "common/hostport.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum fake_kind { FAKE_TLS_ONLY, FAKE_NLA_ONLY, FAKE_SILENT, FAKE_TLS_CLOSES };

struct fake {
    enum fake_kind kind;
    int lfd;
    uint16_t port;
    SSL_CTX *ctx;
    char fp[TLS_FP_LEN];
    pthread_t thread;
};

/* The answer to a request for `asked`: selected protocol (>= 0), or -(failure code). */
static int fake_answer(enum fake_kind k, uint32_t asked)
{
    if (k == FAKE_TLS_ONLY || k == FAKE_TLS_CLOSES)
        return asked & X224_PROTOCOL_SSL ? (int)X224_PROTOCOL_SSL : -1;      /* SSL_REQUIRED */
    return asked & X224_PROTOCOL_HYBRID ? (int)X224_PROTOCOL_HYBRID : -5;    /* HYBRID_REQUIRED */
}

static void fake_serve(struct fake *f, int c)
{
    uint8_t req[X224_REQUEST_LEN], cc[19] = { 3, 0, 0, 19, 14, 0xd0, 0, 0, 0, 0, 0, 2, 0, 8, 0, 0, 0, 0, 0 };
    size_t got = 0;
    ssize_t n;
    while (got < sizeof req && (n = recv(c, req + got, sizeof req - got, 0)) > 0)
        got += (size_t)n;
    if (got < sizeof req || f->kind == FAKE_SILENT) {
        if (f->kind == FAKE_SILENT)
            while (recv(c, req, sizeof req, 0) > 0) { }   /* until the probe gives up */
        return;
    }
    int a = fake_answer(f->kind, req[15]);
    cc[11] = a >= 0 ? 2 : 3;
    cc[15] = (uint8_t)(a >= 0 ? a : -a);
    if (send(c, cc, sizeof cc, MSG_NOSIGNAL) != (ssize_t)sizeof cc || a <= 0 || f->kind == FAKE_TLS_CLOSES)
        return;                                    /* FAKE_TLS_CLOSES: no TLS after choosing it */
    SSL *ssl = SSL_new(f->ctx);
    SSL_set_fd(ssl, c);
    if (SSL_accept(ssl) == 1)
        SSL_shutdown(ssl);
    SSL_free(ssl);
}

static void *fake_main(void *arg)
{
    struct fake *f = arg;
    int c;
    while ((c = accept(f->lfd, NULL, NULL)) >= 0) {
        fake_serve(f, c);
        close(c);
    }
    return NULL;
}

static void fake_start(struct fake *f, enum fake_kind kind)
{
    char err[200];
    struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof sin;
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->ctx = tls_server_ctx(f->fp, err, sizeof err);
    f->lfd = socket(AF_INET, SOCK_STREAM, 0);
    CU_ASSERT_FATAL(f->ctx && f->lfd >= 0);
    CU_ASSERT_FATAL(bind(f->lfd, (struct sockaddr *)&sin, sizeof sin) == 0 && listen(f->lfd, 8) == 0);
    getsockname(f->lfd, (struct sockaddr *)&sin, &len);
    f->port = ntohs(sin.sin_port);
    CU_ASSERT_FATAL(pthread_create(&f->thread, NULL, fake_main, f) == 0);
}

static void fake_stop(struct fake *f)
{
    shutdown(f->lfd, SHUT_RDWR);   /* ends accept() */
    pthread_join(f->thread, NULL);
    close(f->lfd);
    SSL_CTX_free(f->ctx);
}

static enum pin_offer offer(uint32_t ask, const struct x224_confirm *cc)
{
    const char *detail = NULL;
    enum pin_offer o = pin_offer_of(ask, cc, &detail);
    CU_ASSERT_PTR_NOT_NULL(detail);
    return o;
}

static void test_pin__tls_only(void)
{
    struct fake f;
    struct pin_report r;
    char err[400] = "";
    fake_start(&f, FAKE_TLS_ONLY);
    CU_ASSERT_EQUAL(pin_probe("127.0.0.1", f.port, 5000, &r, err, sizeof err), PIN_OK);
    CU_ASSERT_TRUE(r.have_cert);
    CU_ASSERT_STRING_EQUAL(r.fingerprint, f.fp);
    CU_ASSERT_STRING_EQUAL(r.cert.subject, "CN=sessmax-controller");
    CU_ASSERT_EQUAL(offer(PIN_ASK_TLS, &r.tls), PIN_ACCEPTED);
    CU_ASSERT_EQUAL(offer(PIN_ASK_NLA, &r.nla), PIN_NOT_OFFERED);
    CU_ASSERT_EQUAL(offer(PIN_ASK_RDP, &r.rdp), PIN_REFUSED);
    fake_stop(&f);
}

static void test_pin__nla_only(void)
{
    struct fake f;
    struct pin_report r;
    char err[400] = "";
    const char *detail;
    fake_start(&f, FAKE_NLA_ONLY);
    CU_ASSERT_EQUAL(pin_probe("localhost", f.port, 5000, &r, err, sizeof err), PIN_OK);
    CU_ASSERT_TRUE(r.have_cert);                   /* from the NLA connection */
    CU_ASSERT_STRING_EQUAL(r.fingerprint, f.fp);
    CU_ASSERT_EQUAL(pin_offer_of(PIN_ASK_TLS, &r.tls, &detail), PIN_REFUSED);
    CU_ASSERT_PTR_NOT_NULL(strstr(detail, "requires NLA"));
    CU_ASSERT_EQUAL(offer(PIN_ASK_NLA, &r.nla), PIN_ACCEPTED);
    CU_ASSERT_EQUAL(offer(PIN_ASK_RDP, &r.rdp), PIN_REFUSED);
    fake_stop(&f);
}

/* A server that chooses TLS, then closes instead of a handshake: the layers are still reported,
 * the missing certificate says why. */
static void test_pin__tls_then_close(void)
{
    struct fake f;
    struct pin_report r;
    char err[400] = "";
    fake_start(&f, FAKE_TLS_CLOSES);
    CU_ASSERT_EQUAL(pin_probe("127.0.0.1", f.port, 5000, &r, err, sizeof err), PIN_OK);
    CU_ASSERT_FALSE(r.have_cert);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.cert_error, "closed the connection during the TLS handshake"));
    CU_ASSERT_EQUAL(offer(PIN_ASK_TLS, &r.tls), PIN_ACCEPTED);
    CU_ASSERT_EQUAL(offer(PIN_ASK_RDP, &r.rdp), PIN_REFUSED);
    fake_stop(&f);
}

/* A server that accepts and never answers: a timeout within the deadline. */
static void test_pin__silent(void)
{
    struct fake f;
    struct pin_report r;
    char err[400] = "";
    fake_start(&f, FAKE_SILENT);
    CU_ASSERT_EQUAL(pin_probe("127.0.0.1", f.port, 200, &r, err, sizeof err), PIN_TIMEOUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "timed out waiting for the X.224 Connection Confirm"));
    fake_stop(&f);
}

static void test_pin__refused(void)
{
    struct pin_report r;
    char err[400] = "";
    int port = hostport_free_loopback();
    CU_ASSERT_FATAL(port > 0);
    CU_ASSERT_EQUAL(pin_probe("127.0.0.1", (uint16_t)port, 2000, &r, err, sizeof err), PIN_UNREACHABLE);
    CU_ASSERT_STRING_EQUAL(err, "connection refused");
}

/* Each kind of answer, for each request. */
static void test_pin__offers(void)
{
    struct x224_confirm legacy = { X224_NO_NEGOTIATION, 0, 0 }, tls = { X224_SELECTED, 0, X224_PROTOCOL_SSL },
                        nla = { X224_SELECTED, 0, X224_PROTOCOL_HYBRID }, nla_ex = { X224_SELECTED, 0, X224_PROTOCOL_HYBRID_EX },
                        rdp = { X224_SELECTED, 0, X224_PROTOCOL_RDP }, fail = { X224_FAILURE, 0, 2 };
    CU_ASSERT_EQUAL(offer(PIN_ASK_RDP, &legacy), PIN_ACCEPTED);
    CU_ASSERT_EQUAL(offer(PIN_ASK_TLS, &legacy), PIN_NOT_OFFERED);
    CU_ASSERT_EQUAL(offer(PIN_ASK_NLA, &legacy), PIN_NOT_OFFERED);
    CU_ASSERT_EQUAL(offer(PIN_ASK_TLS, &tls), PIN_ACCEPTED);
    CU_ASSERT_EQUAL(offer(PIN_ASK_NLA, &tls), PIN_NOT_OFFERED);
    CU_ASSERT_EQUAL(offer(PIN_ASK_NLA, &nla), PIN_ACCEPTED);
    CU_ASSERT_EQUAL(offer(PIN_ASK_NLA, &nla_ex), PIN_ACCEPTED);
    CU_ASSERT_EQUAL(offer(PIN_ASK_TLS, &nla), PIN_NOT_OFFERED);    /* chose what was not asked */
    CU_ASSERT_EQUAL(offer(PIN_ASK_RDP, &rdp), PIN_ACCEPTED);
    CU_ASSERT_EQUAL(offer(PIN_ASK_TLS, &rdp), PIN_NOT_OFFERED);
    CU_ASSERT_EQUAL(offer(PIN_ASK_TLS, &fail), PIN_REFUSED);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_pin__tls_only), UNIT_TEST(test_pin__nla_only), UNIT_TEST(test_pin__tls_then_close),
        UNIT_TEST(test_pin__silent),
        UNIT_TEST(test_pin__refused), UNIT_TEST(test_pin__offers), UNIT_END,
    };
    return unit_run("pin", tests, NULL, NULL);
}

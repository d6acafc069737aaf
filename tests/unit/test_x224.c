/* test_x224.c -- the X.224 Connection Request the probe sends and its parse of the server's
 * Connection Confirm (agent/pin/x224.c): exact request bytes, the three kinds of answer, and every
 * malformed or truncated answer refused with a one-line reason. */
#include "unit.h"

#include "agent/pin/x224.h"

#include <string.h>

/* A Connection Confirm selecting TLS, as Windows and FreeRDP servers send it. */
static const uint8_t CC_TLS[] = { 0x03, 0x00, 0x00, 0x13, 0x0e, 0xd0, 0x00, 0x00, 0x12, 0x34, 0x00,
                                  0x02, 0x1f, 0x08, 0x00, 0x01, 0x00, 0x00, 0x00 };
/* A Negotiation Failure: HYBRID_REQUIRED_BY_SERVER. */
static const uint8_t CC_FAIL[] = { 0x03, 0x00, 0x00, 0x13, 0x0e, 0xd0, 0x00, 0x00, 0x00, 0x00, 0x00,
                                   0x03, 0x00, 0x08, 0x00, 0x05, 0x00, 0x00, 0x00 };
/* An old server: no negotiation data at all. */
static const uint8_t CC_LEGACY[] = { 0x03, 0x00, 0x00, 0x0b, 0x06, 0xd0, 0x00, 0x00, 0x00, 0x00, 0x00 };

static int one_line(const char *s)
{
    return s[0] && !strchr(s, '\n');
}

static void test_x224__request_bytes(void)
{
    uint8_t out[32];
    static const uint8_t want[] = { 0x03, 0x00, 0x00, 0x13, 0x0e, 0xe0, 0x00, 0x00, 0x00, 0x00, 0x00,
                                    0x01, 0x00, 0x08, 0x00, 0x03, 0x00, 0x00, 0x00 };
    CU_ASSERT_EQUAL(x224_build_request(X224_PROTOCOL_SSL | X224_PROTOCOL_HYBRID, out, sizeof out), X224_REQUEST_LEN);
    CU_ASSERT_EQUAL(memcmp(out, want, sizeof want), 0);
    CU_ASSERT_EQUAL(x224_build_request(X224_PROTOCOL_RDP, out, sizeof out), X224_REQUEST_LEN);
    CU_ASSERT_EQUAL(out[15], 0);
    CU_ASSERT_EQUAL(x224_build_request(1, out, X224_REQUEST_LEN - 1), 0);   /* one byte short */
    CU_ASSERT_EQUAL(x224_build_request(1, NULL, 64), 0);
}

static void test_x224__confirm_kinds(void)
{
    struct x224_confirm cc;
    char err[200];
    CU_ASSERT_EQUAL(x224_parse_confirm(CC_TLS, sizeof CC_TLS, &cc, err, sizeof err), 0);
    CU_ASSERT_EQUAL(cc.answer, X224_SELECTED);
    CU_ASSERT_EQUAL(cc.value, X224_PROTOCOL_SSL);
    CU_ASSERT_EQUAL(cc.flags, 0x1f);
    CU_ASSERT_EQUAL(x224_parse_confirm(CC_FAIL, sizeof CC_FAIL, &cc, err, sizeof err), 0);
    CU_ASSERT_EQUAL(cc.answer, X224_FAILURE);
    CU_ASSERT_EQUAL(cc.value, 5);
    CU_ASSERT_PTR_NOT_NULL(strstr(x224_failure_text(cc.value), "HYBRID_REQUIRED_BY_SERVER"));
    CU_ASSERT_EQUAL(x224_parse_confirm(CC_LEGACY, sizeof CC_LEGACY, &cc, err, sizeof err), 0);
    CU_ASSERT_EQUAL(cc.answer, X224_NO_NEGOTIATION);
}

/* Every prefix of a good answer is refused (never read past the end), with one line. */
static void test_x224__truncated(void)
{
    struct x224_confirm cc;
    char err[200];
    for (size_t n = 0; n < sizeof CC_TLS; n++) {
        err[0] = '\0';
        CU_ASSERT_EQUAL(x224_parse_confirm(CC_TLS, n, &cc, err, sizeof err), -1);
        CU_ASSERT_TRUE(one_line(err));
    }
}

static void expect_refused(const uint8_t *p, size_t n, const char *needle)
{
    struct x224_confirm cc;
    char err[200] = "";
    CU_ASSERT_EQUAL(x224_parse_confirm(p, n, &cc, err, sizeof err), -1);
    CU_ASSERT_TRUE(one_line(err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, needle));
}

static void test_x224__malformed(void)
{
    uint8_t b[sizeof CC_TLS];
    memcpy(b, CC_TLS, sizeof b);
    b[0] = 'H';
    expect_refused(b, sizeof b, "TPKT");
    memcpy(b, CC_TLS, sizeof b);
    b[5] = 0x80;                                   /* Disconnect Request */
    expect_refused(b, sizeof b, "Disconnect");
    b[5] = 0xe0;                                   /* a Connection Request echoed back */
    expect_refused(b, sizeof b, "no Connection Confirm");
    memcpy(b, CC_TLS, sizeof b);
    b[4] = 0x20;                                   /* LI past the packet */
    expect_refused(b, sizeof b, "length indicator");
    b[4] = 0x05;                                   /* LI under the fixed part */
    expect_refused(b, sizeof b, "length indicator");
    b[4] = 0x0a;                                   /* room for half a negotiation structure */
    expect_refused(b, sizeof b, "truncated negotiation");
    memcpy(b, CC_TLS, sizeof b);
    b[13] = 0x10;                                  /* structure length 16 */
    expect_refused(b, sizeof b, "length 16");
    memcpy(b, CC_TLS, sizeof b);
    b[11] = 0x01;                                  /* a request's type */
    expect_refused(b, sizeof b, "unknown negotiation type 1");
    memcpy(b, CC_TLS, sizeof b);
    b[3] = 0x14;                                   /* TPKT claims one byte more than given */
    expect_refused(b, sizeof b, "TPKT announces 20 bytes, 19 given");
}

/* The TPKT length bounds: at least a fixed Connection Confirm, at most X224_CONFIRM_MAX. */
static void test_x224__tpkt_length(void)
{
    char err[200];
    uint8_t h[4] = { 3, 0, 0, 11 };
    CU_ASSERT_EQUAL(x224_tpkt_length(h, 3, err, sizeof err), 0);
    CU_ASSERT_EQUAL(x224_tpkt_length(h, 4, err, sizeof err), 11);
    h[3] = 10;
    CU_ASSERT_EQUAL(x224_tpkt_length(h, 4, err, sizeof err), -1);
    h[2] = X224_CONFIRM_MAX >> 8;
    h[3] = X224_CONFIRM_MAX & 0xff;
    CU_ASSERT_EQUAL(x224_tpkt_length(h, 4, err, sizeof err), X224_CONFIRM_MAX);
    h[3]++;
    CU_ASSERT_EQUAL(x224_tpkt_length(h, 4, err, sizeof err), -1);
    CU_ASSERT_TRUE(one_line(err));
    h[1] = 1;                                      /* reserved byte set */
    CU_ASSERT_EQUAL(x224_tpkt_length(h, 4, err, sizeof err), -1);
}

static void test_x224__names(void)
{
    CU_ASSERT_STRING_EQUAL(x224_protocol_name(X224_PROTOCOL_RDP), "rdp");
    CU_ASSERT_STRING_EQUAL(x224_protocol_name(X224_PROTOCOL_SSL), "tls");
    CU_ASSERT_STRING_EQUAL(x224_protocol_name(X224_PROTOCOL_HYBRID), "nla");
    CU_ASSERT_STRING_EQUAL(x224_protocol_name(77), "?");
    for (uint32_t c = 1; c <= 6; c++)
        CU_ASSERT_PTR_NULL(strstr(x224_failure_text(c), "unknown"));
    CU_ASSERT_STRING_EQUAL(x224_failure_text(0), "unknown failure code");
    CU_ASSERT_STRING_EQUAL(x224_failure_text(99), "unknown failure code");
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_x224__request_bytes), UNIT_TEST(test_x224__confirm_kinds), UNIT_TEST(test_x224__truncated),
        UNIT_TEST(test_x224__malformed), UNIT_TEST(test_x224__tpkt_length), UNIT_TEST(test_x224__names), UNIT_END,
    };
    return unit_run("x224", tests, NULL, NULL);
}

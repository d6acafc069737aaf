/* test_certinfo.c -- the subject, issuer and validity lines the probe prints for a server
 * certificate (agent/pin/certinfo.c), on certificates made here: the dates in UTC, the validity
 * judged at a given time, and a hostile subject that stays one printable line. */
#include "unit.h"

#include "agent/pin/certinfo.h"

#include <openssl/evp.h>
#include <openssl/x509.h>
#include <string.h>

#define T2026 1796083200   /* 2026-12-01 00:00:00 UTC */

/* A self-signed certificate named cn, valid from not_before for days days (Unix seconds). */
static X509 *make_cert(const char *cn, int64_t not_before, long days)
{
    EVP_PKEY *key = EVP_EC_gen("P-256");
    X509 *x = X509_new();
    CU_ASSERT_FATAL(key && x);
    X509_set_version(x, 2);
    ASN1_TIME_set(X509_getm_notBefore(x), (time_t)not_before);
    ASN1_TIME_set(X509_getm_notAfter(x), (time_t)(not_before + days * 86400));
    X509_set_pubkey(x, key);
    X509_NAME *name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)cn, -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, (const unsigned char *)"Example", -1, -1, 0);
    X509_set_issuer_name(x, name);
    CU_ASSERT_FATAL(X509_sign(x, key, EVP_sha256()) > 0);
    EVP_PKEY_free(key);
    return x;
}

static void test_certinfo__fields(void)
{
    struct certinfo ci;
    X509 *x = make_cert("rds01.example.com", T2026, 365);
    certinfo_describe(x, T2026 + 86400, &ci);
    CU_ASSERT_STRING_EQUAL(ci.subject, "O=Example,CN=rds01.example.com");   /* RFC 2253: last RDN first */
    CU_ASSERT_STRING_EQUAL(ci.issuer, ci.subject);
    CU_ASSERT_STRING_EQUAL(ci.not_before, "2026-12-01 00:00:00 UTC");
    CU_ASSERT_STRING_EQUAL(ci.not_after, "2027-12-01 00:00:00 UTC");
    CU_ASSERT_EQUAL(ci.validity, CERTINFO_VALID);
    CU_ASSERT_STRING_EQUAL(certinfo_validity_name(ci.validity), "valid");
    X509_free(x);
}

static void test_certinfo__validity(void)
{
    struct certinfo ci;
    X509 *x = make_cert("h", T2026, 10);
    certinfo_describe(x, T2026 - 1, &ci);
    CU_ASSERT_EQUAL(ci.validity, CERTINFO_NOT_YET_VALID);
    certinfo_describe(x, T2026 + 11 * 86400, &ci);
    CU_ASSERT_EQUAL(ci.validity, CERTINFO_EXPIRED);
    CU_ASSERT_STRING_EQUAL(certinfo_validity_name(ci.validity), "expired");
    certinfo_describe(x, T2026 + 5 * 86400, &ci);
    CU_ASSERT_EQUAL(ci.validity, CERTINFO_VALID);
    X509_free(x);
}

/* A subject with a newline, an escape sequence and UTF-8 prints as one line of printable ASCII. */
static void test_certinfo__hostile_subject(void)
{
    struct certinfo ci;
    X509 *x = make_cert("evil\nfingerprint: sha256:00\x1b[2J\xc3\xa9", T2026, 1);
    certinfo_describe(x, T2026, &ci);
    CU_ASSERT_PTR_NULL(strchr(ci.subject, '\n'));
    CU_ASSERT_PTR_NULL(strchr(ci.subject, '\x1b'));
    for (const char *p = ci.subject; *p; p++)
        CU_ASSERT_TRUE(*p >= 0x20 && *p < 0x7f);
    CU_ASSERT_PTR_NOT_NULL(strstr(ci.subject, "CN=evil"));
    X509_free(x);
}

/* No certificate at all: every field says so, nothing crashes. */
static void test_certinfo__none(void)
{
    struct certinfo ci;
    certinfo_describe(NULL, T2026, &ci);
    CU_ASSERT_STRING_EQUAL(ci.subject, "?");
    CU_ASSERT_STRING_EQUAL(ci.not_after, "?");
    CU_ASSERT_EQUAL(ci.validity, CERTINFO_UNKNOWN);
    CU_ASSERT_STRING_EQUAL(certinfo_validity_name(ci.validity), "unknown");
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_certinfo__fields), UNIT_TEST(test_certinfo__validity),
        UNIT_TEST(test_certinfo__hostile_subject), UNIT_TEST(test_certinfo__none), UNIT_END,
    };
    return unit_run("certinfo", tests, NULL, NULL);
}

/* test_tls.c -- the controller's persistent certificate: loaded from PEM files it gives the same
 * fingerprint every time and the one an agent computes from the certificate file
 * (--tls-pin-cert); a key file others can read, a key of another certificate and a file that is
 * not PEM are refused with one line naming the file. */
#include "unit.h"

#include "common/tls.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* A self-signed P-256 certificate and its key written as PEM to tmp/NAME.crt and NAME.key (0600). */
static void make_pair(const char *name, char *crt, char *key, size_t len)
{
    EVP_PKEY *k = EVP_EC_gen("P-256");
    X509 *x = X509_new();
    CU_ASSERT_FATAL(k && x);
    ASN1_INTEGER_set(X509_get_serialNumber(x), 7);
    X509_gmtime_adj(X509_getm_notBefore(x), 0);
    X509_gmtime_adj(X509_getm_notAfter(x), 3600);
    X509_set_pubkey(x, k);
    X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC, (const unsigned char *)name, -1, -1, 0);
    X509_set_issuer_name(x, X509_get_subject_name(x));
    CU_ASSERT_FATAL(X509_sign(x, k, EVP_sha256()) > 0);
    snprintf(crt, len, "%s/%s.crt", unit_tmpdir(), name);
    snprintf(key, len, "%s/%s.key", unit_tmpdir(), name);
    FILE *f = fopen(crt, "w");
    CU_ASSERT_FATAL(f && PEM_write_X509(f, x));
    fclose(f);
    f = fopen(key, "w");
    CU_ASSERT_FATAL(f != NULL);
    chmod(key, 0600);
    CU_ASSERT_FATAL(PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL));
    fclose(f);
    X509_free(x);
    EVP_PKEY_free(k);
}

static void test_tls__files_give_a_stable_pin(void)
{
    char crt[512], key[512], fp1[TLS_FP_LEN], fp2[TLS_FP_LEN], fpc[TLS_FP_LEN], err[600];
    make_pair("ctl", crt, key, sizeof crt);
    SSL_CTX *a = tls_server_ctx_files(crt, key, fp1, err, sizeof err);
    SSL_CTX *b = tls_server_ctx_files(crt, key, fp2, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_EQUAL(strlen(fp1), 7 + 32 * 3 - 1);
    CU_ASSERT_NSTRING_EQUAL(fp1, "sha256:", 7);
    CU_ASSERT_STRING_EQUAL(fp1, fp2);
    CU_ASSERT_EQUAL(tls_file_fingerprint(crt, fpc, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(fp1, fpc);
    char fresh[TLS_FP_LEN];
    SSL_CTX *c = tls_server_ctx(fresh, err, sizeof err);
    CU_ASSERT(c && !tls_fingerprint_equal(fresh, fp1));
    SSL_CTX_free(a);
    SSL_CTX_free(b);
    SSL_CTX_free(c);
}

static void test_tls__bad_files_are_refused_naming_the_file(void)
{
    char crt[512], key[512], crt2[512], key2[512], fp[TLS_FP_LEN], err[600];
    make_pair("one", crt, key, sizeof crt);
    make_pair("two", crt2, key2, sizeof crt2);
    CU_ASSERT_PTR_NULL(tls_server_ctx_files(crt, key2, fp, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, key2));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "does not belong"));
    chmod(key, 0640);
    CU_ASSERT_PTR_NULL(tls_server_ctx_files(crt, key, fp, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "chmod 600"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, key));
    CU_ASSERT_PTR_NULL(tls_server_ctx_files(key2, key2, fp, err, sizeof err));   /* a key is no certificate */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a PEM certificate"));
    CU_ASSERT_EQUAL(tls_file_fingerprint("/nonexistent/ctl.crt", fp, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/ctl.crt: cannot open"));
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_tls__files_give_a_stable_pin),
        UNIT_TEST(test_tls__bad_files_are_refused_naming_the_file),
        UNIT_END,
    };
    return unit_run("tls", tests, NULL, NULL);
}

/* tls.c -- the controller's certificate (self-signed, or from files) and fingerprint pinning for
 * the agent link. */
#include "common/tls.h"

#include "common/secret_file.h"

#include <ctype.h>
#include <errno.h>
#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <string.h>

static void format_fp(const unsigned char *md, unsigned n, char fp[TLS_FP_LEN])
{
    int off = snprintf(fp, TLS_FP_LEN, "sha256:");
    for (unsigned i = 0; i < n && off + 3 < TLS_FP_LEN; i++)
        off += snprintf(fp + off, (size_t)(TLS_FP_LEN - off), i ? ":%02X" : "%02X", md[i]);
}

void tls_cert_fingerprint(X509 *x, char fp[TLS_FP_LEN])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned n = 0;
    X509_digest(x, EVP_sha256(), md, &n);
    format_fp(md, n, fp);
}

static X509 *self_signed(EVP_PKEY *key)
{
    X509 *x = X509_new();
    if (!x)
        return NULL;
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
    X509_gmtime_adj(X509_getm_notBefore(x), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x), 7L * 24 * 3600);
    X509_set_pubkey(x, key);
    X509_NAME *name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"sessmax-controller", -1, -1, 0);
    X509_set_issuer_name(x, name);
    if (!X509_sign(x, key, EVP_sha256())) {
        X509_free(x);
        return NULL;
    }
    return x;
}

SSL_CTX *tls_server_ctx(char fp[TLS_FP_LEN], char *err, size_t errlen)
{
    SSL_CTX *ctx = NULL;
    X509 *x = NULL;
    EVP_PKEY *key = EVP_EC_gen("P-256");
    if (!key || !(x = self_signed(key)))
        goto fail;
    ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx || !SSL_CTX_use_certificate(ctx, x) || !SSL_CTX_use_PrivateKey(ctx, key))
        goto fail;
    SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);   /* RFC 9266 exporter binding */
    tls_cert_fingerprint(x, fp);
    X509_free(x);
    EVP_PKEY_free(key);
    return ctx;
fail:
    snprintf(err, errlen, "agent link TLS: cannot create a certificate: %s",
             ERR_reason_error_string(ERR_get_error()) ? ERR_reason_error_string(ERR_get_error()) : "unknown");
    SSL_CTX_free(ctx);
    X509_free(x);
    EVP_PKEY_free(key);
    return NULL;
}

static const char *ssl_reason(void)
{
    const char *r = ERR_reason_error_string(ERR_get_error());
    return r ? r : "unknown error";
}

static X509 *read_cert(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open the certificate: %s", path, strerror(errno));
        return NULL;
    }
    X509 *x = PEM_read_X509(f, NULL, NULL, NULL);
    fclose(f);
    if (!x)
        snprintf(err, errlen, "%s: not a PEM certificate (%s)", path, ssl_reason());
    return x;
}

/* The private key from an owner-only PEM file; the text read is wiped. */
static EVP_PKEY *read_key(const char *path, char *err, size_t errlen)
{
    char pem[16384];
    EVP_PKEY *key = NULL;
    if (secret_file_read(path, "the TLS key file", pem, sizeof pem, err, errlen) < 0)
        return NULL;
    BIO *b = BIO_new_mem_buf(pem, (int)strlen(pem));
    if (b)
        key = PEM_read_bio_PrivateKey(b, NULL, NULL, NULL);
    if (!key)
        snprintf(err, errlen, "%s: not an unencrypted PEM private key (%s)", path, ssl_reason());
    BIO_free(b);
    OPENSSL_cleanse(pem, sizeof pem);
    return key;
}

SSL_CTX *tls_server_ctx_files(const char *cert_path, const char *key_path, char fp[TLS_FP_LEN], char *err,
                              size_t errlen)
{
    SSL_CTX *ctx = NULL;
    EVP_PKEY *key = NULL;
    X509 *x = read_cert(cert_path, err, errlen);
    if (!x || !(key = read_key(key_path, err, errlen)))
        goto out;
    if (!X509_check_private_key(x, key)) {
        snprintf(err, errlen, "%s: this key does not belong to the certificate %s", key_path, cert_path);
        goto out;
    }
    ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx || !SSL_CTX_use_certificate(ctx, x) || !SSL_CTX_use_PrivateKey(ctx, key)) {
        snprintf(err, errlen, "%s: cannot use this certificate: %s", cert_path, ssl_reason());
        SSL_CTX_free(ctx);
        ctx = NULL;
        goto out;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);   /* RFC 9266 exporter binding */
    tls_cert_fingerprint(x, fp);
out:
    X509_free(x);
    EVP_PKEY_free(key);
    return ctx;
}

int tls_file_fingerprint(const char *path, char fp[TLS_FP_LEN], char *err, size_t errlen)
{
    X509 *x = read_cert(path, err, errlen);
    if (!x)
        return -1;
    tls_cert_fingerprint(x, fp);
    X509_free(x);
    return 0;
}

SSL_CTX *tls_client_ctx(char *err, size_t errlen)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx) {
        snprintf(err, errlen, "agent link TLS: cannot create a client context");
        return NULL;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);   /* RFC 9266 exporter binding */
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
    return ctx;
}

int tls_peer_fingerprint(SSL *ssl, char fp[TLS_FP_LEN])
{
    X509 *x = ssl ? SSL_get1_peer_certificate(ssl) : NULL;
    if (!x)
        return -1;
    tls_cert_fingerprint(x, fp);
    X509_free(x);
    return 0;
}

static size_t hex_only(const char *s, char *out, size_t outlen)
{
    size_t n = 0;
    if (!strncasecmp(s, "sha256:", 7))
        s += 7;
    for (; *s && n + 1 < outlen; s++)
        if (isxdigit((unsigned char)*s))
            out[n++] = (char)toupper((unsigned char)*s);
    out[n] = 0;
    return n;
}

int tls_fingerprint_equal(const char *a, const char *b)
{
    char x[80], y[80];
    return hex_only(a, x, sizeof x) == 64 && hex_only(b, y, sizeof y) == 64 && !strcmp(x, y);
}

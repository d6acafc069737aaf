/* tls.c -- self-signed certificate generation and fingerprinting with OpenSSL 3. */
#include "simhost/server/tls.h"

#include "common/file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A PEM file (cert or key): at most FILE_READ_MAX_CONFIG, never empty; NULL with err. */
static char *read_pem(const char *path, char *err, size_t errlen)
{
    size_t len = 0;
    char *pem = file_read_all(path, FILE_READ_MAX_CONFIG, &len, err, errlen);
    if (pem && len == 0) {
        snprintf(err, errlen, "%s: empty file", path);
        free(pem);
        pem = NULL;
    }
    return pem;
}

static int write_pem(const char *path, int mode, int (*fn)(BIO *, void *), void *obj)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return -1;
    }
    BIO *b = BIO_new_fp(f, BIO_NOCLOSE);
    int ok = b && fn(b, obj) == 1;
    BIO_free(b);
    if (fclose(f) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

static int pem_key(BIO *b, void *k)
{
    return PEM_write_bio_PrivateKey_traditional(b, (EVP_PKEY *)k, NULL, NULL, 0, NULL, NULL);
}
static int pem_cert(BIO *b, void *x) { return PEM_write_bio_X509(b, (X509 *)x); }

static int generate(const char *cert_path, const char *key_path, char *err, size_t errlen)
{
    EVP_PKEY *key = EVP_RSA_gen(2048);
    X509 *x = X509_new();
    int rc = -1;
    if (!key || !x)
        goto fail;
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), (long)time(NULL));
    X509_gmtime_adj(X509_getm_notBefore(x), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x), 10L * 365 * 24 * 3600);
    X509_set_pubkey(x, key);
    X509_NAME *name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"sessmax-simhost", -1, -1, 0);
    X509_set_issuer_name(x, name);
    if (!X509_sign(x, key, EVP_sha256()))
        goto fail;
    if (write_pem(key_path, 0600, pem_key, key) != 0) {
        snprintf(err, errlen, "%s: cannot write key: %s", key_path, strerror(errno));
        goto out;
    }
    if (write_pem(cert_path, 0644, pem_cert, x) != 0) {
        snprintf(err, errlen, "%s: cannot write certificate: %s", cert_path, strerror(errno));
        goto out;
    }
    rc = 0;
    goto out;
fail:
    snprintf(err, errlen, "%s: cannot generate a self-signed certificate with OpenSSL", cert_path);
out:
    X509_free(x);
    EVP_PKEY_free(key);
    return rc;
}

int sim_tls_fingerprint(const char *cert_pem, char *out, size_t outlen)
{
    BIO *b = BIO_new_mem_buf(cert_pem, -1);
    X509 *x = b ? PEM_read_bio_X509(b, NULL, NULL, NULL) : NULL;
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned n = 0;
    int rc = -1;
    if (x && X509_digest(x, EVP_sha256(), md, &n) && outlen >= 8 + 3 * (size_t)n) {
        size_t p = (size_t)snprintf(out, outlen, "sha256");
        for (unsigned i = 0; i < n; i++)
            p += (size_t)snprintf(out + p, outlen - p, ":%02X", md[i]);
        rc = 0;
    }
    X509_free(x);
    BIO_free(b);
    return rc;
}

int sim_tls_load(struct sim_tls *t, const char *state_dir, const char *cert, const char *key,
                 char *err, size_t errlen)
{
    char cpath[4096], kpath[4096];
    memset(t, 0, sizeof *t);
    if (cert && key) {
        snprintf(cpath, sizeof cpath, "%s", cert);
        snprintf(kpath, sizeof kpath, "%s", key);
    } else {
        snprintf(cpath, sizeof cpath, "%s/cert.pem", state_dir);
        snprintf(kpath, sizeof kpath, "%s/key.pem", state_dir);
        if ((access(cpath, R_OK) != 0 || access(kpath, R_OK) != 0) &&
            generate(cpath, kpath, err, errlen) != 0)
            return -1;
    }
    t->cert_pem = read_pem(cpath, err, errlen);
    t->key_pem = t->cert_pem ? read_pem(kpath, err, errlen) : NULL;
    if (!t->cert_pem || !t->key_pem)
        goto fail;
    if (sim_tls_fingerprint(t->cert_pem, t->fingerprint, sizeof t->fingerprint) != 0) {
        snprintf(err, errlen, "%s: not a PEM certificate", cpath);
        goto fail;
    }
    return 0;
fail:
    sim_tls_free(t);
    return -1;
}

void sim_tls_free(struct sim_tls *t)
{
    if (t->key_pem)
        memset(t->key_pem, 0, strlen(t->key_pem));
    free(t->cert_pem);
    free(t->key_pem);
    t->cert_pem = t->key_pem = NULL;
}

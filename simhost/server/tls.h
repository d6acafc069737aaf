/* tls.h -- the server certificate: a self-signed RSA-2048 certificate generated with OpenSSL
 * on first start into the state directory (cert.pem, key.pem mode 0600), or files given with
 * --cert/--key; and its SHA-256 fingerprint in FreeRDP's pin format "sha256:AA:BB:...", the value
 * clients put in FreeRDP_CertificateAcceptedFingerprints. */
#ifndef SIM_TLS_H
#define SIM_TLS_H

#include <stddef.h>

#define SIM_TLS_FP_LEN 104   /* "sha256:" + 32*3 */

struct sim_tls {
    char *cert_pem;          /* file contents, for CertificateContent */
    char *key_pem;           /* for PrivateKeyContent */
    char fingerprint[SIM_TLS_FP_LEN];
};

/* Uses cert/key when both are given, else <state_dir>/cert.pem and key.pem, generating them when
 * absent. Returns 0, or -1 with err naming the file. */
int sim_tls_load(struct sim_tls *t, const char *state_dir, const char *cert, const char *key,
                 char *err, size_t errlen);
void sim_tls_free(struct sim_tls *t);
/* Fingerprint of a PEM certificate into out ("sha256:..."); 0 or -1. */
int sim_tls_fingerprint(const char *cert_pem, char *out, size_t outlen);

#endif

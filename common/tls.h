/* tls.h -- TLS for the agent link: the controller's certificate (a throw-away self-signed one, or
 * a persistent one from files) and certificate pinning by SHA-256 fingerprint on the agent.
 *
 * By default the controller makes a fresh P-256 key and certificate per run (nothing written to
 * disk) and prints its fingerprint; with agents.tls_cert/tls_key it loads one from PEM files (the
 * key file owner-only, as every secret), so the pin stays the same from run to run. Agents pin it
 * (`--tls-pin sha256:...`, or `--tls-pin-cert FILE` with the certificate) or skip the check
 * (`--tls-insecure`). TLS 1.3 only: the wire binds its proofs and frame keys to the session with
 * the RFC 9266 exporter, so a relay in the middle cannot authenticate. */
#ifndef SESSMAX_TLS_H
#define SESSMAX_TLS_H

#include <stddef.h>

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;
typedef struct x509_st X509;

#define TLS_FP_LEN 104   /* "sha256:" + 32 x "AA:" */

/* Server context with a new self-signed certificate; its fingerprint goes into fp. NULL (err
 * filled) on failure. Free with SSL_CTX_free. */
SSL_CTX *tls_server_ctx(char fp[TLS_FP_LEN], char *err, size_t errlen);
/* Server context with the certificate (PEM) and private key (PEM, a file of mode 0600 or
 * stricter) from these files; the certificate's fingerprint goes into fp. NULL with a one-line
 * "PATH: reason" in err. */
SSL_CTX *tls_server_ctx_files(const char *cert_path, const char *key_path, char fp[TLS_FP_LEN], char *err,
                              size_t errlen);
/* The fingerprint of the first certificate in a PEM file. 0, or -1 with "PATH: reason" in err. */
int tls_file_fingerprint(const char *path, char fp[TLS_FP_LEN], char *err, size_t errlen);
/* Client context (peer verification is done by tls_check_pin, not by a CA). */
SSL_CTX *tls_client_ctx(char *err, size_t errlen);
/* The peer certificate's fingerprint ("sha256:AA:BB:..."); -1 when there is none. */
int tls_peer_fingerprint(SSL *ssl, char fp[TLS_FP_LEN]);
/* The certificate's sha256 fingerprint as sessmax pins certificates ("sha256:AA:BB:..."). */
void tls_cert_fingerprint(X509 *x, char fp[TLS_FP_LEN]);
/* 1 when the two fingerprints name the same certificate (case and colons ignored). */
int tls_fingerprint_equal(const char *a, const char *b);

#endif

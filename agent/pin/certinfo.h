/* certinfo.h -- what a person checks before pinning a server certificate: its subject, issuer and
 * validity, as one printable line each (the fingerprint itself comes from common/tls.h). The
 * certificate is outside input: names are printed RFC 2253 style with control and non-ASCII
 * bytes escaped, so a hostile subject cannot forge a line of the output. */
#ifndef SESSMAX_CERTINFO_H
#define SESSMAX_CERTINFO_H

#include <stddef.h>
#include <stdint.h>

typedef struct x509_st X509;

#define CERTINFO_NAME_LEN 512
#define CERTINFO_TIME_LEN 32

enum certinfo_validity { CERTINFO_VALID, CERTINFO_EXPIRED, CERTINFO_NOT_YET_VALID, CERTINFO_UNKNOWN };

struct certinfo {
    char subject[CERTINFO_NAME_LEN];      /* e.g. "CN=rds01.example.com" (truncated to fit) */
    char issuer[CERTINFO_NAME_LEN];
    char not_before[CERTINFO_TIME_LEN];   /* "2026-12-06 22:00:00 UTC", or "?" when unreadable */
    char not_after[CERTINFO_TIME_LEN];
    enum certinfo_validity validity;      /* at now_s */
};

/* Fills ci from x, judging the validity at now_s (Unix seconds). Never fails: a field that cannot
 * be read is "?" (validity CERTINFO_UNKNOWN). x is borrowed. */
void certinfo_describe(const X509 *x, int64_t now_s, struct certinfo *ci);

/* "valid", "expired", "not yet valid" or "unknown". */
const char *certinfo_validity_name(enum certinfo_validity v);

#endif

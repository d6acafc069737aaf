/* certinfo.c -- subject, issuer and validity of a server certificate as printable lines (see
 * certinfo.h). OpenSSL does the decoding; this file only formats and escapes. */
#include "agent/pin/certinfo.h"

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/log.h"

/* RFC 2253 with every control, non-ASCII and special byte escaped by OpenSSL, then log_escape
 * for whatever is left: one printable line. */
static void name_line(const X509_NAME *name, char *out, size_t outlen)
{
    char raw[CERTINFO_NAME_LEN];
    char *data = NULL;
    BIO *b = BIO_new(BIO_s_mem());
    snprintf(out, outlen, "?");
    if (b && name && X509_NAME_print_ex(b, name, 0, XN_FLAG_RFC2253) >= 0) {
        long n = BIO_get_mem_data(b, &data);
        snprintf(raw, sizeof raw, "%.*s", (int)(n > 0 && n < (long)sizeof raw ? n : n > 0 ? (long)sizeof raw - 1 : 0),
                 n > 0 ? data : "");
        log_escape(out, outlen, raw[0] ? raw : "(empty)");
    }
    BIO_free(b);
}

static int time_line(const ASN1_TIME *t, char *out, size_t outlen)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    if (!t || !ASN1_TIME_to_tm(t, &tm) || !strftime(out, outlen, "%Y-%m-%d %H:%M:%S UTC", &tm)) {
        snprintf(out, outlen, "?");
        return -1;
    }
    return 0;
}

void certinfo_describe(const X509 *x, int64_t now_s, struct certinfo *ci)
{
    const ASN1_TIME *nb = x ? X509_get0_notBefore(x) : NULL, *na = x ? X509_get0_notAfter(x) : NULL;
    name_line(x ? X509_get_subject_name(x) : NULL, ci->subject, sizeof ci->subject);
    name_line(x ? X509_get_issuer_name(x) : NULL, ci->issuer, sizeof ci->issuer);
    int ok = time_line(nb, ci->not_before, sizeof ci->not_before) == 0;
    ok &= time_line(na, ci->not_after, sizeof ci->not_after) == 0;
    ci->validity = CERTINFO_UNKNOWN;
    if (!ok)
        return;
    time_t now = (time_t)now_s;
    if (X509_cmp_time(nb, &now) > 0)
        ci->validity = CERTINFO_NOT_YET_VALID;
    else if (X509_cmp_time(na, &now) < 0)
        ci->validity = CERTINFO_EXPIRED;
    else
        ci->validity = CERTINFO_VALID;
}

const char *certinfo_validity_name(enum certinfo_validity v)
{
    switch (v) {
    case CERTINFO_VALID: return "valid";
    case CERTINFO_EXPIRED: return "expired";
    case CERTINFO_NOT_YET_VALID: return "not yet valid";
    default: return "unknown";
    }
}

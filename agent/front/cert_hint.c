/* cert_hint.c -- the certificate hint of `shot` (see cert_hint.h): a probe of the server, then
 * the fingerprint it presents and how to pin it. */
#include "agent/front/cert_hint.h"

#include <stdio.h>
#include <string.h>

/* 1 when fp is one of the comma-separated fingerprints in list. */
static int listed(const char *list, const char *fp)
{
    char one[TLS_FP_LEN + 32];
    for (const char *p = list; p && *p; ) {
        size_t n = strcspn(p, ",");
        snprintf(one, sizeof one, "%.*s", (int)(n < sizeof one - 1 ? n : sizeof one - 1), p);
        if (tls_fingerprint_equal(one, fp))
            return 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

const char *cert_hint_format(const char *target, const char *pinned, enum pin_status st,
                             const struct pin_report *r, const char *err, char *out, size_t outlen)
{
    if (st != PIN_OK || !r->have_cert) {
        snprintf(out, outlen, "hint: the server's certificate was not accepted, and reading it again failed "
                 "(%s): run `sessmax-agent probe %s` to see its fingerprint, or pass --no-verify on a "
                 "network you trust\n", st != PIN_OK ? err : r->cert_error, target);
    } else if (pinned && listed(pinned, r->fingerprint)) {
        snprintf(out, outlen, "hint: %s presents %s, which is pinned: the TLS failure has another cause "
                 "(see the error above; `sessmax-agent probe %s` shows which security layers it accepts)\n",
                 target, r->fingerprint, target);
    } else {
        snprintf(out, outlen, "hint: the server's certificate was not accepted (%s); %s presents\n"
                 "  fingerprint: %s\n"
                 "  (subject %s, issuer %s, valid until %s, %s now)\n"
                 "  if that is the server you mean, pin it: --fingerprint with this value, or the line above "
                 "in the plan's target; or pass --no-verify on a network you trust\n",
                 pinned ? "not the pinned fingerprint" : "no --fingerprint given", target, r->fingerprint,
                 r->cert.subject, r->cert.issuer, r->cert.not_after, certinfo_validity_name(r->cert.validity));
    }
    return out;
}

void cert_hint_print(const char *target, const char *host, uint16_t port, const char *pinned, uint64_t timeout_ms)
{
    struct pin_report r;
    char err[400], out[2048];
    enum pin_status st = pin_probe(host, port, timeout_ms, &r, err, sizeof err);
    fputs(cert_hint_format(target, pinned, st, &r, err, out, sizeof out), stderr);
}

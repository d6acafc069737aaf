/* test_cert_hint.c -- what `shot` prints after the server's certificate was refused
 * (agent/front/cert_hint.c): the fingerprint the server presents as a ready `fingerprint:` line,
 * a note when the presented certificate is the pinned one, and the advice to run `probe` when
 * reading it again failed. */
#include "unit.h"

#include "agent/front/cert_hint.h"

#include <string.h>

#define FP "sha256:86:BC:8F:3D:90:43:85:64:00:B9:9B:08:E4:8F:F8:5B:FD:47:88:8F:FC:85:72:9E:B8:29:10:6D:16:45:EE:C3"
#define OTHER "sha256:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00"

static struct pin_report report(void)
{
    struct pin_report r;
    memset(&r, 0, sizeof r);
    r.have_cert = 1;
    snprintf(r.fingerprint, sizeof r.fingerprint, "%s", FP);
    snprintf(r.cert.subject, sizeof r.cert.subject, "CN=rds01");
    snprintf(r.cert.issuer, sizeof r.cert.issuer, "CN=rds01");
    snprintf(r.cert.not_after, sizeof r.cert.not_after, "2027-01-01 00:00:00 UTC");
    return r;
}

static void test_cert_hint__shows_fingerprint(void)
{
    char out[2048];
    struct pin_report r = report();
    cert_hint_format("rds01:3389", OTHER, PIN_OK, &r, "", out, sizeof out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n  fingerprint: " FP "\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "not the pinned fingerprint"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "subject CN=rds01"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "valid until 2027-01-01 00:00:00 UTC"));
    cert_hint_format("rds01:3389", NULL, PIN_OK, &r, "", out, sizeof out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "no --fingerprint given"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "fingerprint: " FP));
}

/* The presented certificate is in the pinned list (any case, any position): no advice to pin it. */
static void test_cert_hint__already_pinned(void)
{
    char out[2048], list[400], lower[200];
    struct pin_report r = report();
    snprintf(lower, sizeof lower, "%s", FP);
    for (char *p = lower; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'F' ? *p - 'A' + 'a' : *p);
    snprintf(list, sizeof list, "%s,%s", OTHER, lower);
    cert_hint_format("rds01:3389", list, PIN_OK, &r, "", out, sizeof out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "which is pinned"));
    CU_ASSERT_PTR_NULL(strstr(out, "pin it:"));
}

/* Reading the certificate again failed: say why and point at `probe`. */
static void test_cert_hint__probe_failed(void)
{
    char out[2048];
    struct pin_report r;
    memset(&r, 0, sizeof r);
    cert_hint_format("rds01:3389", NULL, PIN_TIMEOUT, &r, "timed out waiting for the X.224 Connection Confirm",
                     out, sizeof out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "(timed out waiting for the X.224 Connection Confirm)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "run `sessmax-agent probe rds01:3389`"));
    snprintf(r.cert_error, sizeof r.cert_error, "TLS handshake failed: unsupported protocol");
    cert_hint_format("rds01:3389", NULL, PIN_OK, &r, "", out, sizeof out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "(TLS handshake failed: unsupported protocol)"));
    CU_ASSERT_EQUAL(strchr(out, '\n'), out + strlen(out) - 1);   /* one line */
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_cert_hint__shows_fingerprint), UNIT_TEST(test_cert_hint__already_pinned),
        UNIT_TEST(test_cert_hint__probe_failed), UNIT_END,
    };
    return unit_run("cert_hint", tests, NULL, NULL);
}

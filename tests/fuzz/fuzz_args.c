/* fuzz_args.c -- libFuzzer harness for the small text parsers of command lines and plans: HOST:PORT
 * (common/hostport.c: agents' targets and controller addresses, simhost's --listen, a plan's
 * listen, matrix targets), TLS pins against a fingerprint (common/tls.c), checked numbers and
 * WxH sizes (common/numarg.c), drive sizes such as 10MB (common/drive_gen.c) and trend's
 * --tolerance (controller/score/trend.c). The first byte picks the parser, the rest is the text.
 * Oracles: a split HOST:PORT joins and splits back to itself; pin equality is symmetric and a
 * pin equals itself when it equals anything; numbers that parse lie inside their range, errors are
 * one line; a tolerance is a fraction in [0, 1). Nothing may crash or read out of bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/drive_gen.h"
#include "common/hostport.h"
#include "common/numarg.h"
#include "common/tls.h"
#include "controller/score/trend.h"

static const char fp[] = "sha256:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:"
                         "00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF";

static void one_line(const char *err)
{
    if (!err[0] || strchr(err, '\n')) {
        fprintf(stderr, "not one line: '%s'\n", err);
        abort();
    }
}

static void host_port(const char *s, uint16_t def)
{
    char host[64], again[96], host2[64];
    uint16_t port, port2;
    if (hostport_split(s, def, host, sizeof host, &port) != 0)
        return;
    if (!host[0] || strlen(host) >= sizeof host)
        abort();
    snprintf(again, sizeof again, "%s:%u", host, (unsigned)port);
    if (hostport_split(again, 0, host2, sizeof host2, &port2) != 0 || strcmp(host, host2) || port != port2) {
        fprintf(stderr, "'%s' split as %s port %u does not split back ('%s')\n", s, host, port, again);
        abort();
    }
}

static void pins(const char *s)
{
    const char *nl = strchr(s, '\n');
    char a[256];
    snprintf(a, sizeof a, "%.*s", nl ? (int)(nl - s) : (int)strlen(s), s);
    const char *b = nl ? nl + 1 : fp;
    int ab = tls_fingerprint_equal(a, b);
    if (ab != tls_fingerprint_equal(b, a) || (ab && (!tls_fingerprint_equal(a, a) || !tls_fingerprint_equal(b, b))))
        abort();
}

static void numbers(const char *s)
{
    char err[512];
    unsigned long u, w, h;
    double d;
    if (numarg_ulong("--n", s, 1, 100000, &u, err, sizeof err) != 0)
        one_line(err);
    else if (u < 1 || u > 100000)
        abort();
    if (numarg_double("--x", s, -1.5, 1e6, &d, err, sizeof err) != 0)
        one_line(err);
    else if (!(d >= -1.5 && d <= 1e6))
        abort();
    if (numarg_size("--size", s, 64, 48, 8192, 8192, &w, &h, err, sizeof err) != 0)
        one_line(err);
    else if (w < 64 || w > 8192 || h < 48 || h > 8192)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *s = malloc(size);
    if (!s)
        return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';
    uint64_t bytes;
    double f;
    switch (data[0] % 5) {
    case 0: host_port(s, 0); host_port(s, 3389); break;
    case 1: pins(s); break;
    case 2: numbers(s); break;
    case 3: (void)drive_gen_parse_size(s, &bytes); break;
    default:
        if (trend_parse_tolerance(s, &f) == 0 && !(f >= 0 && f < 1))
            abort();
        break;
    }
    free(s);
    return 0;
}

/* probe_cmd.c -- `sessmax-agent probe HOST:PORT [--timeout D]` (see probe_cmd.h): options, the
 * probe, and the report on stdout. The report's `fingerprint:` line is a line a plan's target can
 * take as it is; the other lines are aligned under it. */
#include "agent/front/probe_cmd.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#include "agent/front/standalone_opts.h"
#include "agent/pin/pin.h"
#include "common/hostport.h"

static const char USAGE[] =
    "usage: sessmax-agent probe HOST[:PORT] [--timeout D]\n"
    "Connects to the RDP server (TCP only: no user, no password, no logon) and prints its\n"
    "certificate's SHA-256 fingerprint as a plan's `fingerprint:` and --fingerprint take, the\n"
    "certificate's subject, issuer and validity, and which security layers it accepts (tls, nla,\n"
    "rdp: the values of --security and of a plan's `security:`). Port 3389 by default.\n"
    "  --timeout D   give up on a connection the server has not answered within D (default 10s)\n"
    "Exit 0 with the report, 69 when the server cannot be reached or does not answer as RDP.\n";

static void print_layer(const char *name, uint32_t ask, const struct x224_confirm *cc)
{
    const char *detail = "";
    enum pin_offer o = pin_offer_of(ask, cc, &detail);
    if (o == PIN_ACCEPTED)
        printf("%-12s accepted\n", name);
    else
        printf("%-12s %s: %s\n", name, o == PIN_REFUSED ? "refused" : "not offered", detail);
}

static void print_report(const char *target, const struct pin_report *r)
{
    const char *d;
    printf("%-12s %s\n", "target:", target);
    if (r->have_cert) {
        printf("fingerprint: %s\n", r->fingerprint);
        printf("%-12s %s\n", "subject:", r->cert.subject);
        printf("%-12s %s\n", "issuer:", r->cert.issuer);
        printf("%-12s %s\n", "not before:", r->cert.not_before);
        printf("%-12s %s (%s now)\n", "not after:", r->cert.not_after, certinfo_validity_name(r->cert.validity));
    } else if (r->cert_error[0]) {
        printf("fingerprint: none (%s)\n", r->cert_error);
    } else {
        printf("fingerprint: none (the server does not use TLS: a plan with `security: rdp` needs no "
               "fingerprint)\n");
    }
    print_layer("tls:", PIN_ASK_TLS, &r->tls);
    print_layer("nla:", PIN_ASK_NLA, &r->nla);
    print_layer("rdp:", PIN_ASK_RDP, &r->rdp);
    printf("%-12s", "accepts:");
    if (pin_offer_of(PIN_ASK_TLS, &r->tls, &d) == PIN_ACCEPTED) printf(" tls");
    if (pin_offer_of(PIN_ASK_NLA, &r->nla, &d) == PIN_ACCEPTED) printf(" nla");
    if (pin_offer_of(PIN_ASK_RDP, &r->rdp, &d) == PIN_ACCEPTED) printf(" rdp");
    printf("\n");
    if (r->have_cert)
        printf("%-12s check the subject and validity, then put the fingerprint line into the plan's "
               "target (or pass --fingerprint %s)\n", "pin it:", r->fingerprint);
}

/* Parses the options; 0, EX_USAGE after a message, or -1 after --help. */
static int parse(int argc, char **argv, const char **target, const char **timeout_text, int64_t *timeout_ms)
{
    static const struct option longopts[] = {
        { "timeout", required_argument, NULL, 't' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(USAGE, stdout);
            return -1;
        }
        if (c != 't') {
            fputs(USAGE, stderr);
            return EX_USAGE;
        }
        *timeout_text = optarg;
        *timeout_ms = standalone_parse_duration_ms(optarg);
        if (*timeout_ms <= 0 || *timeout_ms > 3600000)
            return standalone_opts_bad("probe", "timeout", optarg);
    }
    if (optind != argc - 1) {
        fprintf(stderr, "sessmax-agent probe: give one HOST[:PORT] (see --help)\n");
        return EX_USAGE;
    }
    *target = argv[optind];
    return 0;
}

int probe_cmd_main(int argc, char **argv)
{
    const char *target = NULL, *timeout_text = "10s";
    int64_t timeout_ms = 10000;
    char host[256], err[400];
    uint16_t port = 0;
    int rc = parse(argc, argv, &target, &timeout_text, &timeout_ms);
    if (rc)
        return rc < 0 ? EX_OK : rc;
    if (hostport_split(target, 3389, host, sizeof host, &port) != 0 || port == 0 || !host[0]) {
        fprintf(stderr, "sessmax-agent probe: '%s' is not HOST[:PORT] (port 1 to 65535)\n", target);
        return EX_USAGE;
    }
    size_t hl = strlen(host);
    if (host[0] == '[' && hl > 2 && host[hl - 1] == ']') {   /* [::1]:3389 */
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = '\0';
    }
    signal(SIGPIPE, SIG_IGN);   /* OpenSSL writes with write(2): a peer gone mid-handshake is an error, not a signal */
    struct pin_report r;
    enum pin_status st = pin_probe(host, port, (uint64_t)timeout_ms, &r, err, sizeof err);
    if (st != PIN_OK) {
        fprintf(stderr, "sessmax-agent probe: %s: %s%s%s%s\n", target, err, st == PIN_TIMEOUT ? " (--timeout " : "",
                st == PIN_TIMEOUT ? timeout_text : "", st == PIN_TIMEOUT ? ")" : "");
        return st == PIN_FAILED ? EX_SOFTWARE : EX_UNAVAILABLE;
    }
    print_report(target, &r);
    if (!r.have_cert && r.cert_error[0]) {
        fprintf(stderr, "sessmax-agent probe: %s: %s\n", target, r.cert_error);
        return EX_UNAVAILABLE;
    }
    return EX_OK;
}

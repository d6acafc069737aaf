/* netcheck.c -- `sessmax-agent netcheck`: options, the two measurements, the report and the
 * accuracy checks against the profile (see netcheck.h). The tolerances are the ones the emulator
 * promises in docs/network.md: RTT p50 within 10 % + 2 ms, retransmission rate between half and
 * three times the configured loss (plus 0.5 points), throughput at most 5 % above the rate. */
#include "agent/netcheck/netcheck.h"

#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "agent/netcheck/probe.h"
#include "agent/netcheck/server.h"
#include "agent/netem/netem.h"
#include "common/clock.h"
#include "common/netprofile.h"
#include "common/numarg.h"

static const char USAGE[] =
    "usage: sessmax-agent netcheck --network PROFILE [--sessions N] [--seconds S] [--bulk K]\n"
    "                              [--bulk-seconds S] [--check] [--json]\n"
    "Measures the built-in link emulator against PROFILE (a built-in name or a JSON object) on this\n"
    "host: N echo sessions (a ping each every 100 ms for S seconds; default 10, 5) give the RTT,\n"
    "K bulk connections (default 4, for 5 s) give throughput and the retransmission rate.\n"
    "Loopback only; needs CAP_NET_ADMIN. --check: exit 1 unless the link is what the profile says.\n";

struct opts {
    struct netprofile p;
    unsigned sessions, bulk;
    double seconds, bulk_seconds;
    int check, json;
};

struct figures {
    double rtt_p50, rtt_p95, rtt_p99, err_p50, err_p99, srtt;
    size_t samples;
    double goodput_mbit, link_mbit, retrans_rate, cpu_ms_per_mbit;
    double echo_cpu_pct;         /* shaper thread CPU during the echo phase, % of one core */
    uint64_t segs;
    struct netem_stats st;
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double pct(const uint64_t *v, size_t n, double q)
{
    return n ? v[(size_t)(q * (double)(n - 1))] / 1e3 : 0;
}

static int parse(int argc, char **argv, struct opts *o)
{
    enum { O_NET = 1, O_SESS, O_SECS, O_BULK, O_BSECS, O_CHECK, O_JSON };
    static const struct option LONGOPTS[] = {
        { "network", required_argument, NULL, O_NET }, { "sessions", required_argument, NULL, O_SESS },
        { "seconds", required_argument, NULL, O_SECS }, { "bulk", required_argument, NULL, O_BULK },
        { "bulk-seconds", required_argument, NULL, O_BSECS }, { "check", no_argument, NULL, O_CHECK },
        { "json", no_argument, NULL, O_JSON }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };
    *o = (struct opts){ .sessions = 10, .bulk = 4, .seconds = 5, .bulk_seconds = 5 };
    int have = 0, c;
    char err[512];
    while ((c = getopt_long(argc, argv, "h", LONGOPTS, NULL)) != -1) {
        unsigned long n = 0;
        int bad_num = 0;
        switch (c) {
        case O_NET:
            if (netprofile_parse_arg(optarg, &o->p, err, sizeof err) != 0) {
                fprintf(stderr, "sessmax-agent netcheck: --network: %s\n", err);
                return EX_USAGE;
            }
            have = 1;
            continue;
        case O_CHECK: o->check = 1; continue;
        case O_JSON: o->json = 1; continue;
        case 'h': fputs(USAGE, stdout); return -1;
        case O_SESS:
            bad_num = numarg_ulong("--sessions", optarg, 1, 5000, &n, err, sizeof err);
            o->sessions = (unsigned)n;
            break;
        case O_BULK:
            bad_num = numarg_ulong("--bulk", optarg, 0, 256, &n, err, sizeof err);
            o->bulk = (unsigned)n;
            break;
        case O_SECS: bad_num = numarg_double("--seconds", optarg, 0.001, 100000, &o->seconds, err, sizeof err); break;
        case O_BSECS:
            bad_num = numarg_double("--bulk-seconds", optarg, 0.001, 100000, &o->bulk_seconds, err, sizeof err);
            break;
        default: fputs(USAGE, stderr); return EX_USAGE;
        }
        if (bad_num) {
            fprintf(stderr, "sessmax-agent netcheck: %s\n", err);
            return EX_USAGE;
        }
    }
    if (!have || optind != argc) {
        fputs(USAGE, stderr);
        return EX_USAGE;
    }
    return 0;
}

static int measure(const struct opts *o, struct netem *n, const char *host, uint16_t port,
                   struct netcheck_server *srv, struct figures *f)
{
    char err[256];
    struct netcheck_echo_result e;
    struct netem_stats e0, e1;
    netem_stats(n, &e0);
    uint64_t t0 = clock_now_us();
    int erc = netcheck_echo(n, host, port, o->sessions, 100, o->seconds, &e, err, sizeof err);
    netem_stats(n, &e1);
    f->st = e1;
    f->echo_cpu_pct = (double)(e1.cpu_ns - e0.cpu_ns) / 1e3 / (double)(clock_now_us() - t0) * 100;
    if (erc != 0 || !e.count) {
        fprintf(stderr, "sessmax-agent netcheck: %s\n", e.count ? err : "no ping was answered");
        free(e.rtt_us);
        return -1;
    }
    qsort(e.rtt_us, e.count, sizeof *e.rtt_us, cmp_u64);
    f->samples = e.count;
    f->rtt_p50 = pct(e.rtt_us, e.count, 0.50);
    f->rtt_p95 = pct(e.rtt_us, e.count, 0.95);
    f->rtt_p99 = pct(e.rtt_us, e.count, 0.99);
    f->srtt = e.tcp_srtt_ms;
    for (size_t i = 0; i < e.count; i++) {   /* delay error: |measured - configured| */
        int64_t d = (int64_t)e.rtt_us[i] - (int64_t)o->p.rtt_us;
        e.rtt_us[i] = (uint64_t)(d < 0 ? -d : d);
    }
    qsort(e.rtt_us, e.count, sizeof *e.rtt_us, cmp_u64);
    f->err_p50 = pct(e.rtt_us, e.count, 0.50);
    f->err_p99 = pct(e.rtt_us, e.count, 0.99);
    free(e.rtt_us);
    if (!o->bulk)
        return 0;
    struct netem_stats a, b;
    struct netcheck_bulk_result r;
    netem_stats(n, &a);
    if (netcheck_bulk(n, host, port, o->bulk, o->bulk_seconds, &r, err, sizeof err) != 0) {
        fprintf(stderr, "sessmax-agent netcheck: bulk transfer failed: %s\n", err);
        return -1;
    }
    netem_stats(n, &b);
    struct netcheck_bulk_totals t;
    netcheck_server_totals(srv, &t);
    f->goodput_mbit = (double)r.bytes * 8 / r.seconds / 1e6;
    f->link_mbit = (double)(b.bytes_down - a.bytes_down) * 8 / r.seconds / 1e6;
    double mbit = (double)(b.bytes_down - a.bytes_down + b.bytes_up - a.bytes_up) * 8 / 1e6;
    f->cpu_ms_per_mbit = mbit > 0 ? (double)(b.cpu_ns - a.cpu_ns) / 1e6 / mbit : 0;
    f->segs = t.segs_out;
    f->retrans_rate = t.segs_out ? (double)t.retrans / (double)t.segs_out : 0;
    f->st = b;
    return 0;
}

static void report_text(const struct opts *o, const struct figures *f)
{
    char desc[256], rate[32] = "unlimited";
    netprofile_describe(&o->p, desc, sizeof desc);
    if (o->p.rate_down_bps)
        snprintf(rate, sizeof rate, "%.2f Mbit/s", (double)o->p.rate_down_bps / 1e6);
    printf("netcheck %s\n", desc);
    printf("  rtt      configured %.1f ms; measured p50 %.1f p95 %.1f p99 %.1f ms (%zu pings, %u sessions); "
           "TCP srtt %.1f ms\n", o->p.rtt_us / 1e3, f->rtt_p50, f->rtt_p95, f->rtt_p99, f->samples, o->sessions, f->srtt);
    printf("  delay    error p50 %.2f ms, p99 %.2f ms; shaper %.1f %% of a core, late p99 %llu us\n", f->err_p50,
           f->err_p99, f->echo_cpu_pct, (unsigned long long)f->st.late_p99_us);
    if (o->bulk)
        printf("  bulk     %u conns: %.2f Mbit/s goodput, %.2f Mbit/s on the link (configured %s)\n"
               "  retrans  %.2f%% of %llu segments (configured loss %.2f%% per direction)\n"
               "  shaper   %.3f ms CPU per Mbit/s-second, late p50 %llu us p99 %llu us, loss drops %llu/%llu, "
               "queue drops %llu/%llu, overflow %llu\n",
               o->bulk, f->goodput_mbit, f->link_mbit,
               rate, f->retrans_rate * 100,
               (unsigned long long)f->segs, o->p.loss * 100, f->cpu_ms_per_mbit,
               (unsigned long long)f->st.late_p50_us, (unsigned long long)f->st.late_p99_us,
               (unsigned long long)f->st.lost_up, (unsigned long long)f->st.lost_down,
               (unsigned long long)f->st.qdrop_up, (unsigned long long)f->st.qdrop_down,
               (unsigned long long)f->st.overflow);
}

static void report_json(const struct opts *o, const struct figures *f)
{
    json_t *j = json_pack("{s:s, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:f, s:f, s:f, s:I, s:f, s:f, s:I, s:I}",
                          "profile", o->p.name, "sessions", (json_int_t)o->sessions,
                          "rtt_ms", o->p.rtt_us / 1e3, "rtt_p50_ms", f->rtt_p50, "rtt_p95_ms", f->rtt_p95,
                          "rtt_p99_ms", f->rtt_p99, "delay_err_p50_ms", f->err_p50,
                          "delay_err_p99_ms", f->err_p99, "pings", (json_int_t)f->samples,
                          "goodput_mbit", f->goodput_mbit, "link_mbit", f->link_mbit,
                          "retrans_rate", f->retrans_rate, "segments", (json_int_t)f->segs,
                          "cpu_ms_per_mbit", f->cpu_ms_per_mbit, "echo_cpu_pct", f->echo_cpu_pct,
                          "late_p99_us", (json_int_t)f->st.late_p99_us, "overflow", (json_int_t)f->st.overflow);
    if (j && json_dumpf(j, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6)) == 0)
        putchar('\n');
    json_decref(j);
}

/* Prints one line per check; returns the number that failed. */
static int check(const struct opts *o, const struct figures *f)
{
    int failed = 0;
    double want = o->p.rtt_us / 1e3, tol = want * 0.10 + 2.0;
    int ok = f->rtt_p50 >= want - tol && f->rtt_p50 <= want + tol;
    printf("check rtt: p50 %.2f ms within %.2f +- %.2f ms: %s\n", f->rtt_p50, want, tol, ok ? "PASS" : "FAIL");
    failed += !ok;
    if (!o->bulk)
        return failed;
    if (o->p.loss > 0) {
        double lo = o->p.loss * 0.5, hi = o->p.loss * 3 + 0.005;
        ok = f->segs >= 2000 && f->retrans_rate >= lo && f->retrans_rate <= hi;
        printf("check retrans: %.2f%% of %llu segments within [%.2f%%, %.2f%%] (>= 2000 segments): %s\n",
               f->retrans_rate * 100, (unsigned long long)f->segs, lo * 100, hi * 100, ok ? "PASS" : "FAIL");
    } else if (!o->p.rate_down_bps) {
        ok = f->retrans_rate <= 0.005;
        printf("check retrans: %.2f%% without loss (<= 0.5%%): %s\n", f->retrans_rate * 100, ok ? "PASS" : "FAIL");
    }
    failed += !ok;
    if (o->p.rate_down_bps) {
        double rate = (double)o->p.rate_down_bps / 1e6, top = rate * 1.05;
        ok = f->goodput_mbit <= top && f->link_mbit <= top && f->link_mbit >= rate * 0.3;
        printf("check rate: goodput %.2f, link %.2f Mbit/s within [%.2f, %.2f]: %s\n", f->goodput_mbit,
               f->link_mbit, rate * 0.3, top, ok ? "PASS" : "FAIL");
        failed += !ok;
    }
    return failed;
}

int netcheck_main(int argc, char **argv)
{
    struct opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    char err[512], host[64];
    if (!netprofile_is_shaped(&o.p)) {
        fprintf(stderr, "sessmax-agent netcheck: profile %s shapes nothing\n", o.p.name);
        return EX_USAGE;
    }
    uint16_t port;
    struct netcheck_server *srv = netcheck_server_start(&port);
    struct netem *n = NULL;
    if (!srv)
        return EX_OSERR;
    if (netem_open(&o.p, "127.0.0.1", &n, host, sizeof host, err, sizeof err) != 0) {
        fprintf(stderr, "sessmax-agent netcheck: %s\n", err);
        netcheck_server_stop(srv);
        return EX_NOPERM;
    }
    struct figures f = { 0 };
    rc = measure(&o, n, host, port, srv, &f);
    netcheck_server_stop(srv);
    netem_close(n);
    if (rc != 0)
        return EX_SOFTWARE;
    if (o.json)
        report_json(&o, &f);
    else
        report_text(&o, &f);
    return o.check && check(&o, &f) ? 1 : 0;
}

/* kernel.c -- sch_netem on a veth pair: detection, qdisc parameters, the pair itself. */
#include "agent/netem/kernel.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/netem/sys.h"

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int probe_result;               /* 1 present, 0 absent */
static char probe_why[256];

static int run(const char *const argv[], char *err, size_t errlen)
{
    char e[200] = "";
    int rc = netem_sys_run(argv, NULL, 0, e, sizeof e);
    if (rc != 0 && err)
        snprintf(err, errlen, "%s %s %s: %s", argv[0], argv[1], argv[2] ? argv[2] : "", e[0] ? e : "failed");
    return rc == 0 ? 0 : -1;
}

/* A throwaway namespace smxprobe-<pid>: can a netem qdisc be added to its loopback? */
static void probe(void)
{
    char ns[32], e[200] = "";
    snprintf(ns, sizeof ns, "smxprobe-%ld", (long)getpid());
    const char *const add[] = { "ip", "netns", "add", ns, NULL };
    const char *const lo[] = { "ip", "-n", ns, "link", "set", "lo", "up", NULL };
    const char *const tc[] = { "tc", "-n", ns, "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms", NULL };
    const char *const del[] = { "ip", "netns", "del", ns, NULL };
    if (run(add, e, sizeof e) != 0) {
        snprintf(probe_why, sizeof probe_why, "no throwaway namespace (%s)", e);
        return;
    }
    if (run(lo, e, sizeof e) == 0 && run(tc, e, sizeof e) == 0) {
        probe_result = 1;
        snprintf(probe_why, sizeof probe_why, "the kernel has sch_netem");
    } else {
        snprintf(probe_why, sizeof probe_why, "the kernel has no sch_netem (%s)", e);
    }
    run(del, NULL, 0);
}

int netem_kernel_wanted(char *why, size_t whylen, char *err, size_t errlen)
{
    const char *mode = getenv("SESSMAX_NETEM");
    if (mode && *mode && strcmp(mode, "auto") && strcmp(mode, "kernel") && strcmp(mode, "builtin")) {
        snprintf(err, errlen, "SESSMAX_NETEM=%s: expected auto, kernel or builtin", mode);
        return -1;
    }
    if (mode && !strcmp(mode, "builtin")) {
        if (why)
            snprintf(why, whylen, "SESSMAX_NETEM=builtin");
        return 0;
    }
    pthread_once(&probe_once, probe);
    if (why)
        snprintf(why, whylen, "%s", probe_why);
    if (!probe_result && mode && !strcmp(mode, "kernel")) {
        snprintf(err, errlen, "SESSMAX_NETEM=kernel: %s", probe_why);
        return -1;
    }
    return probe_result;
}

/* netem's limit counts the packets in its delay line too: the profile's queue is the bottleneck's,
 * so the limit is the queue plus what the link holds in flight at the rate (no rate: no
 * bottleneck, the largest limit the profile allows). */
static unsigned limit_of(const struct netprofile *p, uint64_t rate)
{
    if (!rate)
        return NETPROFILE_QUEUE_MAX;
    uint64_t in_flight = rate * (p->rtt_us / 2 + p->jitter_us) / 1000000u / (1500u * 8u);
    return (unsigned)(p->queue_pkts + in_flight + 1);
}

void netem_kernel_params(const struct netprofile *p, int down, char *buf, size_t len)
{
    uint64_t rate = down ? p->rate_down_bps : p->rate_up_bps;
    int n = snprintf(buf, len, "limit %u delay %uus %uus loss %.4f%%", limit_of(p, rate), (unsigned)(p->rtt_us / 2),
                     (unsigned)p->jitter_us, p->loss * 100.0);
    if (rate && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " rate %llubit", (unsigned long long)rate);
}

/* tc qdisc add dev DEV root netem PARAMS..., run in namespace ns (NULL: the host). */
static int add_qdisc(const char *ns, const char *dev, const char *params, char *err, size_t errlen)
{
    char words[256];
    const char *argv[32];
    int k = 0;
    argv[k++] = "tc";
    if (ns) {
        argv[k++] = "-n";
        argv[k++] = ns;
    }
    const char *const head[] = { "qdisc", "add", "dev", dev, "root", "netem" };
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        argv[k++] = head[i];
    snprintf(words, sizeof words, "%s", params);
    for (char *w = strtok(words, " "); w && k < 31; w = strtok(NULL, " "))
        argv[k++] = w;
    argv[k] = NULL;
    return run(argv, err, errlen);
}

int netem_kernel_link(const struct netprofile *p, const char *ns, const char *host_dev, const char *ns_dev,
                      char *err, size_t errlen)
{
    char down[160], up[160];
    const char *const pair[] = { "ip", "link", "add", host_dev, "type", "veth", "peer", "name", ns_dev, "netns", ns, NULL };
    if (run(pair, err, errlen) != 0)
        return -1;
    netem_kernel_params(p, 1, down, sizeof down);
    netem_kernel_params(p, 0, up, sizeof up);
    return add_qdisc(NULL, host_dev, down, err, errlen) || add_qdisc(ns, ns_dev, up, err, errlen) ? -1 : 0;
}

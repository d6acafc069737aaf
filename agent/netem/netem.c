/* netem.c -- namespace, devices, routes and NAT rules of the agent's link emulator; leftovers of
 * killed agents (see netem.h). Order of netem_open: namespace, then the link -- host TUN and
 * namespace TUN (entered briefly), or where the kernel has sch_netem a veth pair with netem on
 * both ends (kernel.h) --, addresses and routes, sysctls, iptables rules, shaper (TUN only).
 * netem_close undoes it in reverse; every rule carries the comment smx-<pid> so a sweep can find
 * it by pid. */
#include "agent/netem/netem.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <sched.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/engine/engine_config.h"
#include "agent/netem/kernel.h"
#include "agent/netem/sys.h"
#include "common/log.h"
#include "common/netcap.h"

#define STANDIN_ADDR "198.18.0.1"     /* RFC 2544 benchmark range: what a loopback target becomes */
#define NS_DEV "smxn0"
#define GW_ADDR "169.254.0.1"         /* the host end of a veth pair, the namespace's gateway */
#define STATE_DIR "/run/sessmax-netem"

struct netem {
    long pid;
    char ns[32], dev[16], ns_addr[20], target_addr[64];
    int ns_fd;
    int loopback;                      /* DNAT rule instead of forwarding */
    int kernel;                        /* veth + sch_netem instead of TUN + shaper */
    int forward_was_off;               /* we turned net.ipv4.ip_forward on */
    struct netem_shaper *shaper;
};

static int run(char *err, size_t errlen, const char *const argv[])
{
    char e[256] = "";
    int rc = netem_sys_run(argv, NULL, 0, e, sizeof e);
    if (rc != 0 && err)
        snprintf(err, errlen, "%s %s %s: %s", argv[0], argv[1], argv[2] ? argv[2] : "", e[0] ? e : "failed");
    return rc == 0 ? 0 : -1;
}

int netem_check(char *err, size_t errlen)
{
    return netcap_check(err, errlen);
}

/* Deletes every iptables rule in `table` whose comment is smx-<pid> with a pid for which
 * keep(pid) is 0. */
static void drop_rules(const char *table, int (*keep)(long pid, long self), long self)
{
    char out[65536];
    const char *const list[] = { "iptables", "-w", "-t", table, "-S", NULL };
    if (netem_sys_run(list, out, sizeof out, NULL, 0) != 0)
        return;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        char *c = strstr(line, "--comment smx-");
        if (strncmp(line, "-A ", 3) != 0 || !c || keep(strtol(c + 14, NULL, 10), self))
            continue;
        const char *argv[40] = { "iptables", "-w", "-t", table };
        int n = 4;
        char copy[1024];
        snprintf(copy, sizeof copy, "%s", line);
        copy[1] = 'D';
        char *save;
        for (char *tok = strtok_r(copy, " ", &save); tok && n < 39; tok = strtok_r(NULL, " ", &save))
            argv[n++] = strcmp(tok, "\"") ? tok : "";
        argv[n] = NULL;
        if (netem_sys_run(argv, NULL, 0, NULL, 0) != 0)
            log_warn("network emulator: cannot delete a leftover rule: %s", line);
        /* strtok's position in `out` is unaffected: we tokenised a copy */
    }
}

static int keep_alive_other(long pid, long self)
{
    return pid == self ? 0 : netem_sys_pid_alive(pid);
}

static int keep_others(long pid, long self)
{
    return pid != self;
}

/* 1 if another agent's namespace (alive) exists. */
static int other_namespaces(long self)
{
    DIR *d = opendir("/run/netns");
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d)))
        if (!strncmp(e->d_name, "smx-", 4) && strtol(e->d_name + 4, NULL, 10) != self &&
            netem_sys_pid_alive(strtol(e->d_name + 4, NULL, 10)))
            found = 1;
    if (d)
        closedir(d);
    return found;
}

/* Turns ip_forward back off when the last agent that needed it is gone. */
static void restore_forwarding(long self)
{
    DIR *d = opendir(STATE_DIR);
    struct dirent *e;
    int pending = 0, live = 0;
    char path[300];
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, "forward-", 8))
            continue;
        long pid = strtol(e->d_name + 8, NULL, 10);
        if (pid != self && netem_sys_pid_alive(pid)) {
            live = 1;
            continue;
        }
        pending = 1;
        snprintf(path, sizeof path, STATE_DIR "/%s", e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    if (pending && !live && netem_sys_write("net/ipv4/ip_forward", "0") != 0)
        log_warn("network emulator: cannot turn net.ipv4.ip_forward back off");
}

void netem_sweep(void)
{
    long self = (long)getpid();
    DIR *d = opendir("/run/netns");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        long pid = strncmp(e->d_name, "smx-", 4) ? 0 : strtol(e->d_name + 4, NULL, 10);
        if (pid <= 0 || pid == self || netem_sys_pid_alive(pid))
            continue;
        const char *const del[] = { "ip", "netns", "del", e->d_name, NULL };
        if (netem_sys_run(del, NULL, 0, NULL, 0) == 0)
            log_info("network emulator: removed namespace %s left by a dead agent", e->d_name);
    }
    if (d)
        closedir(d);
    d = opendir("/sys/class/net");   /* a veth end whose namespace is already gone */
    while (d && (e = readdir(d))) {
        long pid = strncmp(e->d_name, "smxr-", 5) ? 0 : strtol(e->d_name + 5, NULL, 10);
        const char *const del[] = { "ip", "link", "del", e->d_name, NULL };
        if (pid > 0 && pid != self && !netem_sys_pid_alive(pid) && netem_sys_run(del, NULL, 0, NULL, 0) == 0)
            log_info("network emulator: removed device %s left by a dead agent", e->d_name);
    }
    if (d)
        closedir(d);
    drop_rules("nat", keep_alive_other, self);
    drop_rules("filter", keep_alive_other, self);
    restore_forwarding(self);
}

/* IPv4 address of host (resolved on the host side); 1 when it is a loopback address. */
static int resolve(const char *host, char *addr, size_t len, char *err, size_t errlen)
{
    struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *res = NULL;
    int rc = getaddrinfo(host, NULL, &hints, &res);
    if (rc != 0 || !res) {
        snprintf(err, errlen, "network emulator: cannot resolve %s to an IPv4 address (%s)", host, gai_strerror(rc));
        return -1;
    }
    struct in_addr a = ((struct sockaddr_in *)res->ai_addr)->sin_addr;
    freeaddrinfo(res);
    inet_ntop(AF_INET, &a, addr, (socklen_t)len);
    return (ntohl(a.s_addr) >> 24) == 127;
}

/* The namespace-side TUN: created from inside the namespace, then we return to ours. */
static int ns_tun(const struct netem *n, char *err, size_t errlen)
{
    int home = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    if (home < 0 || setns(n->ns_fd, CLONE_NEWNET) != 0) {
        snprintf(err, errlen, "network emulator: cannot enter namespace %s: %s", n->ns, strerror(errno));
        if (home >= 0)
            close(home);
        return -1;
    }
    int fd = netem_sys_tun(NS_DEV, err, errlen);
    if (setns(home, CLONE_NEWNET) != 0) {
        log_error("network emulator: cannot return to the host namespace: %s", strerror(errno));
        abort();   /* this thread would run everything else in the emulated namespace */
    }
    close(home);
    return fd;
}

static int configure(struct netem *n, char *err, size_t errlen)
{
    char route[32], sysctl[96];
    snprintf(route, sizeof route, "%s/32", n->ns_addr);
    const char *const host_up[] = { "ip", "link", "set", n->dev, "mtu", "1500", "txqueuelen", "20000", "up", NULL };
    const char *const host_rt[] = { "ip", "route", "add", route, "dev", n->dev, NULL };
    const char *const ns_lo[] = { "ip", "-n", n->ns, "link", "set", "lo", "up", NULL };
    const char *const ns_addr[] = { "ip", "-n", n->ns, "addr", "add", route, "dev", NS_DEV, NULL };
    const char *const ns_up[] = { "ip", "-n", n->ns, "link", "set", NS_DEV, "mtu", "1500", "txqueuelen", "20000", "up", NULL };
    const char *const ns_rt[] = { "ip", "-n", n->ns, "route", "add", "default", "dev", NS_DEV, NULL };
    /* a veth end is not point-to-point: the namespace routes through the host end's address */
    const char *const host_gw[] = { "ip", "addr", "add", GW_ADDR "/32", "dev", n->dev, NULL };
    const char *const ns_rt_gw[] = { "ip", "-n", n->ns, "route", "add", "default", "via", GW_ADDR, "dev", NS_DEV,
                                     "onlink", NULL };
    if (run(err, errlen, host_up) || run(err, errlen, host_rt) || run(err, errlen, ns_lo) ||
        run(err, errlen, ns_addr) || run(err, errlen, ns_up) ||
        (n->kernel ? run(err, errlen, host_gw) || run(err, errlen, ns_rt_gw) : run(err, errlen, ns_rt)))
        return -1;
    snprintf(sysctl, sizeof sysctl, "net/ipv4/conf/%s/route_localnet", n->dev);
    if (n->loopback && netem_sys_write(sysctl, "1") != 0) {
        snprintf(err, errlen, "network emulator: cannot set %s", sysctl);
        return -1;
    }
    snprintf(sysctl, sizeof sysctl, "net/ipv4/conf/%s/rp_filter", n->dev);
    netem_sys_write(sysctl, "0");
    return 0;
}

static int add_rules(struct netem *n, char *err, size_t errlen)
{
    char comment[32], src[32];
    snprintf(comment, sizeof comment, "smx-%ld", n->pid);
    snprintf(src, sizeof src, "%s/32", n->ns_addr);
    if (n->loopback) {
        const char *const dnat[] = { "iptables", "-w", "-t", "nat", "-A", "PREROUTING", "-i", n->dev, "-d", STANDIN_ADDR,
                                     "-m", "comment", "--comment", comment, "-j", "DNAT", "--to-destination",
                                     n->target_addr, NULL };
        return run(err, errlen, dnat);
    }
    const char *const masq[] = { "iptables", "-w", "-t", "nat", "-A", "POSTROUTING", "-s", src, "!", "-o", n->dev,
                                 "-m", "comment", "--comment", comment, "-j", "MASQUERADE", NULL };
    const char *const fwd_in[] = { "iptables", "-w", "-I", "FORWARD", "-i", n->dev, "-m", "comment", "--comment",
                                   comment, "-j", "ACCEPT", NULL };
    const char *const fwd_out[] = { "iptables", "-w", "-I", "FORWARD", "-o", n->dev, "-m", "comment", "--comment",
                                    comment, "-j", "ACCEPT", NULL };
    if (run(err, errlen, masq) || run(err, errlen, fwd_in) || run(err, errlen, fwd_out))
        return -1;
    char v[8] = "";
    if (netem_sys_read("net/ipv4/ip_forward", v, sizeof v) == 0 && strcmp(v, "1") != 0) {
        char path[96];
        mkdir(STATE_DIR, 0700);
        snprintf(path, sizeof path, STATE_DIR "/forward-%ld", n->pid);
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        if (fd >= 0)
            close(fd);
        n->forward_was_off = 1;
        if (netem_sys_write("net/ipv4/ip_forward", "1") != 0) {
            snprintf(err, errlen, "network emulator: cannot turn on net.ipv4.ip_forward");
            return -1;
        }
    }
    return 0;
}

int netem_open(const struct netprofile *p, const char *target_host, struct netem **out, char *connect_host,
               size_t len, char *err, size_t errlen)
{
    char why[256];
    int kernel;
    if (netem_check(err, errlen) != 0 || (kernel = netem_kernel_wanted(why, sizeof why, err, errlen)) < 0)
        return -1;
    netem_sweep();
    struct netem *n = calloc(1, sizeof *n);
    if (!n)
        return -1;
    n->pid = (long)getpid();
    n->ns_fd = -1;
    n->kernel = kernel;
    snprintf(n->ns, sizeof n->ns, "smx-%ld", n->pid);
    snprintf(n->dev, sizeof n->dev, "smxr-%ld", n->pid);
    uint32_t a = (100u << 24 | 64u << 16) + ((uint32_t)n->pid & 0x3fffff);   /* 100.64.0.0/10 + pid */
    snprintf(n->ns_addr, sizeof n->ns_addr, "%u.%u.%u.%u", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
    int lo = resolve(target_host, n->target_addr, sizeof n->target_addr, err, errlen);
    if (lo < 0) {
        free(n);
        return -1;
    }
    n->loopback = lo;
    const char *const add[] = { "ip", "netns", "add", n->ns, NULL };
    if (run(err, errlen, add) != 0) {
        free(n);
        return -1;
    }
    char path[64];
    snprintf(path, sizeof path, "/run/netns/%s", n->ns);
    int fd_host = -1, fd_ns = -1;
    n->ns_fd = open(path, O_RDONLY | O_CLOEXEC);
    if (n->ns_fd < 0)
        goto fail;
    if (kernel) {
        if (netem_kernel_link(p, n->ns, n->dev, NS_DEV, err, errlen) != 0 || configure(n, err, errlen) != 0 ||
            add_rules(n, err, errlen) != 0)
            goto fail;
        log_info("network emulator: sch_netem on veth %s <-> %s:%s (%s)", n->dev, n->ns, NS_DEV, why);
        goto done;
    }
    if ((fd_host = netem_sys_tun(n->dev, err, errlen)) < 0 || (fd_ns = ns_tun(n, err, errlen)) < 0 ||
        configure(n, err, errlen) != 0 || add_rules(n, err, errlen) != 0)
        goto fail;
    log_info("network emulator: built-in (%s)", why);
    n->shaper = netem_shaper_start(fd_ns, fd_host, p, (uint64_t)n->pid);
    fd_ns = fd_host = -1;   /* the shaper owns them now, or closed them */
    if (!n->shaper) {
        snprintf(err, errlen, "network emulator: cannot start the shaper");
        goto fail;
    }
done:
    snprintf(connect_host, len, "%s", n->loopback ? STANDIN_ADDR : n->target_addr);
    log_info("network emulator: namespace %s, %s -> %s", n->ns, connect_host, n->target_addr);
    *out = n;
    return 0;
fail:
    if (fd_host >= 0)
        close(fd_host);
    if (fd_ns >= 0)
        close(fd_ns);
    netem_close(n);
    return -1;
}

int netem_apply(const struct netprofile *p, struct engine_config *cfg, struct netem **out, char *host_buf,
                size_t len, char *err, size_t errlen)
{
    *out = NULL;
    cfg->connection_type = (uint32_t)p->conn;
    if (!netprofile_is_shaped(p))
        return 0;
    if (netem_open(p, cfg->host, out, host_buf, len, err, errlen) != 0)
        return -1;
    char desc[256];
    netprofile_describe(p, desc, sizeof desc);
    log_info("network %s: RDP traffic shaped by %s", desc, (*out)->kernel ? "sch_netem" : "the built-in emulator");
    cfg->host = host_buf;
    cfg->netem = *out;
    return 0;
}

int netem_enter(const struct netem *n)
{
    if (!n)
        return 0;
    if (setns(n->ns_fd, CLONE_NEWNET) != 0) {
        log_error("network emulator: cannot enter namespace %s: %s", n->ns, strerror(errno));
        return -1;
    }
    return 0;
}

int netem_ns_fd(const struct netem *n)
{
    return n ? n->ns_fd : -1;
}

void netem_stats(struct netem *n, struct netem_stats *out)
{
    if (n->shaper)
        netem_shaper_stats(n->shaper, out);
    else
        memset(out, 0, sizeof *out);   /* sch_netem: the qdiscs count (tc -s qdisc) */
}

void netem_close(struct netem *n)
{
    if (!n)
        return;
    netem_shaper_stop(n->shaper);   /* closes both TUN fds: the devices and their routes go */
    drop_rules("nat", keep_others, n->pid);
    drop_rules("filter", keep_others, n->pid);
    if (n->ns_fd >= 0)
        close(n->ns_fd);
    const char *const del[] = { "ip", "netns", "del", n->ns, NULL };
    const char *const del_dev[] = { "ip", "link", "del", n->dev, NULL };
    if (n->kernel)   /* the pair goes now, not when the last thread inside the namespace ends */
        netem_sys_run(del_dev, NULL, 0, NULL, 0);
    netem_sys_run(del, NULL, 0, NULL, 0);
    if (n->forward_was_off && !other_namespaces(n->pid))
        restore_forwarding(n->pid);
    free(n);
}

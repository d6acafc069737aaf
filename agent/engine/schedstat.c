/* schedstat.c -- the agent's threads' CPU time and run delay from /proc (see schedstat.h). */
#include "agent/engine/schedstat.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One decimal number at *p, then the spaces after it; -1 when there is no digit. */
static int number(const char **p, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return -1;
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    while (*s == ' ')
        s++;
    *p = s;
    *out = v;
    return 0;
}

int schedstat_parse(const char *text, struct schedstat *out)
{
    const char *p = text;
    struct schedstat v;
    memset(out, 0, sizeof *out);
    if (!p || number(&p, &v.cpu_ns) || number(&p, &v.delay_ns) || number(&p, &v.slices))
        return -1;
    *out = v;
    return 0;
}

/* Reads up to len - 1 bytes of path into buf, NUL-terminated; the length, or -1. */
static ssize_t slurp(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return n;
}

static int read_file(const char *path, struct schedstat *out)
{
    char buf[128];
    if (slurp(path, buf, sizeof buf) <= 0) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    return schedstat_parse(buf, out);
}

int schedstat_thread(pid_t tid, struct schedstat *out)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%ld/schedstat", (long)tid);
    return read_file(path, out);
}

int schedstat_process(struct schedstat *out)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int any = 0;
    memset(out, 0, sizeof *out);
    if (!d)
        return -1;
    while ((e = readdir(d))) {
        struct schedstat t;
        char *end;
        long tid = strtol(e->d_name, &end, 10);
        if (e->d_name[0] == '.' || *end || schedstat_thread((pid_t)tid, &t) != 0)
            continue;
        out->cpu_ns += t.cpu_ns;
        out->delay_ns += t.delay_ns;
        out->slices += t.slices;
        any = 1;
    }
    closedir(d);
    return any ? 0 : -1;
}

static uint64_t delta(uint64_t a, uint64_t b)
{
    return b > a ? b - a : 0;
}

static uint32_t permille(uint64_t ns, uint64_t interval_us)
{
    uint64_t v = interval_us ? ns / interval_us : 0;    /* ns / µs = per mille */
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

void schedstat_interval(const struct schedstat *loop_a, const struct schedstat *loop_b,
                        const struct schedstat *proc_a, const struct schedstat *proc_b,
                        uint64_t interval_us, struct rec_health *h)
{
    h->has_sched = 1;
    h->loop_cpu_permille = permille(delta(loop_a->cpu_ns, loop_b->cpu_ns), interval_us);
    h->loop_delay_permille = permille(delta(loop_a->delay_ns, loop_b->delay_ns), interval_us);
    h->delay_permille = permille(delta(proc_a->delay_ns, proc_b->delay_ns), interval_us);
    uint64_t w = delta(loop_a->slices, loop_b->slices);
    h->loop_wakeups = w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
}

/* Whether the comma-separated list [p, end) holds the word "cpu". */
static int lists_cpu(const char *p, const char *end)
{
    while (p < end) {
        const char *c = memchr(p, ',', (size_t)(end - p));
        const char *e = c ? c : end;
        if (e - p == 3 && !memcmp(p, "cpu", 3))
            return 1;
        p = e + 1;
    }
    return 0;
}

int schedstat_cgroup_path(const char *text, char *out, size_t len, int *v2)
{
    const char *v2_path = NULL, *line = text;
    size_t v2_len = 0;
    for (; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);
        const char *c1 = memchr(line, ':', (size_t)(end - line));
        const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
        if (!c2)
            continue;
        size_t plen = (size_t)(end - c2 - 1);
        if (c2 == c1 + 1 && c1 - line == 1 && line[0] == '0') {
            v2_path = c2 + 1;
            v2_len = plen;
        } else if (lists_cpu(c1 + 1, c2) && plen < len) {
            memcpy(out, c2 + 1, plen);
            out[plen] = '\0';
            *v2 = 0;
            return 0;
        }
    }
    if (!v2_path || v2_len >= len)
        return -1;
    memcpy(out, v2_path, v2_len);
    out[v2_len] = '\0';
    *v2 = 1;
    return 0;
}

int schedstat_throttled_parse(const char *text, uint64_t *ns)
{
    static const struct { const char *key; uint64_t scale; } keys[] = {
        { "throttled_time ", 1 }, { "throttled_usec ", 1000 },
    };
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            size_t kl = strlen(keys[k].key);
            const char *p = line + kl;
            uint64_t v;
            if (!strncmp(line, keys[k].key, kl) && number(&p, &v) == 0) {
                *ns = v * keys[k].scale;
                return 0;
            }
        }
    return -1;
}

uint64_t schedstat_throttled_ns(void)
{
    char text[1024], rel[512], path[640], stat[512];
    int v2 = 0;
    uint64_t ns = 0;
    if (slurp("/proc/self/cgroup", text, sizeof text) <= 0 || schedstat_cgroup_path(text, rel, sizeof rel, &v2) != 0)
        return 0;
    static const char *const v1_roots[] = { "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct" };
    for (size_t i = 0; i < (v2 ? 1 : 2); i++) {
        snprintf(path, sizeof path, "%s%s/cpu.stat", v2 ? "/sys/fs/cgroup" : v1_roots[i], rel);
        if (slurp(path, stat, sizeof stat) > 0 && schedstat_throttled_parse(stat, &ns) == 0)
            return ns;
    }
    return 0;
}

void schedstat_throttled_interval(uint64_t a_ns, uint64_t b_ns, uint64_t interval_us, struct rec_health *h)
{
    h->throttled_permille = permille(delta(a_ns, b_ns), interval_us);
}

/* capacity.c -- external-client sessions an agent can carry, from costs and room
 * (capacity.h). */
#include "agent/x11/capacity.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_read.h"

#define CGROUP_ROOT "/sys/fs/cgroup"
#define SMALL_FILE (64u << 10)          /* meminfo, cgroup files: a few KiB */

uint32_t x11_capacity_derive(const struct x11_capacity_cost *c, const struct x11_capacity_room *r)
{
    uint64_t n = UINT64_MAX;
    if (c->mem_kb) {
        uint64_t m = r->mem_kb / 100 * X11_CAPACITY_MEM_PCT / c->mem_kb;
        n = m < n ? m : n;
    }
    if (c->cpu_permille) {
        uint64_t m = (uint64_t)r->cpu_permille * X11_CAPACITY_CPU_PCT / 100 / c->cpu_permille;
        n = m < n ? m : n;
    }
    if (n == UINT64_MAX)
        return 0;
    if (n > UINT32_MAX)
        n = UINT32_MAX;
    return n ? (uint32_t)n : 1;
}

int x11_capacity_meminfo(const char *text, uint64_t *avail_kb)
{
    const char *p = strstr(text, "MemAvailable:");
    unsigned long long v;
    if (!p || sscanf(p + 13, "%llu kB", &v) != 1)
        return -1;
    *avail_kb = v;
    return 0;
}

int x11_capacity_cpu_max(const char *text, uint32_t *permille)
{
    unsigned long long quota, period;
    if (!strncmp(text, "max", 3))
        return 0;
    if (sscanf(text, "%llu %llu", &quota, &period) != 2 || !period)
        return -1;
    uint64_t pm = quota * 1000 / period;
    *permille = pm > UINT32_MAX ? UINT32_MAX : (uint32_t)pm;
    return 1;
}

int x11_capacity_cgroup_path(const char *text, const char *controller, char *out, size_t outlen)
{
    size_t cl = strlen(controller);
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        const char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        const char *nl = strchr(line, '\n');
        if (!c2 || (nl && c2 > nl))
            continue;
        int match = !cl ? c2 == c1 + 1 : 0;         /* v2: "0::PATH" */
        for (const char *w = c1 + 1; cl && w < c2; w += strcspn(w, ",:") + 1)
            match |= strcspn(w, ",:") == cl && !strncmp(w, controller, cl);
        size_t n = nl ? (size_t)(nl - c2 - 1) : strlen(c2 + 1);
        if (!match || n >= outlen)
            continue;
        memcpy(out, c2 + 1, n);
        out[n] = '\0';
        return 0;
    }
    return -1;
}

/* A small file's text (caller frees), NULL when unreadable. */
static char *small(const char *path)
{
    char err[256];
    size_t len;
    return file_read_all(path, SMALL_FILE, &len, err, sizeof err);
}

/* A number from the file dir/name (cgroup v1 and v2 files); -1 when absent or "max". */
static int number(const char *dir, const char *name, long long *v)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *t = small(path);
    int ok = t && sscanf(t, "%lld", v) == 1;
    free(t);
    return ok ? 0 : -1;
}

struct limits { uint64_t free_kb; uint32_t cpu; };

static void lower_mem(struct limits *l, long long max, long long cur)
{
    uint64_t f = max > cur ? (uint64_t)(max - cur) / 1024 : 0;
    if (f < l->free_kb)
        l->free_kb = f;
}

/* cgroup v2: memory.max and memory.current, cpu.max. */
static void v2(const char *dir, struct limits *l)
{
    char path[4300];
    long long max, cur = 0;
    uint32_t pm;
    if (number(dir, "memory.max", &max) == 0) {
        number(dir, "memory.current", &cur);
        lower_mem(l, max, cur);
    }
    snprintf(path, sizeof path, "%s/cpu.max", dir);
    char *t = small(path);
    if (t && x11_capacity_cpu_max(t, &pm) == 1 && pm < l->cpu)
        l->cpu = pm;
    free(t);
}

/* cgroup v1: the memory controller's limit and usage ("no limit" is a huge number). */
static void v1_memory(const char *dir, struct limits *l)
{
    long long max, cur = 0;
    if (number(dir, "memory.limit_in_bytes", &max) == 0) {
        number(dir, "memory.usage_in_bytes", &cur);
        lower_mem(l, max, cur);
    }
}

/* cgroup v1: the cpu controller's CFS quota (-1: none) over its period. */
static void v1_cpu(const char *dir, struct limits *l)
{
    long long quota, period;
    if (number(dir, "cpu.cfs_quota_us", &quota) == 0 && quota > 0 &&
        number(dir, "cpu.cfs_period_us", &period) == 0 && period > 0 &&
        (uint64_t)quota * 1000 / (uint64_t)period < l->cpu)
        l->cpu = (uint32_t)((uint64_t)quota * 1000 / (uint64_t)period);
}

/* fn on our cgroup of that controller ("" : v2) under root, and on each ancestor up to root
 * itself: a limit may be set on any of them. */
static void walk(const char *cgroup_text, const char *controller, const char *root,
                 void (*fn)(const char *dir, struct limits *), struct limits *l)
{
    char rel[4096], dir[4200];
    if (x11_capacity_cgroup_path(cgroup_text, controller, rel, sizeof rel) != 0 || rel[0] != '/')
        return;
    for (;;) {
        snprintf(dir, sizeof dir, "%s%s", root, rel);
        fn(dir, l);
        char *slash = strrchr(rel, '/');
        if (slash == rel && !rel[1])
            return;
        slash[slash == rel] = '\0';             /* "/a/b" -> "/a" -> "/" */
    }
}

int x11_capacity_room_read(uint64_t sessions_kb, struct x11_capacity_room *out)
{
    uint64_t avail;
    char *t = small("/proc/meminfo");
    int ok = t && x11_capacity_meminfo(t, &avail) == 0;
    free(t);
    if (!ok)
        return -1;
    cpu_set_t set;
    uint32_t cpu = sched_getaffinity(0, sizeof set, &set) == 0 ? (uint32_t)CPU_COUNT(&set) * 1000 : 1000;
    struct limits l = { avail, cpu };
    if ((t = small("/proc/self/cgroup"))) {
        walk(t, "", CGROUP_ROOT, v2, &l);
        walk(t, "memory", CGROUP_ROOT "/memory", v1_memory, &l);
        walk(t, "cpu", CGROUP_ROOT "/cpu", v1_cpu, &l);
        free(t);
    }
    out->mem_kb = l.free_kb + sessions_kb;
    out->cpu_permille = l.cpu;
    return 0;
}

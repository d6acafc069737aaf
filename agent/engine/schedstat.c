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

static int read_file(const char *path, struct schedstat *out)
{
    char buf[128];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n <= 0) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    buf[n] = '\0';
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

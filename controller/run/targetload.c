/* targetload.c -- CPU use of a local target and of the other processes on its CPUs (targetload.h).
 * The target's time is summed per process so one that exits between two samples only loses its
 * last interval, never makes the sum go backwards. */
#include "controller/run/targetload.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "common/file_read.h"
#include "controller/run/targetproc.h"

#define CGROUP_CPU "/sys/fs/cgroup/cpu"
#define TL_MAX_PROCS 4096

struct proc_time { int pid; uint64_t ticks; };

struct targetload {
    char procs_path[4352];         /* the cgroup's cgroup.procs; "" when sel says which processes */
    struct targetproc_sel sel;
    int pids[TL_MAX_PROCS];
    cpu_set_t set;
    int ncpus;
    struct proc_time prev[TL_MAX_PROCS], cur[TL_MAX_PROCS];
    size_t nprev;
    uint64_t busy, total;          /* of the set, at the previous sample */
    int have_prev;
};

int targetload_parse_cpus(const char *list, cpu_set_t *set)
{
    CPU_ZERO(set);
    const char *p = list;
    if (!p || !*p)
        return -1;
    while (*p) {
        char *end;
        errno = 0;
        long a = strtol(p, &end, 10), b;
        if (end == p || errno || a < 0 || a >= CPU_SETSIZE)
            return -1;
        b = a;
        if (*end == '-') {
            p = end + 1;
            b = strtol(p, &end, 10);
            if (end == p || b < a || b >= CPU_SETSIZE)
                return -1;
        }
        for (long c = a; c <= b; c++)
            CPU_SET((int)c, set);
        if (*end == ',')
            end++;
        else if (*end)
            return -1;
        p = end;
    }
    return CPU_COUNT(set);
}

int targetload_cpu_times(const char *text, const cpu_set_t *set, uint64_t *busy, uint64_t *total)
{
    int found = 0;
    *busy = *total = 0;
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        int cpu, n;
        unsigned long long v[8] = { 0 };
        if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
            continue;
        n = sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2], &v[3],
                   &v[4], &v[5], &v[6], &v[7]);
        if (n < 5 || cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, set))
            continue;
        uint64_t b = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];   /* user nice system irq softirq steal */
        *busy += b;
        *total += b + v[3] + v[4];                              /* + idle iowait */
        found++;
    }
    return found ? 0 : -1;
}

/* utime + stime + cutime + cstime of one process, in clock ticks; 0 when it is gone. */
static uint64_t proc_ticks(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')');   /* the command name may hold spaces */
    unsigned long long ut = 0, st = 0, cut = 0, cst = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu", &ut, &st, &cut,
                     &cst) != 4)
        return 0;
    return ut + st + cut + cst;
}

/* The group's processes and their CPU time into t->cur; returns how many, -1 when unreadable. */
static long read_group(struct targetload *t)
{
    if (!t->procs_path[0]) {
        size_t n = targetproc_list(&t->sel, t->pids, TL_MAX_PROCS);
        for (size_t i = 0; i < n; i++)
            t->cur[i] = (struct proc_time){ t->pids[i], proc_ticks(t->pids[i]) };
        return (long)n;
    }
    FILE *f = fopen(t->procs_path, "re");
    int pid;
    size_t n = 0;
    if (!f)
        return -1;
    while (n < TL_MAX_PROCS && fscanf(f, "%d", &pid) == 1)
        t->cur[n++] = (struct proc_time){ pid, proc_ticks(pid) };
    fclose(f);
    return (long)n;
}

/* The CPUs the target is measured on: `cpus`, else the first process's affinity, else ours. */
static struct targetload *set_cpus(struct targetload *t, long n, const char *cpus, char *err, size_t errlen)
{
    if (cpus)
        t->ncpus = targetload_parse_cpus(cpus, &t->set);
    else if (n == 0 || sched_getaffinity(t->cur[0].pid, sizeof t->set, &t->set) != 0)
        t->ncpus = sched_getaffinity(0, sizeof t->set, &t->set) == 0 ? CPU_COUNT(&t->set) : -1;
    else
        t->ncpus = CPU_COUNT(&t->set);
    if (t->ncpus <= 0) {
        snprintf(err, errlen, "target.local: bad CPU list '%s'", cpus ? cpus : "(affinity)");
        free(t);
        return NULL;
    }
    return t;
}

struct targetload *targetload_new(const char *cgroup, const char *cpus, char *err, size_t errlen)
{
    struct targetload *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(t->procs_path, sizeof t->procs_path, "%s%s/cgroup.procs", cgroup[0] == '/' ? "" : CGROUP_CPU "/", cgroup);
    long n = read_group(t);
    if (n < 0) {
        snprintf(err, errlen, "target.local: cannot read %s: %s", t->procs_path, strerror(errno));
        free(t);
        return NULL;
    }
    return set_cpus(t, n, cpus, err, errlen);
}

struct targetload *targetload_new_procs(const char *process, const char *cpus, char *err, size_t errlen)
{
    struct targetload *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    cpu_set_t set;
    if (cpus && targetload_parse_cpus(cpus, &set) <= 0) {
        snprintf(err, errlen, "target.local: bad CPU list '%s'", cpus);
        free(t);
        return NULL;
    }
    if (targetproc_init(&t->sel, process, cpus ? &set : NULL, err, errlen) < 0) {
        free(t);
        return NULL;
    }
    /* none may be running yet: the target may start later, and is sampled from then on */
    return set_cpus(t, read_group(t), cpus, err, errlen);
}

int targetload_sample(struct targetload *t, uint64_t wall_us, struct store_target_load *out)
{
    char err[128];
    char *text = NULL;
    size_t len = 0;
    uint64_t busy, total, target = 0;
    long n = read_group(t);
    if (n < 0 || !(text = file_read_all("/proc/stat", 1 << 20, &len, err, sizeof err)))
        return -1;
    int rc = targetload_cpu_times(text, &t->set, &busy, &total);
    free(text);
    if (rc != 0)
        return -1;
    for (long i = 0; i < n; i++) {
        uint64_t before = 0;
        for (size_t j = 0; j < t->nprev; j++)
            if (t->prev[j].pid == t->cur[i].pid)
                before = t->prev[j].ticks;
        target += t->cur[i].ticks > before ? t->cur[i].ticks - before : 0;
    }
    int ready = t->have_prev && total > t->total;
    if (ready) {
        uint64_t cap = total - t->total, db = busy > t->busy ? busy - t->busy : 0;
        uint64_t others = db > target ? db - target : 0;
        *out = (struct store_target_load){ .t_us = wall_us, .cpus = (uint32_t)t->ncpus,
                                           .target_permille = (uint32_t)(target * 1000 / cap),
                                           .others_permille = (uint32_t)(others * 1000 / cap) };
        if (out->target_permille > 1000)
            out->target_permille = 1000;
        if (out->others_permille > 1000)
            out->others_permille = 1000;
    }
    memcpy(t->prev, t->cur, (size_t)n * sizeof t->cur[0]);
    t->nprev = (size_t)n;
    t->busy = busy;
    t->total = total;
    t->have_prev = 1;
    return ready;
}

void targetload_free(struct targetload *t)
{
    free(t);
}

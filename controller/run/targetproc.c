/* targetproc.c -- a local target's processes found in /proc (targetproc.h). */
#include "controller/run/targetproc.h"


#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PF_KTHREAD_FLAG 0x00200000u

struct proc_row { int pid, ppid; int in; };

int targetproc_init(struct targetproc_sel *s, const char *process, const cpu_set_t *cpus, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    if (cpus)
        s->cpus = *cpus;
    if (!process) {
        if (!cpus) {
            snprintf(err, errlen, "target.local: name the target's process (process: NAME or PID) or its cpus");
            return -1;
        }
        s->by_cpus = 1;
        return 0;
    }
    if (strspn(process, "0123456789") == strlen(process)) {
        long v = strtol(process, NULL, 10);
        if (v <= 0 || v > 1 << 30) {
            snprintf(err, errlen, "target.local: bad process id '%s'", process);
            return -1;
        }
        s->pid = (int)v;
        return 0;
    }
    snprintf(s->name, sizeof s->name, "%s", process);
    return 0;
}

/* The process's name matches: its comm (the kernel cuts it at 15 characters) or its argv[0]'s
 * base name. */
static int name_matches(int pid, const char *comm, const char *name)
{
    if (!strcmp(comm, name) || (strlen(name) > 15 && strlen(comm) == 15 && !strncmp(comm, name, 15)))
        return 1;
    char path[64], cmd[512];
    snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    size_t n = fread(cmd, 1, sizeof cmd - 1, f);
    fclose(f);
    cmd[n] = 0;
    const char *base = strrchr(cmd, '/');
    return n && !strcmp(base ? base + 1 : cmd, name);
}

/* pid, ppid, comm and flags from /proc/PID/stat; -1 when it is gone. */
static int read_stat(int pid, int *ppid, char *comm, size_t commlen, unsigned *flags)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *open = strchr(buf, '('), *close = strrchr(buf, ')');
    if (!open || !close || close < open)
        return -1;
    snprintf(comm, commlen, "%.*s", (int)(close - open - 1), open + 1);
    return sscanf(close + 2, "%*c %d %*d %*d %*d %*d %u", ppid, flags) == 2 ? 0 : -1;
}

static int pinned_within(int pid, const cpu_set_t *set)
{
    cpu_set_t a, both;
    if (sched_getaffinity(pid, sizeof a, &a) != 0)
        return 0;
    CPU_AND(&both, &a, set);
    return CPU_EQUAL(&both, &a) && CPU_COUNT(&a) < sysconf(_SC_NPROCESSORS_ONLN);
}

static int selected(const struct targetproc_sel *s, int pid, const char *comm, unsigned flags)
{
    if (s->pid)
        return pid == s->pid;
    if (flags & PF_KTHREAD_FLAG)
        return 0;
    return s->by_cpus ? pinned_within(pid, &s->cpus) : name_matches(pid, comm, s->name);
}

static int by_pid(const void *a, const void *b)
{
    const struct proc_row *x = a, *y = b;
    return (x->pid > y->pid) - (x->pid < y->pid);
}

size_t targetproc_list(const struct targetproc_sel *s, int *pids, size_t max)
{
    DIR *d = opendir("/proc");
    struct proc_row *rows = NULL;
    size_t n = 0, cap = 0, out = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        int pid = atoi(e->d_name), ppid;
        unsigned flags;
        char comm[64];
        if (read_stat(pid, &ppid, comm, sizeof comm, &flags) < 0)
            continue;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 1024;
            struct proc_row *p = realloc(rows, ncap * sizeof *p);
            if (!p)
                break;
            rows = p;
            cap = ncap;
        }
        rows[n++] = (struct proc_row){ pid, ppid, selected(s, pid, comm, flags) };
    }
    if (d)
        closedir(d);
    /* descendants: a child of a member is a member, until nothing changes (parents found by
     * binary search over the rows in pid order) */
    if (n)
        qsort(rows, n, sizeof *rows, by_pid);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < n; i++) {
            struct proc_row key = { .pid = rows[i].ppid };
            const struct proc_row *parent = rows[i].in ? NULL : bsearch(&key, rows, n, sizeof *rows, by_pid);
            if (parent && parent->in)
                rows[i].in = changed = 1;
        }
    }
    for (size_t i = 0; i < n && out < max; i++)
        if (rows[i].in)
            pids[out++] = rows[i].pid;
    free(rows);
    return out;
}

void targetproc_describe(int set, const char *cgroup, const char *process, const char *cpus, char *buf, size_t len)
{
    if (!set)
        snprintf(buf, len, "not sampled (no target.local)");
    else if (cgroup)
        snprintf(buf, len, "the processes of cgroup %s%s%s", cgroup, cpus ? " on CPUs " : "",
                 cpus ? cpus : "");
    else if (process)
        snprintf(buf, len, "process %s and its descendants (from /proc)%s%s", process,
                 cpus ? ", on CPUs " : "", cpus ? cpus : "");
    else if (cpus)
        snprintf(buf, len, "every process pinned within CPUs %s and its descendants (from /proc)", cpus);
    else
        snprintf(buf, len, "not sampled (target.local names neither cgroup, process nor cpus)");
}

/* targetcap.c -- a local target's CPU cap: cfs quota and CPU affinity of its group (targetcap.h). */
#include "controller/run/targetcap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "controller/run/targetload.h"

#define CGROUP_CPU "/sys/fs/cgroup/cpu"

static int write_text(const char *path, const char *text, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);   /* O_TRUNC as a shell's > */
    ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));
    int e = errno;
    if (fd >= 0)
        close(fd);
    if (n == (ssize_t)strlen(text))
        return 0;
    snprintf(err, errlen, "target.local: cannot write %s to %s: %s", text, path, strerror(e));
    return -1;
}

/* Pins every thread of process `pid`; a process or thread that ended meanwhile is no error. */
static int pin_process(int pid, const cpu_set_t *set, char *err, size_t errlen)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        int tid = atoi(e->d_name);
        if (tid > 0 && sched_setaffinity(tid, sizeof *set, set) != 0 && errno != ESRCH) {
            snprintf(err, errlen, "target.local: cannot pin process %d to its cpus: %s", pid, strerror(errno));
            rc = -1;
        }
    }
    closedir(d);
    return rc;
}

static int pin_group(const char *dir, const char *cpus, char *err, size_t errlen)
{
    cpu_set_t set;
    char path[4352];
    if (targetload_parse_cpus(cpus, &set) <= 0) {
        snprintf(err, errlen, "target.local: bad CPU list '%s'", cpus);
        return -1;
    }
    snprintf(path, sizeof path, "%s/cgroup.procs", dir);
    FILE *f = fopen(path, "re");
    if (!f) {
        snprintf(err, errlen, "target.local: cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    int pid, rc = 0;
    while (rc == 0 && fscanf(f, "%d", &pid) == 1)
        rc = pin_process(pid, &set, err, errlen);
    fclose(f);
    return rc;
}

int targetcap_apply(const char *cgroup, const char *cpus, uint32_t cpu_percent, char *err, size_t errlen)
{
    char dir[4096], path[4352], quota[32];
    snprintf(dir, sizeof dir, "%s%s", cgroup[0] == '/' ? "" : CGROUP_CPU "/", cgroup);
    if (cpu_percent) {
        snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir);
        if (write_text(path, "100000", err, errlen) < 0)
            return -1;
        snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", dir);
        snprintf(quota, sizeof quota, "%lu", (unsigned long)cpu_percent * 1000ul);
        if (write_text(path, quota, err, errlen) < 0)
            return -1;
    }
    return cpus ? pin_group(dir, cpus, err, errlen) : 0;
}

/* targetproc.h -- the processes of a target on this machine when the plan names no cgroup
 * (target.local with `process:`, or `cpus:` alone): read from /proc at every sample, so sessions
 * the target starts later (xrdp's Xorg and desktops) are counted from their first interval.
 *   process: NAME  -- every process whose name (/proc/PID/comm, or its command's base name) is
 *                     NAME, and their descendants
 *   process: PID   -- that process and its descendants
 *   cpus: alone    -- every process pinned within those CPUs (its affinity a subset of them, not
 *                     every CPU of the machine), kernel threads left out, and their descendants
 * targetproc_describe() says which in one line: `sessmax validate` prints it and the run notes it,
 * so the two agree. */
#ifndef SESSMAX_TARGETPROC_H
#define SESSMAX_TARGETPROC_H

#include <sched.h>
#include <stddef.h>

struct targetproc_sel {
    char name[256];                /* "" when by pid or by CPUs */
    int pid;                       /* 0 when by name or by CPUs */
    int by_cpus;
    cpu_set_t cpus;
};

/* Sets a selector up from a plan's process (NULL: by CPUs) and its CPUs (NULL: not given; by CPUs
 * needs them). 0, or -1 with err. */
int targetproc_init(struct targetproc_sel *s, const char *process, const cpu_set_t *cpus, char *err, size_t errlen);
/* The target's processes now into pids[max]; how many (0: none found). */
size_t targetproc_list(const struct targetproc_sel *s, int *pids, size_t max);
/* One line on what the run samples of a target.local (its set flag, cgroup, process and cpus;
 * "not sampled ..." when nothing). */
void targetproc_describe(int set, const char *cgroup, const char *process, const char *cpus, char *buf, size_t len);

#endif

/* targetcap.h -- the plan caps a target on this machine: its cgroup v1 group's cfs quota and the
 * CPUs its processes may run on (plan target.local: cpu_percent, cpus). `sessmax run` applies it
 * to the group the plan names (scripts/xrdp-target's sessmax-xrdp), `sessmax demo` to the group it
 * makes for simhost. Processes the group's members start later inherit the affinity. */
#ifndef SESSMAX_TARGETCAP_H
#define SESSMAX_TARGETCAP_H

#include <stddef.h>
#include <stdint.h>

/* `cgroup`: a group's name under /sys/fs/cgroup/cpu, or its full path. `cpus` (a CPU list, NULL:
 * leave the affinity alone): every thread of every process in the group is pinned to it.
 * `cpu_percent` (0: leave the quota alone): the group's quota in % of one CPU (period 100 ms).
 * Returns 0, or -1 with a one-line reason in err. */
int targetcap_apply(const char *cgroup, const char *cpus, uint32_t cpu_percent, char *err, size_t errlen);

#endif

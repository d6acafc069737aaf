/* targetload.h -- how busy a target on this machine was, and whether it had its CPUs to itself.
 *
 * A plan's `target.local` names the cgroup v1 group (under /sys/fs/cgroup/cpu) that holds the
 * target's processes (`sessmax demo` makes one for simhost; scripts/xrdp-target --cpus makes
 * sessmax-xrdp) and, optionally, the CPUs it runs on; without a cgroup, its processes by name, pid or
 * CPUs (targetproc.h). Every sample reads the group's processes'
 * CPU time (/proc/PID/stat) and the busy time of those CPUs (/proc/stat): the target's share and
 * that of every other process on them, in per mille of the CPUs' capacity. Loop thread only. */
#ifndef SESSMAX_TARGETLOAD_H
#define SESSMAX_TARGETLOAD_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "db/store.h"

struct targetload;

/* Parses a CPU list ("1", "0-2,5") into *set. Returns how many CPUs, or -1 when malformed. */
int targetload_parse_cpus(const char *list, cpu_set_t *set);

/* Sums the busy and the total jiffies of the CPUs in `set` from /proc/stat text. Busy is user,
 * nice, system, irq, softirq and steal; total adds idle and iowait. Returns 0, -1 when none found. */
int targetload_cpu_times(const char *proc_stat, const cpu_set_t *set, uint64_t *busy, uint64_t *total);

/* Starts watching: `cgroup` is the group's name (or path) in the cgroup v1 cpu hierarchy; `cpus`
 * a CPU list, NULL for the CPUs the group's first process may run on. NULL with err when the group
 * cannot be read. Free with targetload_free() (accepts NULL). */
struct targetload *targetload_new(const char *cgroup, const char *cpus, char *err, size_t errlen);

/* The same without a cgroup: the processes targetproc.h finds for `process` (a name or a pid;
 * NULL: those pinned within `cpus`), read from /proc at every sample. NULL with err on a bad
 * selector. */
struct targetload *targetload_new_procs(const char *process, const char *cpus, char *err, size_t errlen);

/* Takes a sample; fills *out with the load since the previous one. Returns 1 with a sample, 0 on
 * the first call (nothing to compare yet) or when no time passed, -1 when /proc cannot be read. */
int targetload_sample(struct targetload *t, uint64_t wall_us, struct store_target_load *out);

void targetload_free(struct targetload *t);

#endif

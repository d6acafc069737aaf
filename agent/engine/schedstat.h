/* schedstat.h -- how long the agent's threads waited for a CPU: the kernel's per-thread
 * scheduler statistics (/proc/self/task/TID/schedstat: time on a CPU, time runnable but waiting
 * for one -- the run delay --, and timeslices run, in that order, nanoseconds). The health record
 * carries the loop thread's CPU and run delay and the whole process's run delay over each
 * interval, so the verdict can tell an agent whose CPU other processes took from one whose own
 * work was too much for its core (docs/scoring.md), and the time the CFS quota of its cgroup
 * held it back (its own work above the CPU it is allowed). /proc and /sys are trusted input. */
#ifndef SESSMAX_SCHEDSTAT_H
#define SESSMAX_SCHEDSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/results.h"

struct schedstat {
    uint64_t cpu_ns;      /* time on a CPU */
    uint64_t delay_ns;    /* time runnable, waiting for a CPU */
    uint64_t slices;      /* timeslices run (each wakeup is one at least) */
};

/* Parses the text of one schedstat file ("123 456 7\n"). 0, or -1 (out zeroed) when it does not
 * start with three decimal numbers. Pure. */
int schedstat_parse(const char *text, struct schedstat *out);

/* Reads /proc/self/task/TID/schedstat. 0, or -1 (out zeroed) when unreadable (no schedstats). */
int schedstat_thread(pid_t tid, struct schedstat *out);
/* The sums over every thread of the process now (threads that ended are not counted: their
 * time simply leaves the totals, which the deltas below treat as no time). 0, or -1. */
int schedstat_process(struct schedstat *out);

/* From the text of /proc/self/cgroup: the path of the process's group in the CPU controller's
 * hierarchy (cgroup v1 line "N:...cpu...:PATH", else the v2 line "0::PATH"), *v2 set to say
 * which. 0, or -1 when there is neither. Pure. */
int schedstat_cgroup_path(const char *text, char *out, size_t len, int *v2);
/* From the text of a group's cpu.stat: the time its CFS quota held it back, ns (v1
 * "throttled_time NS", v2 "throttled_usec US"). 0, or -1 when there is no such line. Pure. */
int schedstat_throttled_parse(const char *text, uint64_t *ns);
/* The agent's group's throttled time now (ns, summed over CPUs); 0 when it has no quota, or no
 * cpu.stat can be read. */
uint64_t schedstat_throttled_ns(void);

/* The interval figures of the health record, from the loop thread's and the process's readings
 * at the interval's start (a) and end (b), interval_us long: loop_cpu_permille,
 * loop_delay_permille, delay_permille (1000 = one CPU's worth), loop_wakeups; has_sched = 1.
 * A total that went back (a thread ended) counts as 0. Pure. */
void schedstat_interval(const struct schedstat *loop_a, const struct schedstat *loop_b,
                        const struct schedstat *proc_a, const struct schedstat *proc_b,
                        uint64_t interval_us, struct rec_health *h);
/* throttled_permille over the interval from the throttled times at its start and end. Pure. */
void schedstat_throttled_interval(uint64_t a_ns, uint64_t b_ns, uint64_t interval_us, struct rec_health *h);

#endif

/* bench_proc.h -- a process's figures from /proc: a field of its status in KiB (VmRSS, VmHWM),
 * how many entries it has under a folder (task: threads, fd: open files), its CPU time. */
#ifndef BENCH_PROC_H
#define BENCH_PROC_H

#include <sys/types.h>

/* The value of a "Field:" line of /proc/PID/status (field given with its colon, "VmRSS:"), or -1. */
long bench_proc_kb(pid_t pid, const char *field);
/* How many entries /proc/PID/DIR holds ("task", "fd"), or -1. */
int bench_proc_count(pid_t pid, const char *dir);
/* User plus system CPU seconds the process used so far, or -1. */
double bench_proc_cpu_s(pid_t pid);

#endif

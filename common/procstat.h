/* procstat.h -- a process's figures from /proc: a field of its status in KiB (VmRSS, VmHWM),
 * how many entries it has under a folder (task: threads, fd: open files), its CPU time. */
#ifndef PROCSTAT_H
#define PROCSTAT_H

#include <sys/types.h>

/* The value of a "Field:" line of /proc/PID/status (field given with its colon, "VmRSS:"), or -1. */
long procstat_kb(pid_t pid, const char *field);
/* How many entries /proc/PID/DIR holds ("task", "fd"), or -1. */
int procstat_count(pid_t pid, const char *dir);
/* User plus system CPU seconds the process used so far, or -1. */
double procstat_cpu_s(pid_t pid);

#endif

/* loopwatch.h -- names what stalls the agent's loop. The loop's calls into FreeRDP and the
 * workload are bracketed (begin/end); one that took longer than LOOPWATCH_REPORT_US is logged with
 * what it was, for which session, and how its time split: on the CPU, asleep in WinPR's Sleep(),
 * and the rest off the CPU (blocked on a lock or preempted, with the thread's voluntary and
 * involuntary context switches). A late loop-lag tick that no bracketed call explains is logged
 * the same way from the thread's usage since the previous tick. Loop thread only. */
#ifndef SESSMAX_LOOPWATCH_H
#define SESSMAX_LOOPWATCH_H

#include <stdint.h>

#define LOOPWATCH_REPORT_US 20000u

struct loopwatch_mark {
    uint64_t t_us, cpu_us, slept_us;
    long nvcsw, nivcsw;
};

/* The thread's clock (CLOCK_MONOTONIC: a stall line says when it began), CPU time and context
 * switches now. */
void loopwatch_begin(struct loopwatch_mark *m);
/* Logs the call when it took longer than LOOPWATCH_REPORT_US; returns its duration (µs).
 * session is UINT32_MAX for calls that are not one session's. */
uint64_t loopwatch_end(const struct loopwatch_mark *m, const char *what, uint32_t session);

/* Time the loop thread spent in WinPR's Sleep() (counted into the call being watched). */
void loopwatch_slept(uint64_t us);

/* From the loop-lag probe: its tick came late_us late. Logs the late tick when no bracketed call
 * longer than LOOPWATCH_REPORT_US ended since the previous tick. */
void loopwatch_tick(uint32_t late_us);

/* WinPR Sleep() calls on the loop thread and the time they took, since start. */
void loopwatch_sleeps(uint32_t *n, uint64_t *us);

/* Calls logged as stalls and unexplained late ticks since start (for the run's summary). */
void loopwatch_counts(uint32_t *calls, uint32_t *ticks);

#endif

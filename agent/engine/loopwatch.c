/* loopwatch.c -- names what stalls the agent's loop (see loopwatch.h). A bracket costs one
 * clock read (vDSO, no system call) and one getrusage: its user + system time is the thread's
 * CPU clock (the kernel splits the exact runtime between them), so one system call gives both
 * the CPU time and the context switches. */
#include "agent/engine/loopwatch.h"

#include <stdio.h>
#include <sys/resource.h>

#include "common/clock.h"
#include "common/log.h"

static _Thread_local uint64_t slept_total_us;
static _Thread_local uint64_t last_report_us;   /* when a bracketed stall was last logged */
static _Thread_local struct loopwatch_mark last_tick;
static uint32_t ncalls, nticks, nsleeps;
static uint64_t sleeps_us;

static void sample(struct loopwatch_mark *m)
{
    struct rusage ru;
    m->t_us = clock_now_us();
    m->cpu_us = 0;
    m->nvcsw = m->nivcsw = 0;
    if (getrusage(RUSAGE_THREAD, &ru) == 0) {
        m->cpu_us = (uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec +
                    (uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec;
        m->nvcsw = ru.ru_nvcsw;
        m->nivcsw = ru.ru_nivcsw;
    }
    m->slept_us = slept_total_us;
}

void loopwatch_begin(struct loopwatch_mark *m)
{
    sample(m);
}

/* One line: wall, CPU, Sleep(), the rest off the CPU, and the switches behind it. */
static void report(const char *what, uint32_t session, const struct loopwatch_mark *a,
                   const struct loopwatch_mark *b)
{
    uint64_t wall = b->t_us - a->t_us, cpu = b->cpu_us - a->cpu_us, slept = b->slept_us - a->slept_us;
    uint64_t off = wall > cpu + slept ? wall - cpu - slept : 0;
    char who[32] = "";
    if (session != UINT32_MAX)
        snprintf(who, sizeof who, " (session %u)", session);
    log_ratelimited(LOG_WARN, "loop-stall", "loop stall at %.3f s: %s%s took %.1f ms: on the CPU %.1f ms, "
                    "in Sleep() %.1f ms, otherwise off the CPU %.1f ms (%ld waits, %ld preemptions)",
                    a->t_us / 1e6, what, who, wall / 1000.0, cpu / 1000.0, slept / 1000.0, off / 1000.0,
                    b->nvcsw - a->nvcsw, b->nivcsw - a->nivcsw);
}

uint64_t loopwatch_end(const struct loopwatch_mark *m, const char *what, uint32_t session)
{
    uint64_t now = clock_now_us(), took = now - m->t_us;
    if (took <= LOOPWATCH_REPORT_US)
        return took;
    struct loopwatch_mark e;
    sample(&e);
    report(what, session, m, &e);
    last_report_us = e.t_us;
    __atomic_add_fetch(&ncalls, 1, __ATOMIC_RELAXED);
    return took;
}

void loopwatch_slept(uint64_t us)
{
    slept_total_us += us;
    __atomic_add_fetch(&nsleeps, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&sleeps_us, us, __ATOMIC_RELAXED);
}

void loopwatch_tick(uint32_t late_us)
{
    struct loopwatch_mark now;
    sample(&now);
    if (late_us > LOOPWATCH_REPORT_US && last_tick.t_us && last_report_us <= last_tick.t_us) {
        report("between two loop-lag ticks, in no watched call", UINT32_MAX, &last_tick, &now);
        __atomic_add_fetch(&nticks, 1, __ATOMIC_RELAXED);
    }
    last_tick = now;
}

void loopwatch_sleeps(uint32_t *n, uint64_t *us)
{
    *n = __atomic_load_n(&nsleeps, __ATOMIC_RELAXED);
    *us = __atomic_load_n(&sleeps_us, __ATOMIC_RELAXED);
}

void loopwatch_counts(uint32_t *calls, uint32_t *ticks)
{
    *calls = __atomic_load_n(&ncalls, __ATOMIC_RELAXED);
    *ticks = __atomic_load_n(&nticks, __ATOMIC_RELAXED);
}

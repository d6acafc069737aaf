/* test_schedstat.c -- the agent's scheduler figures (agent/engine/schedstat.h): /proc/.../schedstat
 * and cpu.stat text, the cgroup path from /proc/self/cgroup, the interval figures of a health
 * record, and this process's own threads read for real. */
#include "unit.h"

#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "agent/engine/schedstat.h"

/* Three numbers, as the kernel writes them; anything else is refused and zeroed. */
static void test_schedstat__parse(void)
{
    struct schedstat s;
    CU_ASSERT_EQUAL(schedstat_parse("123456789 42000 17\n", &s), 0);
    CU_ASSERT_EQUAL(s.cpu_ns, 123456789);
    CU_ASSERT_EQUAL(s.delay_ns, 42000);
    CU_ASSERT_EQUAL(s.slices, 17);
    CU_ASSERT_EQUAL(schedstat_parse("18446744073709551615 0 0", &s), 0);      /* UINT64_MAX */
    CU_ASSERT_EQUAL(s.cpu_ns, UINT64_MAX);
    static const char *const bad[] = { "", "12 34", "a 1 2", "-1 2 3", "18446744073709551616 0 0", " 1 2 3", NULL };
    for (size_t i = 0; bad[i]; i++) {
        s.cpu_ns = 9;
        CU_ASSERT_EQUAL(schedstat_parse(bad[i], &s), -1);
        CU_ASSERT_EQUAL(s.cpu_ns, 0);
    }
    CU_ASSERT_EQUAL(schedstat_parse(NULL, &s), -1);
}

/* Per mille of the interval (ns / µs); totals that went back (a thread ended) count as 0. */
static void test_schedstat__interval(void)
{
    struct schedstat la = { 1000000000, 5000000, 100 }, lb = { 1500000000, 105000000, 300 };
    struct schedstat pa = { 0, 10000000, 0 }, pb = { 0, 5000000, 0 };          /* went back */
    struct rec_health h = { 0 };
    schedstat_interval(&la, &lb, &pa, &pb, 2000000, &h);
    CU_ASSERT_EQUAL(h.has_sched, 1);
    CU_ASSERT_EQUAL(h.loop_cpu_permille, 250);     /* 0.5 s of 2 s */
    CU_ASSERT_EQUAL(h.loop_delay_permille, 50);    /* 0.1 s of 2 s */
    CU_ASSERT_EQUAL(h.delay_permille, 0);
    CU_ASSERT_EQUAL(h.loop_wakeups, 200);
    schedstat_throttled_interval(0, 1500000000, 1000000, &h);                  /* 1.5 s in 1 s: 2 CPUs */
    CU_ASSERT_EQUAL(h.throttled_permille, 1500);
    schedstat_interval(&la, &lb, &pa, &pb, 0, &h);
    CU_ASSERT_EQUAL(h.loop_cpu_permille, 0);
}

/* The CPU controller's v1 line wins over the v2 line; "cpuacct" alone is not "cpu". */
static void test_schedstat__cgroup_path(void)
{
    char p[64];
    int v2 = -1;
    CU_ASSERT_EQUAL(schedstat_cgroup_path("12:pids:/\n3:cpuacct:/x\n1:cpu:/sessmax-gate-9\n0::/\n", p, sizeof p, &v2), 0);
    CU_ASSERT_STRING_EQUAL(p, "/sessmax-gate-9");
    CU_ASSERT_EQUAL(v2, 0);
    CU_ASSERT_EQUAL(schedstat_cgroup_path("4:cpu,cpuacct:/a/b\n", p, sizeof p, &v2), 0);
    CU_ASSERT_STRING_EQUAL(p, "/a/b");
    CU_ASSERT_EQUAL(schedstat_cgroup_path("2:cpuacct:/x\n0::/user.slice/s.scope\n", p, sizeof p, &v2), 0);
    CU_ASSERT_STRING_EQUAL(p, "/user.slice/s.scope");
    CU_ASSERT_EQUAL(v2, 1);
    CU_ASSERT_EQUAL(schedstat_cgroup_path("2:cpuacct:/x\n", p, sizeof p, &v2), -1);
    CU_ASSERT_EQUAL(schedstat_cgroup_path("", p, sizeof p, &v2), -1);
    CU_ASSERT_EQUAL(schedstat_cgroup_path("1:cpu:/far-too-long-for-the-buffer-given-here-by-a-lot-of-bytes\n", p, 8,
                                          &v2), -1);
}

/* v1 counts ns, v2 µs; a cpu.stat without the line is refused. */
static void test_schedstat__throttled(void)
{
    uint64_t ns = 0;
    CU_ASSERT_EQUAL(schedstat_throttled_parse("nr_periods 10\nnr_throttled 4\nthrottled_time 2500000\n", &ns), 0);
    CU_ASSERT_EQUAL(ns, 2500000);
    CU_ASSERT_EQUAL(schedstat_throttled_parse("usage_usec 9\nnr_throttled 1\nthrottled_usec 7\n", &ns), 0);
    CU_ASSERT_EQUAL(ns, 7000);
    CU_ASSERT_EQUAL(schedstat_throttled_parse("nr_periods 10\n", &ns), -1);
    CU_ASSERT_EQUAL(schedstat_throttled_parse("throttled_time x\n", &ns), -1);
}

/* This thread and this process read for real (where the kernel keeps schedstats): CPU time only
 * grows, and the process's sum is at least the thread's. */
static void test_schedstat__self(void)
{
    struct schedstat a, b, all;
    pid_t tid = (pid_t)syscall(SYS_gettid);
    if (schedstat_thread(tid, &a) != 0)
        return;                                     /* a kernel without schedstats */
    for (volatile unsigned i = 0; i < 3000000; i++)
        ;
    CU_ASSERT_EQUAL_FATAL(schedstat_thread(tid, &b), 0);
    CU_ASSERT(b.cpu_ns >= a.cpu_ns);
    CU_ASSERT(b.slices >= a.slices);
    CU_ASSERT_EQUAL(schedstat_process(&all), 0);
    CU_ASSERT(all.cpu_ns >= b.cpu_ns);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_schedstat__parse),
        UNIT_TEST(test_schedstat__interval),
        UNIT_TEST(test_schedstat__cgroup_path),
        UNIT_TEST(test_schedstat__throttled),
        UNIT_TEST(test_schedstat__self),
        UNIT_END,
    };
    return unit_run("schedstat", tests, NULL, NULL);
}

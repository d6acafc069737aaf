/* test_x11_capacity.c -- the sessions an agent can carry from measured costs and its room, and the
 * parsers of /proc/meminfo, /proc/self/cgroup and cgroup cpu.max texts. */
#include "unit.h"

#include "agent/x11/capacity.h"

#include <string.h>

/* Memory bound: 8 GiB room x 90 % / 30 MiB a session = 245; CPU bound: 2 cores x 75 % / 2.6 %
 * of a core = 57; the smaller wins. */
static void test_x11_capacity__derive(void)
{
    struct x11_capacity_room room = { .mem_kb = 8u << 20, .cpu_permille = 2000 };
    struct x11_capacity_cost mem_only = { .mem_kb = 30 << 10 };
    CU_ASSERT_EQUAL(x11_capacity_derive(&mem_only, &room), 245);
    struct x11_capacity_cost both = { .mem_kb = 30 << 10, .cpu_permille = 26 };
    CU_ASSERT_EQUAL(x11_capacity_derive(&both, &room), 57);
    struct x11_capacity_cost cpu_only = { .cpu_permille = 26 };
    CU_ASSERT_EQUAL(x11_capacity_derive(&cpu_only, &room), 57);
    room.mem_kb = 1u << 20;                                  /* 1 GiB: memory now binds, 30 */
    CU_ASSERT_EQUAL(x11_capacity_derive(&both, &room), 30);
}

/* Nothing known: 0 (the declared capacity stands); no room for even one: 1, never 0. */
static void test_x11_capacity__edges(void)
{
    struct x11_capacity_room room = { .mem_kb = 1 << 20, .cpu_permille = 1000 };
    struct x11_capacity_cost none = { 0 };
    CU_ASSERT_EQUAL(x11_capacity_derive(&none, &room), 0);
    struct x11_capacity_cost huge = { .mem_kb = 4u << 20, .cpu_permille = 5000 };
    CU_ASSERT_EQUAL(x11_capacity_derive(&huge, &room), 1);
    struct x11_capacity_room empty = { 0 };
    CU_ASSERT_EQUAL(x11_capacity_derive(&huge, &empty), 1);
}

static void test_x11_capacity__meminfo(void)
{
    uint64_t kb = 0;
    CU_ASSERT_EQUAL(x11_capacity_meminfo("MemTotal:       32768000 kB\nMemFree:  1000 kB\n"
                                         "MemAvailable:   23157096 kB\nBuffers: 1 kB\n", &kb), 0);
    CU_ASSERT_EQUAL(kb, 23157096);
    CU_ASSERT_EQUAL(x11_capacity_meminfo("MemTotal: 1 kB\n", &kb), -1);
}

static void test_x11_capacity__cpu_max(void)
{
    uint32_t pm = 0;
    CU_ASSERT_EQUAL(x11_capacity_cpu_max("150000 100000\n", &pm), 1);
    CU_ASSERT_EQUAL(pm, 1500);
    CU_ASSERT_EQUAL(x11_capacity_cpu_max("max 100000\n", &pm), 0);
    CU_ASSERT_EQUAL(x11_capacity_cpu_max("50000 0\n", &pm), -1);
    CU_ASSERT_EQUAL(x11_capacity_cpu_max("junk", &pm), -1);
}

/* v2's "0::PATH" line and v1 lines naming a controller among several. */
static void test_x11_capacity__cgroup_path(void)
{
    static const char v1[] = "9:name=systemd:/\n4:memory:/process_api/8bac\n2:cpu,cpuacct:/slice/a\n"
                             "0::/\n";
    char out[64];
    CU_ASSERT_EQUAL(x11_capacity_cgroup_path(v1, "memory", out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "/process_api/8bac");
    CU_ASSERT_EQUAL(x11_capacity_cgroup_path(v1, "cpu", out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "/slice/a");
    CU_ASSERT_EQUAL(x11_capacity_cgroup_path(v1, "cpuacct", out, sizeof out), 0);
    CU_ASSERT_EQUAL(x11_capacity_cgroup_path(v1, "", out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "/");
    CU_ASSERT_EQUAL(x11_capacity_cgroup_path("0::/user.slice/x.scope\n", "", out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "/user.slice/x.scope");
    CU_ASSERT_EQUAL(x11_capacity_cgroup_path("4:memory:/m\n", "", out, sizeof out), -1);
    CU_ASSERT_EQUAL(x11_capacity_cgroup_path("0::/p\n", "memory", out, sizeof out), -1);
    CU_ASSERT_EQUAL(x11_capacity_cgroup_path("4:memory:/a-path-longer-than-8\n", "memory", out, 8), -1);
}

/* This machine's room: some memory and at least one CPU. */
static void test_x11_capacity__room_read(void)
{
    struct x11_capacity_room r = { 0 };
    CU_ASSERT_EQUAL(x11_capacity_room_read(1000, &r), 0);
    CU_ASSERT(r.mem_kb > 1000);
    CU_ASSERT(r.cpu_permille >= 1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_x11_capacity__derive),
        UNIT_TEST(test_x11_capacity__edges),
        UNIT_TEST(test_x11_capacity__meminfo),
        UNIT_TEST(test_x11_capacity__cpu_max),
        UNIT_TEST(test_x11_capacity__cgroup_path),
        UNIT_TEST(test_x11_capacity__room_read),
        UNIT_END,
    };
    return unit_run("x11_capacity", tests, NULL, NULL);
}

/* capacity.h -- how many external-client sessions this agent can carry: what one session
 * costs (its client and X server, measured, plus the agent's own share) against the memory and
 * the CPUs the agent may use (MemAvailable and its cgroups' memory limits; its CPU affinity and
 * its cgroups' CPU quotas, cgroup v2 or v1). The agent announces the result to the controller in its health
 * records (docs/protocol.md, health_cap), which then places no more sessions on it.
 *
 * x11_capacity_derive and the parsers are pure; x11_capacity_room_read reads /proc and
 * /sys/fs/cgroup and so runs on a connector worker, never on the loop. */
#ifndef SESSMAX_X11_CAPACITY_H
#define SESSMAX_X11_CAPACITY_H

#include <stddef.h>
#include <stdint.h>

/* Shares of the room the sessions may fill: the rest is left to the agent, the page cache, and
 * (CPU) to keep the agent from being the bottleneck that a load test would then measure. */
#define X11_CAPACITY_MEM_PCT 90
#define X11_CAPACITY_CPU_PCT 75

/* What one session costs. 0: not known (that resource then does not limit). */
struct x11_capacity_cost {
    uint64_t mem_kb;            /* client + X server PSS, plus the agent's own memory per session */
    uint32_t cpu_permille;      /* client + X server + the agent's share, 1000 = one core */
};

/* What the sessions may use in all. */
struct x11_capacity_room {
    uint64_t mem_kb;            /* what the measured sessions hold now plus what is still free */
    uint32_t cpu_permille;      /* the CPUs the agent may use, 1000 = one */
};

/* Sessions that fit: the smaller of mem_kb x MEM_PCT / cost and cpu x CPU_PCT / cost over the
 * resources whose cost is known, at least 1; 0 when neither cost is known. */
uint32_t x11_capacity_derive(const struct x11_capacity_cost *c, const struct x11_capacity_room *r);

/* MemAvailable of a /proc/meminfo text, in KiB; -1 when absent. */
int x11_capacity_meminfo(const char *text, uint64_t *avail_kb);
/* cgroup v2 cpu.max text ("max 100000" or "QUOTA PERIOD"): 1 and *permille (quota / period x
 * 1000), 0 for "max", -1 on bad text. */
int x11_capacity_cpu_max(const char *text, uint32_t *permille);
/* The path of /proc/self/cgroup's text for a cgroup v1 controller ("4:memory:/PATH",
 * "2:cpu,cpuacct:/PATH"), or for v2 with controller "" ("0::/PATH"), into out; -1 when none. */
int x11_capacity_cgroup_path(const char *text, const char *controller, char *out, size_t outlen);

/* The room of this agent, given what the measured sessions hold now (sessions_kb): free memory
 * is the smaller of MemAvailable and the cgroup's limit minus its use; CPUs the smaller of the
 * affinity mask and the cgroup's quota. Any thread but the loop. 0, or -1 when /proc/meminfo
 * cannot be read. */
int x11_capacity_room_read(uint64_t sessions_kb, struct x11_capacity_room *out);

#endif

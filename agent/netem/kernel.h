/* kernel.h -- the kernel's sch_netem as the link emulator, where the kernel has it: a veth
 * pair between the host and the agent's namespace with a netem qdisc on each end (host end:
 * server -> client, namespace end: client -> server), instead of the TUN pair and the shaper
 * thread. Detection adds a netem qdisc in a throwaway namespace. SESSMAX_NETEM=builtin|kernel
 * forces one mechanism (default auto: kernel when the probe succeeds). */
#ifndef SESSMAX_NETEM_KERNEL_H
#define SESSMAX_NETEM_KERNEL_H

#include <stddef.h>

#include "common/netprofile.h"

/* 1 when sch_netem is to be used, 0 for the built-in emulator, -1 with err when SESSMAX_NETEM
 * asks for the kernel's and it is not there (or the variable is not one of its values). The
 * probe runs once per process; why (if not NULL) says what it found. */
int netem_kernel_wanted(char *why, size_t whylen, char *err, size_t errlen);

/* The qdisc parameters (after "netem") for one direction, down = server -> client: delay RTT/2
 * with jitter, loss, rate and limit, as words separated by single spaces. */
void netem_kernel_params(const struct netprofile *p, int down, char *buf, size_t len);

/* Creates veth host_dev <-> ns_dev with ns_dev moved into namespace ns and netem on both ends.
 * 0, or -1 with err (the caller removes the namespace, which takes the pair with it). */
int netem_kernel_link(const struct netprofile *p, const char *ns, const char *host_dev, const char *ns_dev,
                      char *err, size_t errlen);

#endif

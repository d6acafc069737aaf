/* netem.h -- the agent's link emulator: puts the agent's RDP connections behind an emulated link
 * shaped to a network profile, in both directions, leaving the controller link alone.
 *
 * Mechanism (docs/network.md): a network namespace smx-<pid> holding a TUN device with the default
 * route, a second TUN device smxr-<pid> on the host, and a shaper thread forwarding real IP packets
 * between them (shaper.h); or, where the kernel has sch_netem, a veth pair smxr-<pid> /
 * smxn0 with netem on both ends (kernel.h). Connect threads enter the namespace (netem_enter) before
 * freerdp_connect(); the socket stays there. A loopback target is reached through a stand-in
 * address DNATed to it on smxr-<pid> (route_localnet); other IPv4 targets through forwarding and
 * masquerade. Everything is named after the agent's pid, so leftovers of a killed agent are found
 * and removed by the next one (netem_sweep). Needs CAP_NET_ADMIN, /dev/net/tun, ip and iptables. */
#ifndef SESSMAX_NETEM_H
#define SESSMAX_NETEM_H

#include <stddef.h>

#include "common/netprofile.h"
#include "agent/netem/shaper.h"

struct netem;

/* 0 if this process can emulate a shaped profile here, else -1 with err saying what is needed. */
int netem_check(char *err, size_t errlen);

/* Removes namespaces, iptables rules and state files left by sessmax agents that no longer run. */
void netem_sweep(void);

/* Builds the emulated link for sessions to target_host (a name or address, resolved here, IPv4).
 * On success *out is the emulator and connect_host (len >= 64) the address sessions must connect
 * to from inside the namespace. 0, or -1 with err (nothing left behind). Call from the thread that
 * will call netem_close (it briefly enters the namespace to create the device there). */
int netem_open(const struct netprofile *p, const char *target_host, struct netem **out, char *connect_host,
               size_t len, char *err, size_t errlen);

/* Moves the calling thread into the emulator's namespace (sockets it creates then use the shaped
 * link). 0, or -1 (logged). NULL: no-op. */
int netem_enter(const struct netem *n);

/* The emulator's network namespace (an fd a child process may setns() into before exec, so that
 * an external client's connection takes the emulated link); -1 for NULL. */
int netem_ns_fd(const struct netem *n);

/* Counters of the shaper. */
void netem_stats(struct netem *n, struct netem_stats *out);

/* Applies profile p to an engine configuration: the connection type always; for a shaped profile
 * also the emulator (netem_open for cfg->host; cfg->host then points into host_buf, len >= 64,
 * and cfg->netem to *out, which must outlive the engine). *out stays NULL for an unshaped
 * profile. 0, or -1 with err. */
struct engine_config;
int netem_apply(const struct netprofile *p, struct engine_config *cfg, struct netem **out, char *host_buf,
                size_t len, char *err, size_t errlen);

/* Stops the shaper and removes everything netem_open created. Accepts NULL. */
void netem_close(struct netem *n);

#endif

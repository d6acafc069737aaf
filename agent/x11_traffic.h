/* x11_traffic.h -- an external client's network traffic, measured from outside it: the TCP
 * sockets it holds are found through /proc/PID/fd, each borrowed for a moment through the
 * process's pidfd (pidfd_getfd: a duplicate in the agent, closed at once) and read with TCP_INFO
 * (netstats_tcp). The client is not touched, and the network namespace it runs in (the link
 * emulator's) does not matter: the socket itself is read, not looked up by address.
 *
 * Borrowing needs ptrace access to the client (PTRACE_MODE_ATTACH_REALCREDS): the agent's own
 * children have it unless ptrace is restricted beyond Yama's default (scope 1). Loop thread. */
#ifndef SESSMAX_X11_TRAFFIC_H
#define SESSMAX_X11_TRAFFIC_H

#include <sys/types.h>

#include "common/results.h"

/* Adds the TCP counters of every TCP socket of process pid (pidfd: its pidfd) into t: wire_in,
 * wire_out and the segment counters summed, rtt_us of the socket that received most. The number
 * of TCP sockets read (0: none open now), or -1 when the process's fds cannot be listed or
 * borrowed (gone, or no permission). */
int x11_traffic_sample(pid_t pid, int pidfd, struct rec_traffic *t);

#endif

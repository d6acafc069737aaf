/* traffic.h -- an external client's network traffic, measured from outside it: the TCP
 * sockets it holds are found once through /proc/PID/fd and borrowed through the process's pidfd
 * (pidfd_getfd: a duplicate kept in the agent), then read each interval with TCP_INFO
 * (netstats_tcp) and nothing else on /proc. The client is not touched, and the network namespace
 * it runs in (the link emulator's) does not matter: the socket itself is read, not looked up by
 * address.
 *
 * A duplicate keeps the socket open: if the client closed its descriptor, ours would hold the
 * connection up. So each read first asks the kernel (kcmp KCMP_FILE, a syscall, no /proc) whether
 * the client still holds the same socket at the same descriptor number; if not, or if TCP_INFO
 * stops answering, every duplicate is closed and the sockets are found again. Sockets the client
 * opens later are found at that next search (or when none was found yet: the search is retried
 * at each read until one is).
 *
 * Borrowing needs ptrace access to the client (PTRACE_MODE_ATTACH_REALCREDS): the agent's own
 * children have it unless ptrace is restricted beyond Yama's default (scope 1). Loop thread. */
#ifndef SESSMAX_X11_TRAFFIC_H
#define SESSMAX_X11_TRAFFIC_H

#include <sys/types.h>

#include "common/results.h"

#define X11_TRAFFIC_MAX_SOCKETS 8

/* The sockets of one client held by the agent. Zero it with x11_traffic_init. */
struct x11_traffic {
    size_t n;
    int mine[X11_TRAFFIC_MAX_SOCKETS];     /* our duplicates */
    int theirs[X11_TRAFFIC_MAX_SOCKETS];   /* the client's descriptor numbers for them */
    unsigned searches;                     /* /proc/PID/fd listings so far (for tests, logs) */
};

void x11_traffic_init(struct x11_traffic *t);

/* Adds the TCP counters of the client's TCP sockets (process pid, pidfd its pidfd) into out:
 * wire_in, wire_out and the segment counters summed, rtt_us of the socket that received most.
 * Searches /proc/PID/fd only when no socket is held or one held no longer answers. The number of
 * TCP sockets read (0: none open now), or -1 when the process's fds cannot be listed or borrowed
 * (gone, or no permission). */
int x11_traffic_read(struct x11_traffic *t, pid_t pid, int pidfd, struct rec_traffic *out);

/* Closes the duplicates (at once when the client exits: they must not hold its connection). */
void x11_traffic_close(struct x11_traffic *t);

#endif

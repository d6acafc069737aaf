/* sys.h -- the system calls around the link emulator that are not packet forwarding:
 * running ip/iptables (argv, never a shell), writing sysctls, TUN devices, whether a pid is alive. */
#ifndef SESSMAX_NETEM_SYS_H
#define SESSMAX_NETEM_SYS_H

#include <stddef.h>

/* Runs argv[0] (looked up in PATH) with argv, stdin from /dev/null. When out is not NULL, its
 * stdout (up to outlen - 1 bytes, NUL-terminated) is captured; stderr goes to err (one line,
 * trimmed) when the command fails. Returns the exit status (0 = success), or -1 if it could not
 * run. */
int netem_sys_run(const char *const argv[], char *out, size_t outlen, char *err, size_t errlen);

/* Writes value to /proc/sys/<path>; 0 or -1. Reads into buf (trimmed); 0 or -1. */
int netem_sys_write(const char *path, const char *value);
int netem_sys_read(const char *path, char *buf, size_t len);

/* Creates TUN device `name` (IFF_TUN | IFF_NO_PI) in the calling thread's network namespace and
 * returns its non-blocking, close-on-exec fd, or -1 with err. */
int netem_sys_tun(const char *name, char *err, size_t errlen);

/* 1 if a process with this pid exists. */
int netem_sys_pid_alive(long pid);

#endif

/* nodump.h -- no core dump of a process that holds secrets (tokens, passwords, TLS keys): a
 * crash or a `gcore` would otherwise write them to disk, readable wherever cores are collected.
 * SESSMAX_CORE_DUMPS=1 in the environment keeps them (for debugging a crash). */
#ifndef SESSMAX_NODUMP_H
#define SESSMAX_NODUMP_H

#define NODUMP_ENV "SESSMAX_CORE_DUMPS"

/* Unless NODUMP_ENV is "1": the core size limit 0 (soft and hard) and the process not dumpable
 * (PR_SET_DUMPABLE 0: no core, and other processes of the same user cannot ptrace it or read its
 * memory). Returns 1 when dumps were turned off, 0 when asked to keep them, -1 on failure. */
int nodump_apply(void);

#endif

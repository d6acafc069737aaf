/* agentspawn.h -- local agent processes: `sessmax-agent connect ADDR --token-fd N ...` children,
 * optionally pinned to a CPU list, and their reaping.
 *
 * The token reaches each child through a pipe it inherits (the read end as fd N; the controller
 * writes the token and closes its end), never argv or the environment; the child's environment
 * also loses SESSMAX_TOKEN, SESSMAX_PASSWORD and the plan's password variable. */
#ifndef SESSMAX_AGENTSPAWN_H
#define SESSMAX_AGENTSPAWN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct agentspawn_opts {
    const char *bin;              /* NULL: sessmax-agent next to this executable */
    const char *address;          /* the listener: "127.0.0.1:40123" */
    const char *token;
    const char *tls_pin;          /* "sha256:..." or NULL for plain TCP */
    const char *cpus;             /* pinning list or NULL */
    const char *log;              /* children's stderr (appended) or NULL: inherit */
    const char *shot_dir;         /* or NULL */
    const char *password_env;     /* the plan's password variable, removed from the children */
    uint32_t capacity;
};

/* Starts `count` agents named local-1.. into children[] (*n counts them). 0, or -1 with err. */
int agentspawn_start(const struct agentspawn_opts *o, uint32_t count, pid_t *children, size_t *n, size_t max,
                     char *err, size_t errlen);
/* SIGTERM, up to 3 s, then SIGKILL; reaps every child. */
void agentspawn_reap(pid_t *children, size_t *n);
/* In a forked child: replaces it with bin (execv). When that fails, prints "sessmax: cannot start
 * BIN: reason" to stderr and exits 127, as a shell reports a command it could not run. */
void agentspawn_exec(const char *bin, char *const argv[]) __attribute__((noreturn));
/* Parses "1", "0-3,6" into a cpu bitmask array; -1 on bad text. */
int agentspawn_parse_cpus(const char *text, unsigned char *mask, size_t masklen);

#endif

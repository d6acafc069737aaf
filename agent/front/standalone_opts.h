/* standalone_opts.h -- the options of `sessmax-agent run` and `sessmax-agent shot`: parsed with
 * getopt_long into an engine_config and the few settings of the command itself. */
#ifndef SESSMAX_STANDALONE_OPTS_H
#define SESSMAX_STANDALONE_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "agent/engine/engine.h"
#include "common/x11_preset.h"

struct opts {
    struct engine_config cfg;
    struct x11_client client;          /* --client */
    const char *target, *users, *workload, *out, *log_level, *network;
    const char *listen, *token_file, *name;   /* studio: --listen, --web-token-file, --name */
    unsigned sessions, first;          /* --first: number of the first user */
    int64_t duration_ms, ramp_ms, wait_ms, logoff_ms;
    uint64_t seed;
    int size_given;
};

extern const char STANDALONE_RUN_USAGE[];
extern const char STANDALONE_SHOT_USAGE[];

/* Zeroes o and sets the defaults (one session from user 1, 30 s logoff, 3 s wait, seed 1). */
void standalone_opts_defaults(struct opts *o);
/* The defaults of a verb that holds one interactive session (shot, studio): as
 * standalone_opts_defaults, no traffic or health records, and logoff_ms to log off in. */
void standalone_opts_one_session(struct opts *o, int64_t logoff_ms);
/* Parses argv (argv[0] the command) into o. 0; or EX_USAGE after a one-line message on stderr;
 * or -1 after printing usage for --help (the caller exits 0). */
int standalone_opts_parse(int argc, char **argv, struct opts *o, const char *usage);
/* Prints "sessmax-agent CMD: bad value for --OPT: 'VAL'" on stderr; returns EX_USAGE. */
int standalone_opts_bad(const char *cmd, const char *opt, const char *val);
/* The checks run and shot share (target, users, fingerprint, SESSMAX_PASSWORD); fills host and
 * *password. 0, or the exit code after a one-line message on stderr. */
int standalone_opts_check(const char *cmd, struct opts *o, char *host, size_t hostlen, const char **password);

/* "60s", "500ms", "2m", "1h", or plain seconds -> ms. -1 on bad text. */
int64_t standalone_parse_duration_ms(const char *text);
/* Expands "{n}" / "{n:03}" in pattern with n (1-based) into out. -1 on a bad pattern. */
int standalone_expand_user(const char *pattern, unsigned n, char *out, size_t outlen);

#endif

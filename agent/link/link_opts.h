/* link_opts.h -- the command line of `sessmax-agent connect` and where its token comes from.
 * Numbers are checked (a bad one is a one-line error naming the option and the value); the token
 * is read from --token-file (0600), an inherited --token-fd, or SESSMAX_TOKEN, never argv; the
 * pin is given (--tls-pin) or taken from the controller's certificate file (--tls-pin-cert). */
#ifndef SESSMAX_LINK_OPTS_H
#define SESSMAX_LINK_OPTS_H

#include <stdint.h>

struct link_opts {
    const char *addr, *name, *pin, *token_file;
    const char *shot_dir, *config_dir;
    const char *spill_dir;        /* unacknowledged results past buffer_mib go to a file here */
    unsigned capacity, connect_threads;
    unsigned buffer_mib;          /* unacknowledged results kept in memory before spilling */
    uint64_t wait_us;             /* --controller-wait: keep trying to reach the controller this long */
    char pin_buf[128];            /* the fingerprint of --tls-pin-cert (pin points here) */
    int tls, insecure, token_fd;
};

/* Fills o from argv (argv[0] is "connect"). Returns 0, EX_USAGE after a one-line error on
 * stderr, or -1 after printing the help. */
int link_opts_parse(int argc, char **argv, struct link_opts *o);
/* The shared token, checked against the length limits; NULL after a one-line error. SESSMAX_TOKEN
 * is removed from the environment either way, so nothing the agent starts sees it. */
char *link_opts_token(const struct link_opts *o);

#endif

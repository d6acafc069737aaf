/* controller/cli/ -- the command line of `sessmax`: one verb per file (cmd_<verb>.c), each
 * parsing its options with getopt_long, calling the part of the controller that does the work
 * (run/ runs a plan, score/ scores a run, report/ writes reports and exports) and printing the
 * result. Nothing here computes a figure or talks to an agent. main.c dispatches and prints help.
 *
 * cmd.h -- what every verb is: a name, a one-line summary, its usage text and its entry point.
 * Verbs return the process exit code: 0 pass, 1 thresholds failed, 2 inconclusive (EXIT_* in
 * score/verdict.h), <sysexits.h> codes (EX_USAGE, EX_DATAERR, EX_NOINPUT, EX_UNAVAILABLE,
 * EX_SOFTWARE, EX_IOERR, EX_CONFIG) for everything else. argv[0] is the verb itself. */
#ifndef SESSMAX_CMD_H
#define SESSMAX_CMD_H

#include <sysexits.h>

#include "controller/score/verdict.h"   /* EXIT_PASS, EXIT_THRESHOLD_FAILED, EXIT_INCONCLUSIVE */

struct cmd {
    const char *name;
    const char *summary;      /* one line for `sessmax help` */
    const char *usage;        /* full text for `sessmax help VERB` (options, examples) */
    int (*run)(int argc, char **argv);
};

/* Prints "sessmax VERB: message" and the verb's usage hint to stderr; returns EX_USAGE. */
int cmd_usage_error(const struct cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

/* cmd.h -- the verbs of the sessmax CLI. Each verb lives in controller/cmd_<verb>.c and exports
 * one `const struct cmd`; main.c only dispatches and prints help. Verbs return the process exit
 * code: 0 pass, 1 thresholds failed, 2 inconclusive, sysexits codes (64 usage, 65 data, 66 no
 * input, 70 software, 74 I/O, 78 config) for everything else. argv[0] is the verb itself. */
#ifndef SESSMAX_CMD_H
#define SESSMAX_CMD_H

#include <sysexits.h>

#define EXIT_PASS 0
#define EXIT_THRESHOLD_FAILED 1
#define EXIT_INCONCLUSIVE 2

struct cmd {
    const char *name;
    const char *summary;      /* one line for `sessmax help` */
    const char *usage;        /* full text for `sessmax help VERB` (options, examples) */
    int (*run)(int argc, char **argv);
};

extern const struct cmd cmd_run, cmd_validate, cmd_score, cmd_compare, cmd_report, cmd_dashboard,
    cmd_export, cmd_demo, cmd_agents, cmd_db;

/* Prints "sessmax VERB: message" and the verb's usage hint to stderr; returns EX_USAGE. */
int cmd_usage_error(const struct cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

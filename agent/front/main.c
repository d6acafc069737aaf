/* main.c -- sessmax-agent: dispatches to `run` and `shot` (standalone.c), `studio`
 * (studio_cmd.c), `connect` (the controller link, link.c), `netcheck` or `probe` (probe_cmd.c).
 * Options before the command: --help, --version. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "agent/link/link.h"
#include "agent/netcheck/netcheck.h"
#include "agent/front/probe_cmd.h"
#include "agent/front/standalone.h"
#include "agent/front/studio_cmd.h"
#include "common/log.h"
#include "common/nodump.h"

static const char USAGE[] =
    "usage: sessmax-agent COMMAND [options]   (COMMAND --help for its options)\n"
    "  run      run N sessions of a workload standalone; JSON lines on stdout\n"
    "  shot     log one session on and save its screen as PNG\n"
    "  studio   log one session on and write a workload on it from the browser\n"
    "  connect  serve a sessmax controller (the controller link)\n"
    "  netcheck measure the built-in network emulator against a profile on this host\n"
    "  --version\n"
    "Passwords come from SESSMAX_PASSWORD, never from the command line.\n";

static const struct {
    const char *name;
    int (*main)(int argc, char **argv);
} COMMANDS[] = {
    { "run", standalone_run },
    { "shot", standalone_shot },
    { "studio", studio_cmd_main },
    { "connect", link_main },
    { "netcheck", netcheck_main },
    { "probe", probe_cmd_main },
};

int main(int argc, char **argv)
{
    /* libevent 2.1 otherwise keeps time with CLOCK_MONOTONIC_COARSE (one jiffy, 4 ms here): every
     * timer -- think times, `stable for` windows, the loop-lag probe -- would fire up to 4 ms
     * late. The variable reaches every event_base of this process (standalone and link.c). */
    setenv("EVENT_PRECISE_TIMER", "1", 1);
    const char *lvl = getenv("SESSMAX_LOG");
    int level = lvl ? log_parse_level(lvl) : LOG_WARN;
    log_init("sessmax-agent", level < 0 ? LOG_WARN : (enum log_level)level);
    nodump_apply();   /* the token and the sessions' passwords */

    enum { O_VERSION = 256 };
    static const struct option longopts[] = {
        { "help", no_argument, NULL, 'h' }, { "version", no_argument, NULL, O_VERSION },
        { NULL, 0, NULL, 0 },
    };
    int c;
    /* '+': stop at the command; its own options are parsed by the command. */
    while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(USAGE, stdout);
            return EX_OK;
        case O_VERSION:
            printf("sessmax-agent %s\n", SESSMAX_VERSION);
            return EX_OK;
        default:
            fputs(USAGE, stderr);
            return EX_USAGE;
        }
    }
    if (optind >= argc) {
        fputs(USAGE, stderr);
        return EX_USAGE;
    }
    const char *cmd = argv[optind];
    if (!strcmp(cmd, "help")) {
        fputs(USAGE, stdout);
        return EX_OK;
    }
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (!strcmp(cmd, COMMANDS[i].name))
            return COMMANDS[i].main(argc - optind, argv + optind);
    fprintf(stderr, "sessmax-agent: unknown command '%s'\n%s", cmd, USAGE);
    return EX_USAGE;
}

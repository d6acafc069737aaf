/* main.c -- sessmax-agent: dispatches to `run` and `shot` (standalone.c) or `connect` (the
 * controller link, link.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/link.h"
#include "agent/netcheck.h"
#include "agent/standalone.h"
#include "common/log.h"

static const char USAGE[] =
    "usage: sessmax-agent COMMAND [options]   (COMMAND --help for its options)\n"
    "  run      run N sessions of a workload standalone; JSON lines on stdout\n"
    "  shot     log one session on and save its screen as PNG\n"
    "  connect  serve a sessmax controller (the controller link)\n"
    "  netcheck measure the built-in network emulator against a profile on this host\n"
    "  --version\n"
    "Passwords come from SESSMAX_PASSWORD, never from the command line.\n";

int main(int argc, char **argv)
{
    /* libevent 2.1 otherwise keeps time with CLOCK_MONOTONIC_COARSE (one jiffy, 4 ms here): every
     * timer -- think times, `stable for` windows, the loop-lag probe -- would fire up to 4 ms
     * late. The variable reaches every event_base of this process (standalone and link.c). */
    setenv("EVENT_PRECISE_TIMER", "1", 1);
    const char *lvl = getenv("SESSMAX_LOG");
    int level = lvl ? log_parse_level(lvl) : LOG_WARN;
    log_init("sessmax-agent", level < 0 ? LOG_WARN : (enum log_level)level);
    if (argc < 2) {
        fputs(USAGE, stderr);
        return 64;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run"))
        return standalone_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "shot"))
        return standalone_shot(argc - 1, argv + 1);
    if (!strcmp(cmd, "connect"))
        return link_main(argc - 1, argv + 1);
    if (!strcmp(cmd, "netcheck"))
        return netcheck_main(argc - 1, argv + 1);
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(USAGE, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("sessmax-agent %s\n", SESSMAX_VERSION);
        return 0;
    }
    fprintf(stderr, "sessmax-agent: unknown command '%s'\n%s", cmd, USAGE);
    return 64;
}

/* cmd_agents.c -- placeholder until the verb lands; owned by the issue that builds it. */
#include "controller/cmd.h"

#include <stdio.h>

static int agents(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sessmax agents: not built yet\n");
    return EX_SOFTWARE;
}

const struct cmd cmd_agents = { "agents", "(not built yet)", "", agents };

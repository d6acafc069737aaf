/* cmd_dashboard.c -- placeholder until the verb lands; owned by the issue that builds it. */
#include "controller/cmd.h"

#include <stdio.h>

static int dashboard(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sessmax dashboard: not built yet\n");
    return EX_SOFTWARE;
}

const struct cmd cmd_dashboard = { "dashboard", "(not built yet)", "", dashboard };

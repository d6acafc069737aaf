/* cmd_run.c -- placeholder until the verb lands; owned by the issue that builds it. */
#include "controller/cmd.h"

#include <stdio.h>

static int run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sessmax run: not built yet\n");
    return EX_SOFTWARE;
}

const struct cmd cmd_run = { "run", "(not built yet)", "", run };

/* cmd_demo.c -- placeholder until the verb lands; owned by the issue that builds it. */
#include "controller/cmd.h"

#include <stdio.h>

static int demo(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sessmax demo: not built yet\n");
    return EX_SOFTWARE;
}

const struct cmd cmd_demo = { "demo", "(not built yet)", "", demo };

/* cmd_compare.c -- placeholder until the verb lands; owned by the issue that builds it. */
#include "controller/cmd.h"

#include <stdio.h>

static int compare(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sessmax compare: not built yet\n");
    return EX_SOFTWARE;
}

const struct cmd cmd_compare = { "compare", "(not built yet)", "", compare };

/* cmd_export.c -- placeholder until the verb lands; owned by the issue that builds it. */
#include "controller/cmd.h"

#include <stdio.h>

static int export(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sessmax export: not built yet\n");
    return EX_SOFTWARE;
}

const struct cmd cmd_export = { "export", "(not built yet)", "", export };

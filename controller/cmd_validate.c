/* cmd_validate.c -- placeholder until the verb lands; owned by the issue that builds it. */
#include "controller/cmd.h"

#include <stdio.h>

static int validate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sessmax validate: not built yet\n");
    return EX_SOFTWARE;
}

const struct cmd cmd_validate = { "validate", "(not built yet)", "", validate };

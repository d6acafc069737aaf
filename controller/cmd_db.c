/* cmd_db.c -- placeholder until the verb lands; owned by the issue that builds it. */
#include "controller/cmd.h"

#include <stdio.h>

static int db(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sessmax db: not built yet\n");
    return EX_SOFTWARE;
}

const struct cmd cmd_db = { "db", "(not built yet)", "", db };

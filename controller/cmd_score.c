/* cmd_score.c -- placeholder until the verb lands; owned by the issue that builds it. */
#include "controller/cmd.h"

#include <stdio.h>

static int score(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sessmax score: not built yet\n");
    return EX_SOFTWARE;
}

const struct cmd cmd_score = { "score", "(not built yet)", "", score };

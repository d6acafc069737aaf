/* cmd_report.c -- placeholder until the verb lands; owned by the issue that builds it. */
#include "controller/cmd.h"

#include <stdio.h>

static int report(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sessmax report: not built yet\n");
    return EX_SOFTWARE;
}

const struct cmd cmd_report = { "report", "(not built yet)", "", report };

/* link.c -- placeholder until the controller link lands. */
#include "agent/link.h"

#include <stdio.h>

int link_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sessmax-agent connect: not built yet\n");
    return 70;
}

/* cmd.c -- what every verb shares: the one-line usage error with a pointer to the verb's help. */
#include "controller/cli/cmd.h"

#include <stdarg.h>
#include <stdio.h>

int cmd_usage_error(const struct cmd *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "sessmax %s: ", c->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see: sessmax help %s)\n", c->name);
    return EX_USAGE;
}

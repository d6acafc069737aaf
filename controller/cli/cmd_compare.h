/* cmd_compare.h -- the `sessmax compare` verb (cmd_compare.c). */
#ifndef SESSMAX_CMD_COMPARE_H
#define SESSMAX_CMD_COMPARE_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_compare;

#endif

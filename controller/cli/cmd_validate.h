/* cmd_validate.h -- the `sessmax validate` verb (cmd_validate.c). */
#ifndef SESSMAX_CMD_VALIDATE_H
#define SESSMAX_CMD_VALIDATE_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_validate;

#endif

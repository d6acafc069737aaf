/* cmd_serve.h -- the `sessmax serve` verb (cmd_serve.c). */
#ifndef SESSMAX_CMD_SERVE_H
#define SESSMAX_CMD_SERVE_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_serve;

#endif

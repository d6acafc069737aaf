/* cmd_run.h -- the `sessmax run` verb (cmd_run.c). */
#ifndef SESSMAX_CMD_RUN_H
#define SESSMAX_CMD_RUN_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_run;

#endif

/* cmd_demo.h -- the `sessmax demo` verb (cmd_demo.c). */
#ifndef SESSMAX_CMD_DEMO_H
#define SESSMAX_CMD_DEMO_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_demo;

#endif

/* cmd_agents.h -- the `sessmax agents` verb (cmd_agents.c). */
#ifndef SESSMAX_CMD_AGENTS_H
#define SESSMAX_CMD_AGENTS_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_agents;

#endif

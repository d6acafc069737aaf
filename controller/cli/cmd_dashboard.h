/* cmd_dashboard.h -- the `sessmax dashboard` verb (cmd_dashboard.c). */
#ifndef SESSMAX_CMD_DASHBOARD_H
#define SESSMAX_CMD_DASHBOARD_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_dashboard;

#endif

/* cmd_report.h -- the `sessmax report` verb (cmd_report.c). */
#ifndef SESSMAX_CMD_REPORT_H
#define SESSMAX_CMD_REPORT_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_report;

#endif

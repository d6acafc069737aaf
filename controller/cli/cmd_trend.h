/* cmd_trend.h -- `sessmax trend DB [--cell KEY=V,...] [--tolerance 10%] [--last 7]`. */
#ifndef SESSMAX_CMD_TREND_H
#define SESSMAX_CMD_TREND_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_trend;

#endif

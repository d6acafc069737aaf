/* cmd_export.h -- the `sessmax export` verb (cmd_export.c). */
#ifndef SESSMAX_CMD_EXPORT_H
#define SESSMAX_CMD_EXPORT_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_export;

#endif

/* cmd_db.h -- the `sessmax db` verb (cmd_db.c). */
#ifndef SESSMAX_CMD_DB_H
#define SESSMAX_CMD_DB_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_db;

#endif

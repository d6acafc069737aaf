/* cmd_score.h -- the `sessmax score` verb (cmd_score.c). */
#ifndef SESSMAX_CMD_SCORE_H
#define SESSMAX_CMD_SCORE_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_score;

#endif

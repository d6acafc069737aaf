/* cmd_matrix.h -- `sessmax matrix PLAN --vary KEY=V1,V2 ...`. */
#ifndef SESSMAX_CMD_MATRIX_H
#define SESSMAX_CMD_MATRIX_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_matrix;

#endif

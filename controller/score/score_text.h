/* score_text.h -- the terminal rendering of one run's summary and verdict (`sessmax score`). */
#ifndef SESSMAX_SCORE_TEXT_H
#define SESSMAX_SCORE_TEXT_H

#include <stdio.h>

#include "controller/score/summary.h"
#include "controller/score/verdict.h"

/* db_path, when not NULL, names the folder of the failed sessions' screens (DB.shots/run-ID/). */
void score_text_print(FILE *out, const struct summary *s, const struct verdict *v, const char *db_path);

#endif

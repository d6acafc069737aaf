/* score_run.h -- scoring one stored run, the one way `sessmax score` and the end of `sessmax run`
 * both do it: load the run's summary (with the score parameters stored with it, or an override),
 * evaluate the verdict, print it, write verdict.json when asked, and store the score back. */
#ifndef SESSMAX_SCORE_RUN_H
#define SESSMAX_SCORE_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "controller/score/summary.h"
#include "controller/score/verdict.h"

struct store;

struct score_run_options {
    const char *verb;                     /* messages read "sessmax VERB: ..." */
    const struct score_config *override;  /* NULL: the parameters stored with the run */
    FILE *text;                           /* the console summary goes here; NULL: not printed */
    const char *verdict_path;             /* write verdict.json here; NULL: none */
    unsigned flags;                       /* summary_input flags: SUMMARY_NO_CURVE when nothing
                                             will draw the curve or the charts */
    const char *db_path;                  /* the results database, to name DB.shots/run-ID/ in the
                                             text; NULL: not named */
};

/* Scores run `run` of `st` into *s and *v (free s with summary_free, also on failure).
 * Returns 0 with *code the verdict's exit code (EX_IOERR when verdict.json could not be
 * written), or -1 with *code set and one line printed when the run cannot be scored. */
int score_run(struct store *st, int64_t run, const struct score_run_options *o, struct summary *s,
              struct verdict *v, int *code);

/* Stores the score and verdict of `s` into its run (`st` open for writing). 0, or -1 (store_errmsg). */
int score_run_store(struct store *st, const struct summary *s, const struct verdict *v);

#endif

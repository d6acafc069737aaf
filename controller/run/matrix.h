/* matrix.h -- `sessmax matrix`: one plan run once per cell of the product of --vary axes (and
 * per repeat), every run an ordinary run (run.h) into one results store, tagged with its matrix
 * and cell; then the table (matrix_table.h) of the matrix's completed runs.
 *
 *   check every cell's plan --> find (--resume) or start the matrix row --> for each cell in
 *   order, the repeats it still lacks: run --> table
 *
 * A cell's repeat is done when a completed run with the cell's tag exists in the matrix: with
 * --resume, the newest matrix of the same spec (plan text hash, axes, repeats) in the store is
 * continued and done runs are not redone; a run left `running` by a killed controller is marked
 * aborted when the next run opens the store, so it is run again. Ctrl-C during a run logs off,
 * marks the run aborted and stops the matrix after it. */
#ifndef SESSMAX_MATRIX_H
#define SESSMAX_MATRIX_H

#include <stdio.h>

#include "controller/run/matrix_spec.h"
#include "controller/run/matrix_table.h"

struct matrix_options {
    const char *plan_path;
    const struct matrix_spec *spec;
    const char *db_path;          /* NULL: the plan's `results` */
    int resume;                   /* continue the newest matrix of this spec */
    enum matrix_format format;    /* of the table */
    FILE *table;                  /* where the table goes; NULL: stdout */
    FILE *out;                    /* progress of the runs; NULL: stdout */
    int tty;                      /* -1: detect on out */
    const char *agent_log;        /* every run's local agents' stderr; NULL: <db>.agents.log */
};

/* Runs the matrix; returns the exit code: 0 when every cell has all its runs completed,
 * 2 (inconclusive) when interrupted or a run did not complete, 64+ for a bad plan or cell
 * (checked before the first run), a store error or agents that cannot start. */
int matrix_execute(const struct matrix_options *o);

/* Prints the table of matrix `matrix_id` in the store at `db` (completed runs only; `platform`
 * labels the rows when the matrix does not vary it). Returns 0 or an exit code (65 data, 66 no
 * such file, 74 I/O) after a one-line message. */
int matrix_print_table(const char *db, int64_t matrix_id, const struct matrix_spec *s, const char *platform,
                       enum matrix_format fmt, FILE *out);

#endif

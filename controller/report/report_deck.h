/* report_deck.h -- what makes a report ready for a capacity-planning deck: the one-line summary
 * at its top ("smax 84 on 1 CPU, verdict pass, baseline 129 ms, knee at 85 active sessions"),
 * and the overlay of up to REPORT_OVERLAY_MAX runs (`sessmax report DB --run A --run B ...`) on
 * one capacity chart with a side-by-side table. */
#ifndef SESSMAX_REPORT_DECK_H
#define SESSMAX_REPORT_DECK_H

#include <stddef.h>
#include <stdio.h>

#include "controller/score/summary.h"
#include "controller/score/verdict.h"

#define REPORT_OVERLAY_MAX 5

/* The one-line summary of a run (plain text, not escaped). */
void report_deck_line(const struct summary *s, const struct verdict *v, char *buf, size_t len);
/* Writes the overlay page of n (2..REPORT_OVERLAY_MAX) runs to path; 0, or -1 with err. */
int report_write_overlay(const struct summary *runs, const struct verdict *verdicts, size_t n, const char *path,
                         char *err, size_t errlen);

#endif

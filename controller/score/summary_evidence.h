/* summary_evidence.h -- what a run's sessions say beyond counts: every failed or stuck session
 * with its user, reason, time and the PNG of its screen at that moment (the agent names it at the
 * end of the failure detail, "...; screen USER-failed.png", in the run's shots directory), and
 * how logons got there: first try, after repaint requests, after logon retries. */
#ifndef SESSMAX_SUMMARY_EVIDENCE_H
#define SESSMAX_SUMMARY_EVIDENCE_H

#include <stddef.h>
#include <stdio.h>

struct summary;
struct summary_input;

/* Splits the agent's "...; screen FILE" off a failure detail (cut there) into `screen`; neither
 * changes when the detail names no screen. */
void summary_split_screen(char *detail, char *screen, size_t len);

/* Fills s->failures and the logon counts from the session rows. 0, or -1 out of memory. */
int summary_evidence(const struct summary_input *in, struct summary *s);

/* The failures as text lines for `sessmax score` (nothing when there is none). `shots` is the
 * directory the PNG names are relative to ("" when unknown). */
void summary_evidence_print(FILE *o, const struct summary *s, const char *shots);

#endif

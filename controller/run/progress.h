/* progress.h -- what `sessmax run` shows while it runs: one live line rewritten in place on a
 * terminal (launched / active / failed, current index vs threshold, time left), or plain
 * timestamped lines every `interval` when stdout is not a terminal (CI logs). */
#ifndef SESSMAX_PROGRESS_H
#define SESSMAX_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

struct progress_state {
    const char *phase;          /* "waiting for agents", "ramp", "steady", "logoff" */
    uint32_t sessions, launched, active, failed, ended;
    uint32_t agents, agents_expected;
    double index_ms, threshold_ms;   /* NaN when not known yet */
    double baseline_ms;
    int crossed;                     /* the index is above the threshold */
    double left_s;                   /* time left in the run; < 0 when unknown */
    uint64_t samples;
};

struct progress {
    FILE *out;
    int tty;
    uint64_t last_us;
    uint64_t interval_us;        /* plain mode: one line this often */
    const char *last_phase;
    int line_open;
};

/* tty < 0: detect with isatty(). */
void progress_init(struct progress *p, FILE *out, int tty);
/* Shows the state (rate-limited: 4/s on a TTY, `interval_us` otherwise, and on a phase change). */
void progress_show(struct progress *p, const struct progress_state *s, uint64_t now_us);
/* Prints one message line without garbling the live line. */
void progress_note(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Ends the live line. */
void progress_done(struct progress *p);

#endif

/* progress.c -- the live progress line of `sessmax run` (see progress.h). */
#include "controller/run/progress.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

void progress_init(struct progress *p, FILE *out, int tty)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->tty = tty < 0 ? isatty(fileno(out)) : tty;
    p->interval_us = 10000000;
}

static void format_line(const struct progress_state *s, char *buf, size_t len)
{
    char idx[96] = "index n/a", left[32] = "";
    if (!isnan(s->index_ms) && !isnan(s->threshold_ms))
        snprintf(idx, sizeof idx, "index %.0f ms / threshold %.0f ms%s", s->index_ms, s->threshold_ms,
                 s->crossed ? " CROSSED" : "");
    else if (!isnan(s->index_ms))
        snprintf(idx, sizeof idx, "index %.0f ms (baseline pending)", s->index_ms);
    if (s->left_s >= 0)
        snprintf(left, sizeof left, ", %dm%02ds left", (int)(s->left_s / 60), (int)fmod(s->left_s, 60));
    snprintf(buf, len, "[%s] launched %u/%u  active %u  failed %u  ended %u | %s | agents %u/%u, %llu samples%s",
             s->phase, s->launched, s->sessions, s->active, s->failed, s->ended, idx, s->agents, s->agents_expected,
             (unsigned long long)s->samples, left);
}

void progress_show(struct progress *p, const struct progress_state *s, uint64_t now_us)
{
    int phase_changed = !p->last_phase || strcmp(p->last_phase, s->phase) != 0;
    uint64_t every = p->tty ? 250000 : p->interval_us;
    if (!phase_changed && now_us - p->last_us < every)
        return;
    p->last_us = now_us;
    p->last_phase = s->phase;
    char line[400];
    format_line(s, line, sizeof line);
    if (p->tty) {
        fprintf(p->out, "\r\033[K%s", line);
        p->line_open = 1;
    } else {
        fprintf(p->out, "%s\n", line);
    }
    fflush(p->out);
}

void progress_note(struct progress *p, const char *fmt, ...)
{
    va_list ap;
    if (p->tty && p->line_open)
        fprintf(p->out, "\r\033[K");
    va_start(ap, fmt);
    vfprintf(p->out, fmt, ap);
    va_end(ap);
    fputc('\n', p->out);
    p->last_us = 0;   /* redraw the line next time */
    fflush(p->out);
}

void progress_done(struct progress *p)
{
    if (p->tty && p->line_open)
        fputc('\n', p->out);
    p->line_open = 0;
    fflush(p->out);
}

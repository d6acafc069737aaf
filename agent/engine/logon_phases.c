/* logon_phases.c -- logon marks and the phases between them (see logon_phases.h). */
#include "agent/engine/logon_phases.h"

#include <string.h>

void logon_marks_reset(struct logon_marks *m)
{
    memset(m, 0, sizeof *m);
}

void logon_marks_tcp_start(struct logon_marks *m, uint64_t now_us)
{
    logon_marks_reset(m);
    m->tcp_start_us = now_us;
}

static void first(uint64_t *mark, uint64_t now_us)
{
    if (!*mark)
        *mark = now_us;
}

void logon_marks_tcp_done(struct logon_marks *m, uint64_t now_us)
{
    if (m->tcp_start_us)
        first(&m->tcp_done_us, now_us);
}

void logon_marks_secure(struct logon_marks *m, uint64_t now_us)
{
    first(&m->secure_us, now_us);
}

void logon_marks_active(struct logon_marks *m, uint64_t now_us)
{
    first(&m->active_us, now_us);
}

void logon_marks_paint(struct logon_marks *m, uint64_t now_us)
{
    if (m->active_us)
        first(&m->paint_us, now_us);
}

void logon_phases_compute(const struct logon_marks *m, uint64_t start_us, uint64_t ready_us,
                          int64_t out[LOGON__PHASES])
{
    /* the end of each phase, in enum logon_phase order */
    const uint64_t end[LOGON__PHASES] = {
        [LOGON_WAIT] = m->tcp_start_us, [LOGON_TCP] = m->tcp_done_us, [LOGON_SECURITY] = m->secure_us,
        [LOGON_RDP] = m->active_us, [LOGON_PAINT] = m->paint_us, [LOGON_DESKTOP] = ready_us,
    };
    for (int i = 0; i < LOGON__PHASES; i++)
        out[i] = -1;
    if (!start_us || ready_us < start_us)
        return;
    uint64_t from = start_us;
    for (int i = 0; i < LOGON__PHASES; i++) {
        uint64_t to = end[i];
        if (i != LOGON_DESKTOP && (!to || to < from || to > ready_us))
            continue;                   /* not seen, or out of order: the next phase takes it */
        out[i] = (int64_t)(to - from);
        from = to;
    }
}

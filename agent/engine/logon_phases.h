/* logon_phases.h -- the marks of one logon (monotonic µs, 0 = not seen) and the phases they make
 * (struct rec_logon, common/results.h). Pure: the session kind that sees a boundary sets its
 * mark (agent/rdp/: FreeRDP's TCP connect, its connection-state changes, the first paint), and
 * session_life_active() turns them into the record. A mark that was not seen, or that is out of
 * order, makes its phase -1 and the next phase start at the last boundary that was seen, so the
 * phases that were measured still add up to the whole logon. */
#ifndef SESSMAX_LOGON_PHASES_H
#define SESSMAX_LOGON_PHASES_H

#include <stdint.h>

#include "common/results.h"

struct logon_marks {
    uint64_t tcp_start_us;   /* FreeRDP's connect() of the TCP connection that got through */
    uint64_t tcp_done_us;    /* that socket connected */
    uint64_t secure_us;      /* security done: X.224, TLS, NLA (FreeRDP's MCS_CONNECT state) */
    uint64_t active_us;      /* the connection sequence done (FreeRDP's ACTIVE state) */
    uint64_t paint_us;       /* the first paint after activation */
};

/* A new connect attempt: forgets every mark. */
void logon_marks_reset(struct logon_marks *m);
/* A new TCP connection (FreeRDP's connect()): marks its start and forgets the later marks, which
 * belonged to an earlier connection of the same attempt (the NLA -> TLS fallback reconnects). */
void logon_marks_tcp_start(struct logon_marks *m, uint64_t now_us);
/* The marks after tcp_start; each is kept at its first value (a reactivation or a later paint
 * changes nothing). */
void logon_marks_tcp_done(struct logon_marks *m, uint64_t now_us);
void logon_marks_secure(struct logon_marks *m, uint64_t now_us);
void logon_marks_active(struct logon_marks *m, uint64_t now_us);
/* Only once active: a paint before activation (none is expected) is not the first paint. */
void logon_marks_paint(struct logon_marks *m, uint64_t now_us);

/* The phases of a logon from start_us (the session's start) to ready_us (desktop ready), into
 * out[enum logon_phase]. All -1 when ready_us < start_us. */
void logon_phases_compute(const struct logon_marks *m, uint64_t start_us, uint64_t ready_us,
                          int64_t out[LOGON__PHASES]);

#endif

/* state.h -- one RDP session's state (struct rdp_session), shared by session.c (its life on the
 * loop) and the files that do one job each for it: connect.c, screen.c, input.c, traffic.c.
 * Nothing outside agent/rdp/ includes this; the public contract is session.h. It includes no
 * header of those files, so they depend on it and never the other way round. */
#ifndef SESSMAX_RDP_STATE_H
#define SESSMAX_RDP_STATE_H

#include <stddef.h>
#include <stdint.h>

#include <freerdp/freerdp.h>

#include "agent/engine/connector.h"
#include "agent/rdp/failure.h"
#include "agent/driver/screen.h"
#include "agent/engine/logon_phases.h"
#include "agent/engine/session_life.h"
#include "common/results.h"

struct event;
struct interp;
struct workload;

#define SESSION_MAX_HANDLES 8
/* After its logoff steps, how long a session waits for the server to end it before it is
 * recorded as logoff_incomplete. */
#define SESSION_LOGOFF_CONFIRM_MS 15000u

struct rdp_session {
    struct session_life l;                /* identity, state, records, end, interpreter */

    struct connector_job job;             /* the current connect attempt */
    uint32_t attempts;
    freerdp *inst;                        /* connected instance (or the attempt's, on a worker) */
    struct failure_facts facts;           /* filled by callbacks (worker, then loop) */

    struct event *ev[SESSION_MAX_HANDLES];
    int nev;
    int sock_fd;
    uint64_t ready_us;                    /* in fd_cb: when the data it reads arrived (rxstamp.h); 0 outside */
    uint64_t carry_us;                    /* FreeRDP still holds bytes read by then (its reread event set) */
    int reread_fd;                        /* that event's fd (handle 0), -1 unknown */
    struct event *traffic_ev, *retry_ev;
    struct event *confirm_ev;              /* logoff steps done: waiting for the server's end */
    uint32_t frames;
    uint32_t logon_retries;               /* fresh connections after logon timeouts */
    /* the logon's boundaries in the last connect attempt: set on the connect worker during
     * freerdp_connect() (connect.c), then on the loop (screen.c's first paint) */
    struct logon_marks marks;

    /* paints of a server-marked frame, handed to the interpreter at its end */
    int in_frame;
    uint64_t frame_begin_us;
    struct rect frame_rects[SCREEN_MAX_RECTS];
    size_t nframe_rects;

    char drive_dir[4096];                 /* the session's client drives ("" without drives:) */
};

/* FreeRDP context extension. THE PARENT CONTEXT MUST BE THE FIRST ELEMENT. */
struct session_ctx {
    rdpContext _p;
    struct rdp_session *s;
    pSurfaceFrameMarker gdi_frame_marker;  /* gdi's own (sends the frame acknowledge) */
};

/* The session behind a FreeRDP context; NULL once the instance was detached for teardown. */
static inline struct rdp_session *sess_of(rdpContext *ctx) { return ((struct session_ctx *)ctx)->s; }

#endif

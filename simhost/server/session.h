/* session.h -- what one logged-on session does between FreeRDP's callbacks: input queued
 * by the callbacks is run in order (keys change the desktop, commands do their work and log an
 * event, a drive copy steps until it ends), then the dirty rectangles go out as one frame of
 * SurfaceBits (or the session's codec) between frame markers. The event loop (loop.c) runs
 * keys and paints; a command that does work stops the loop's drain and is run, with the rest of
 * the queue, by a worker thread (sim_session_drain(s, 1)). The peer's lifecycle (connection,
 * logon checks, teardown) is peer.c's. */
#ifndef SIM_SESSION_H
#define SIM_SESSION_H

#include "simhost/desktop/cmd.h"
#include "simhost/desktop/desktop.h"
#include "simhost/server/eventlog.h"
#include "simhost/desktop/frame.h"
#include "simhost/server/server_state.h"

#include <freerdp/peer.h>
#include <stdint.h>

#define SIM_QUEUE 512
#define SIM_HOLD_US 1000000u     /* a client that never speaks gets its first frame after this */
#define SIM_COPY_TICK_US 50000u  /* a drive copy in progress is stepped this often */
#define SIM_DRAIN_WORK 1         /* sim_session_drain: a command waits for a worker */

struct sim_input {
    uint16_t flags, code;
    int unicode;
    uint64_t read_us;            /* when FreeRDP handed it to us: the event log's input_us */
};

struct sim_session {
    struct sim_server *srv;
    freerdp_peer *peer;
    unsigned id;
    struct sim_peer_entry ent;
    struct sim_desktop desk;
    struct sim_frame_buf fb;
    struct sim_codec *codec;     /* NULL: uncompressed SurfaceBits (sim_frame) */
    char user[64];
    char dir[4096];
    int bpp;
    int logged_on, activated, suppressed, logoff;
    int client_ready;            /* the client spoke after activation: the first frame may go */
    uint64_t activated_us;
    uint32_t refuse;             /* ERRINFO_* to send before closing, 0 = none */
    int bad_password;
    uint32_t frame_id;
    int markers;                 /* client supports surface frame markers */
    struct sim_cmd cmd;          /* has_cmd: the command the event loop left for a worker */
    int has_cmd;
    uint64_t cmd_input_us;       /* read_us of the input that triggered cmd */
    struct sim_input q[SIM_QUEUE];
    int qn;
    struct sim_drive *drive;     /* channel manager + rdpdr (drive.h) */
    struct sim_event copy_ev;    /* the copy in progress, logged when it ends */
    int pacing;                  /* a worker paints: wait for the client between strips */
    uint64_t write_wait_us;      /* of the paint in progress: time the client kept the socket full */
};

/* Queues one key press or release (unicode: a UTF-16 unit) to be run by sim_session_drain();
 * a full queue drops it with a rate-limited warning. */
void sim_session_queue(struct sim_session *s, uint16_t flags, uint16_t code, int unicode);
/* Runs the queued input in order (none while a copy is in progress, which steps instead) and
 * paints what changed, unless the client has not read what went out before (write blocked).
 * work = 0 (the event loop): stops before a command that does work (anything but an empty line,
 * logoff and the start of a copy), keeps it and returns SIM_DRAIN_WORK; the caller hands the
 * session to a thread that calls again with work = 1, which runs it, the rest of the queue and
 * the paint. Returns 0, SIM_DRAIN_WORK, or -1 when the client is gone. */
int sim_session_drain(struct sim_session *s, int work);
/* Writes out what FreeRDP holds for the client, waiting (poll) while the socket is full; adds the
 * time spent waiting to *wait_us (NULL: not counted). Returns 0, or -1 when the client is gone.
 * A worker calls it before its action and after its paint: the session's writes never block
 * (FreeRDP's WaitForOutputBufferFlush stays off), so the time the client takes to read is
 * measured apart from the time simhost takes to encode and write (the event log's write_wait_us). */
int sim_session_write_out(struct sim_session *s, uint64_t *wait_us);
/* How long (µs from now) until the session must be served again without input: a copy in
 * progress steps every SIM_COPY_TICK_US, the first frame waits for the client at most SIM_HOLD_US.
 * 0 = only input wakes it. */
uint64_t sim_session_wake_us(const struct sim_session *s, uint64_t now);

#endif

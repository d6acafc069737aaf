/* connector.h -- the connect thread pool and its watchdog.
 *
 * freerdp_connect() blocks (TLS, NLA, the connection sequence in 100 ms steps) and can hang
 * forever on a server that accepts TCP and then says nothing. So connects run on K worker
 * threads; each attempt registers a kick with the watchdog (for an RDP session: abort the FreeRDP
 * connect and shutdown() its socket, agent/rdp/connect.c), which on expiry calls it, again every
 * second until the attempt returns (the socket may not exist yet, or nego may reconnect). The
 * pool itself knows nothing of RDP: its jobs are any blocking work (connects, teardowns, starting
 * an external client's processes, reading their costs).
 * Finished jobs go back to the loop thread through an eventfd; job->done runs there. Under
 * real-time scheduling, workers run one priority below the thread that created the connector
 * (the loop), so their CPU bursts never keep a woken loop waiting.
 *
 * Threading: connector_new/submit/cancel/abort/free are for the loop thread. job->work runs on a
 * worker; a work that can hang calls connector_attach()/connector_detach() around the wait. */
#ifndef SESSMAX_CONNECTOR_H
#define SESSMAX_CONNECTOR_H

#include <stdint.h>

struct event_base;
struct connector;

struct connector_job {
    void (*work)(struct connector_job *j);   /* worker thread */
    void (*done)(struct connector_job *j);   /* loop thread, after work returned */
    uint32_t timeout_ms;                     /* watchdog period for this attempt */
    /* 1: connector_free() still runs work() and done() of this job if it is queued or
     * finished (inline, on the freeing thread), e.g. releasing an instance. */
    int must_finish;
    /* Set by the connector; read them in done(). */
    int watchdog_fired;                      /* the watchdog aborted this attempt */
    uint64_t started_us;                     /* monotonic time work() began */
    /* private */
    struct connector_job *next;
    void (*kick)(void *target);              /* attached: what aborts the wait */
    void *target;
    uint64_t deadline_us, next_kick_us;
    int abort_requested;
    int state;
};

/* Starts `threads` workers and the watchdog thread; NULL on failure (logged). */
struct connector *connector_new(struct event_base *base, unsigned threads);

/* Queues a job (not yet queued). */
void connector_submit(struct connector *c, struct connector_job *j);

/* Removes a job that has not started; returns 1 if removed (done() will not run), 0 if it is
 * running or finished (done() runs or ran). */
int connector_cancel(struct connector *c, struct connector_job *j);

/* Makes the watchdog abort a running attempt now (it then finishes with watchdog_fired = 0 unless
 * its deadline had passed). No effect on a job that is not running. */
void connector_abort(struct connector *c, struct connector_job *j);

/* Worker side: until detach, the watchdog (or connector_abort) may call kick(target), from its
 * own thread with the connector's lock held: kick must not block and must be safe while the
 * worker waits (e.g. freerdp_abort_connect and a shutdown() of the socket). */
void connector_attach(struct connector *c, struct connector_job *j, void (*kick)(void *target),
                      void *target);
/* Returns 1 if the watchdog fired for this attempt. After return the watchdog never calls the
 * kick again. */
int connector_detach(struct connector *c, struct connector_job *j);

/* Jobs queued or running. */
unsigned connector_pending(const struct connector *c);

/* Aborts running attempts, drops queued jobs (their done() does not run), joins the threads.
 * Jobs that finished but whose done() had not run yet are dropped too: their owners must clean
 * up what work() produced. Jobs marked must_finish are completed instead (work() if it had not
 * run, then done()). Accepts NULL. */
void connector_free(struct connector *c);

#endif

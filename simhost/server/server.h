/* server.h -- the simhost process: shared read-only state (font, certificate, accounts, cost
 * table), the listener loop, the registry of live connections and the handshake watchdog.
 *
 * Threads: main (listener, accepts, starts one detached handshake thread per admitted
 * connection), the handshake threads (sim_peer.c: blocking TLS/NLA accept and logon; at most the
 * pending-handshake cap, below, plus its slack), the event loops that carry logged-on sessions
 * (sim_loop.h: one per CPU), a worker thread per action in progress, one watchdog (shuts down the
 * socket of any peer still not logged on after --handshake-timeout, so a silent or stalled client
 * cannot keep a handshake thread forever). The registry lock guards every fd the watchdog
 * touches: a peer unregisters before its socket is closed. */
#ifndef SIM_SERVER_H
#define SIM_SERVER_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "simhost/desktop/cost.h"
#include "simhost/server/eventlog.h"
#include "simhost/desktop/font.h"
#include "simhost/server/opts.h"
#include "simhost/server/tls.h"
#include "simhost/server/users.h"

struct sim_peer_entry {
    int fd;                       /* the peer's socket */
    uint64_t deadline_us;         /* CLOCK_MONOTONIC; logon must complete before */
    int logged_on;
    int killed;                   /* the watchdog or shutdown already shut the socket down */
    const char *peer;             /* the client's address (FreeRDP's peer->hostname) */
    struct sim_peer_entry *prev, *next;
};

struct sim_server {
    const struct sim_opts *opts;
    struct sim_font font;
    struct sim_costs costs;
    struct sim_tls tls;
    struct sim_users users;
    struct sim_eventlog *elog;
    struct sim_eventlog *ilog;    /* --input-log */
    char home_dir[2300];          /* <state>/home: one directory per user */

    pthread_mutex_t mu;
    pthread_cond_t idle;          /* signalled when conns drops */
    struct sim_peer_entry *peers;
    int conns;                    /* live connections (handshaking, logged on or saying goodbye) */
    int sessions;                 /* logged-on sessions (for --max-sessions) */
    int pending;                  /* connections not (yet) logged on: handshakes in progress */
    unsigned next_id;
    uint64_t accepted, refused_busy, evicted;
    struct sim_loops *loops;      /* sim_loop.h, while serving */
    volatile sig_atomic_t stop;
    int busy_at_exit;             /* connections still live SIM_EXIT_WAIT_S after the stop */
};

/* Loads everything the peers share (font, certificate, accounts, event log, calibration) and
 * prints the cost table. Returns 0, or -1 after printing one error line. */
int sim_server_init(struct sim_server *srv, const struct sim_opts *o);
/* Starts the event loops, listens, prints the ready line and serves until srv->stop; then ends
 * every connection, waits for them (at most SIM_EXIT_WAIT_S) and stops the loops. Returns the
 * process exit code. When some connection is still live after that (srv->busy_at_exit), its
 * threads still use the loops and what sim_server_free frees: the caller must then leave with
 * _exit() and free nothing. */
#define SIM_EXIT_WAIT_S 10
int sim_server_run(struct sim_server *srv);
void sim_server_free(struct sim_server *srv);

/* Admission gate (called at accept, before the handshake thread exists). A pending handshake
 * costs about SIM_PENDING_COST_MB of memory (FreeRDP's peer context and the thread), so their number
 * is capped at the lower of --max-pending and --max-pending-mb / SIM_PENDING_COST_MB. At the cap
 * the oldest pending handshake still alive is shut down (its peer is logged) and the new client
 * is admitted, so a flood of half-open connections cannot keep fresh clients out; shut-down
 * handshakes whose threads have not ended yet count too, up to twice the cap, past which the new
 * connection is refused (its peer is logged). Returns 0 to admit (the caller starts the thread
 * and the connection's end calls sim_server_conn_done), or -1 to refuse. */
#define SIM_PENDING_COST_MB 3
int sim_server_admit(struct sim_server *srv, const char *peer);
int sim_server_pending_cap(const struct sim_opts *o);

/* Registry (called by the thread that owns the peer). */
void sim_server_register(struct sim_server *srv, struct sim_peer_entry *e, int fd);
void sim_server_unregister(struct sim_server *srv, struct sim_peer_entry *e);
/* Marks e logged on and counts it against --max-sessions; returns 0, or -1 when full. */
int sim_server_logon(struct sim_server *srv, struct sim_peer_entry *e);
/* A connection ends (or its thread could not start): releases what sim_server_admit counted. */
void sim_server_conn_done(struct sim_server *srv, int logged_on);

#endif

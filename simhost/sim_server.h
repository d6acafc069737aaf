/* sim_server.h -- the simhost process: shared read-only state (font, certificate, accounts, cost
 * table), the listener loop, the registry of live peer threads and the handshake watchdog.
 *
 * Threads: main (listener, accepts, starts one detached thread per peer), one thread per peer
 * (sim_peer.c: blocking TLS/NLA accept, then the session), one watchdog (shuts down the socket
 * of any peer still not logged on after --handshake-timeout, so a silent or stalled client
 * cannot keep a thread forever). The registry lock guards every fd the watchdog touches: a peer
 * unregisters before its socket is closed. */
#ifndef SIM_SERVER_H
#define SIM_SERVER_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "simhost/sim_cost.h"
#include "simhost/sim_eventlog.h"
#include "simhost/sim_font.h"
#include "simhost/sim_opts.h"
#include "simhost/sim_tls.h"
#include "simhost/sim_users.h"

struct sim_peer_entry {
    int fd;                       /* the peer's socket */
    uint64_t deadline_us;         /* CLOCK_MONOTONIC; logon must complete before */
    int logged_on;
    int killed;                   /* the watchdog or shutdown already shut the socket down */
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
    pthread_cond_t idle;          /* signalled when threads drops */
    struct sim_peer_entry *peers;
    int threads;                  /* live peer threads */
    int sessions;                 /* logged-on sessions (for --max-sessions) */
    unsigned next_id;
    uint64_t accepted, refused_busy;
    volatile sig_atomic_t stop;
};

/* Loads everything the peers share (font, certificate, accounts, event log, calibration) and
 * prints the cost table. Returns 0, or -1 after printing one error line. */
int sim_server_init(struct sim_server *srv, const struct sim_opts *o);
/* Listens, prints the ready line and serves until srv->stop; then ends every peer and waits for
 * their threads. Returns the process exit code. */
int sim_server_run(struct sim_server *srv);
void sim_server_free(struct sim_server *srv);

/* Registry (called by peer threads). */
void sim_server_register(struct sim_server *srv, struct sim_peer_entry *e, int fd);
void sim_server_unregister(struct sim_server *srv, struct sim_peer_entry *e);
/* Marks e logged on and counts it against --max-sessions; returns 0, or -1 when full. */
int sim_server_logon(struct sim_server *srv, struct sim_peer_entry *e);

#endif

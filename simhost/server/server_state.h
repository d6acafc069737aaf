/* server_state.h -- the state every part of the simhost server reads: the shared read-only
 * things (options, font, cost table, certificate, accounts, event logs), the registry of live
 * connections (guarded by mu; registry.h changes it) and the loops while serving. Types only:
 * server.h sets it up and runs it, and the parts below it (session, peer, registry) include this
 * header, never server.h, so the dependencies run one way. */
#ifndef SIM_SERVER_STATE_H
#define SIM_SERVER_STATE_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "simhost/desktop/cost.h"
#include "simhost/server/eventlog.h"
#include "simhost/desktop/font.h"
#include "simhost/server/opts.h"
#include "simhost/server/tls.h"
#include "simhost/server/users.h"

struct sim_loops;
struct sim_session;

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
    struct sim_loops *loops;      /* loop.h, while serving */
    /* Hands a session from its handshake thread over to `loops` once it is logged on or refused:
     * sim_loops_adopt, set by sim_server_run beside loops, so that peer.c, below the loops, does
     * not call up into them. */
    void (*adopt)(struct sim_loops *loops, struct sim_session *s);
    volatile sig_atomic_t stop;
    int busy_at_exit;             /* connections still live SIM_EXIT_WAIT_S after the stop */
};

#endif

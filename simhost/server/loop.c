/* loop.c -- event loops for logged-on sessions, worker threads for their actions, and the
 * non-blocking goodbye (loop.h).
 *
 * A connection is in one of four states: LIVE (the loop watches it), WORK (a worker thread owns
 * the peer; the loop has removed its events), DRAIN (goodbye sent: flushing, at most
 * SIM_LINGER_DRAIN_US) and SINK (half-closed: discarding what the client still sends until it
 * closes, at most SIM_LINGER_US). Only the thread that owns a peer ever calls FreeRDP on it. */
#include "simhost/server/loop.h"

#include "common/clock.h"
#include "common/log.h"
#include "simhost/server/drive.h"
#include "simhost/server/peer.h"

#include <errno.h>
#include <event2/event.h>
#include <event2/thread.h>
#include <freerdp/error.h>
#include <freerdp/settings.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <winpr/synch.h>

#define SIM_WORK_STACK (1u << 20)
#define SIM_LINGER_DRAIN_US 200000u
#define SIM_LINGER_US 2000000u
#define SIM_CONN_EVENTS 4           /* reread event, socket, channel manager queue (+ spare) */

enum conn_state { C_LIVE, C_WORK, C_DRAIN, C_SINK };

struct sim_evloop;

struct sim_conn {
    struct sim_session *s;
    struct sim_evloop *loop;
    enum conn_state st;
    int adopted;                    /* events created */
    struct event *ev[SIM_CONN_EVENTS];
    int nev;
    struct event *ev_write, *ev_tick, *ev_linger;
    uint64_t drain_end_us, linger_end_us;
    int work_rc;
    struct sim_conn *next;          /* in the loop's inbox */
};

struct sim_evloop {
    struct event_base *base;
    struct event *ev_inbox;
    pthread_t th;
    int started;
    pthread_mutex_t mu;
    struct sim_conn *inbox;         /* new sessions and sessions back from a worker */
};

struct sim_loops {
    struct sim_server *srv;
    int n;
    unsigned next;
    struct sim_evloop loop[SIM_LOOPS_MAX];
};

static void service(struct sim_conn *c);

/* ---- teardown ---- */

static void drop_events(struct sim_conn *c)
{
    for (int i = 0; i < c->nev; i++)
        event_free(c->ev[i]);
    c->nev = 0;
    if (c->ev_write)
        event_free(c->ev_write);
    if (c->ev_tick)
        event_free(c->ev_tick);
    if (c->ev_linger)
        event_free(c->ev_linger);
    c->ev_write = c->ev_tick = c->ev_linger = NULL;
}

static void end(struct sim_conn *c)
{
    drop_events(c);
    sim_peer_end(c->s);
    free(c);
}

/* ---- goodbye: flush, half-close, discard until the client closes ---- */

static void on_linger(evutil_socket_t fd, short what, void *arg)
{
    struct sim_conn *c = arg;
    uint64_t now = clock_now_us();
    if (c->st == C_DRAIN) {
        int r = c->s->peer->DrainOutputBuffer(c->s->peer);
        if (r > 0 && now < c->drain_end_us)
            return;
        shutdown(fd, SHUT_WR);
        c->st = C_SINK;
        event_del(c->ev_linger);
        event_assign(c->ev_linger, c->loop->base, fd, EV_READ | EV_PERSIST, on_linger, c);
        event_add(c->ev_linger, &(struct timeval){ 0, 100000 });
        return;
    }
    if (now >= c->linger_end_us) {
        end(c);
        return;
    }
    if (what & EV_READ) {
        char sink[4096];
        ssize_t n = read(fd, sink, sizeof sink);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
            end(c);
    }
}

/* Closing with unread client data would send a RST that can destroy the goodbye in flight. */
static void goodbye(struct sim_conn *c, uint32_t errinfo)
{
    sim_peer_goodbye(c->s, errinfo);
    drop_events(c);
    uint64_t now = clock_now_us();
    c->st = C_DRAIN;
    c->drain_end_us = now + SIM_LINGER_DRAIN_US;
    c->linger_end_us = now + SIM_LINGER_US;
    c->ev_linger = event_new(c->loop->base, c->s->peer->sockfd, EV_WRITE | EV_PERSIST, on_linger, c);
    if (!c->ev_linger || event_add(c->ev_linger, &(struct timeval){ 0, 10000 }) != 0)
        end(c);
}

/* ---- workers ---- */

/* The event is activated under the inbox lock: once unlocked, the loop may end the session, the
 * last connection may be gone and the loops freed (sim_server_run), so l is not touched after. */
static void post(struct sim_evloop *l, struct sim_conn *c)
{
    pthread_mutex_lock(&l->mu);
    c->next = l->inbox;
    l->inbox = c;
    event_active(l->ev_inbox, EV_READ, 0);
    pthread_mutex_unlock(&l->mu);
}

static void *worker(void *arg)
{
    struct sim_conn *c = arg;
    /* first what the loop left buffered, then the action (sim_session_write_out) */
    c->work_rc = sim_session_write_out(c->s, NULL) == 0 ? sim_session_drain(c->s, 1) : -1;
    post(c->loop, c);
    return NULL;
}

static void disarm(struct sim_conn *c)
{
    for (int i = 0; i < c->nev; i++)
        event_del(c->ev[i]);
    event_del(c->ev_write);
    event_del(c->ev_tick);
}

static void to_worker(struct sim_conn *c)
{
    pthread_attr_t attr;
    pthread_t th;
    disarm(c);
    c->st = C_WORK;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, SIM_WORK_STACK);
    int rc = pthread_create(&th, &attr, worker, c);
    pthread_attr_destroy(&attr);
    if (rc != 0) {   /* no thread: do the action here rather than lose it */
        log_ratelimited(LOG_WARN, "sim_worker", "session %u: cannot start a worker thread (%s): "
                        "the action runs on the event loop", c->s->id, strerror(rc));
        worker(c);
    }
}

/* ---- the loop side ---- */

static void arm(struct sim_conn *c)
{
    freerdp_peer *peer = c->s->peer;
    uint64_t now = clock_now_us();
    if (peer->IsWriteBlocked(peer))
        event_add(c->ev_write, NULL);
    else
        event_del(c->ev_write);
    uint64_t wake = sim_session_wake_us(c->s, now);
    if (wake)
        event_add(c->ev_tick, &(struct timeval){ (time_t)(wake / 1000000u), (suseconds_t)(wake % 1000000u) });
    else
        event_del(c->ev_tick);
}

static void service(struct sim_conn *c)
{
    struct sim_session *s = c->s;
    freerdp_peer *peer = s->peer;
    if (!s->refuse && (!peer->CheckFileDescriptor(peer) || sim_drive_check(s->drive) != 0 || s->ent.killed)) {
        end(c);
        return;
    }
    if (s->refuse) {
        goodbye(c, s->refuse);
        return;
    }
    int rc = sim_session_drain(s, 0);
    if (rc < 0) {
        end(c);
    } else if (s->logoff) {
        log_info("session %u: %s logged off", s->id, s->user);
        goodbye(c, ERRINFO_LOGOFF_BY_USER);
    } else if (rc == SIM_DRAIN_WORK) {
        to_worker(c);
    } else {
        arm(c);
    }
}

static void on_ready(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    service(arg);
}

static void on_writable(evutil_socket_t fd, short what, void *arg)
{
    struct sim_conn *c = arg;
    (void)fd, (void)what;
    if (c->s->peer->DrainOutputBuffer(c->s->peer) < 0)
        end(c);
    else
        service(c);
}

/* Creates the connection's events (not added yet). Returns 0, or -1. */
static int make_events(struct sim_conn *c)
{
    freerdp_peer *peer = c->s->peer;
    struct event_base *base = c->loop->base;
    HANDLE h[SIM_CONN_EVENTS];
    DWORD n = peer->GetEventHandles(peer, h, SIM_CONN_EVENTS - 1);
    if (n == 0)
        return -1;
    n += sim_drive_handles(c->s->drive, h + n, SIM_CONN_EVENTS - n);
    for (DWORD i = 0; i < n; i++) {
        int fd = GetEventFileDescriptor(h[i]);
        if (fd < 0 || !(c->ev[c->nev] = event_new(base, fd, EV_READ | EV_PERSIST, on_ready, c)))
            return -1;
        c->nev++;
    }
    c->ev_write = event_new(base, peer->sockfd, EV_WRITE | EV_PERSIST, on_writable, c);
    c->ev_tick = evtimer_new(base, on_ready, c);
    return c->ev_write && c->ev_tick ? 0 : -1;
}

static void rearm_reads(struct sim_conn *c)
{
    for (int i = 0; i < c->nev; i++)
        event_add(c->ev[i], NULL);
}

/* A session new on this loop, or back from a worker. */
static void receive(struct sim_conn *c)
{
    if (!c->adopted) {
        c->adopted = 1;
        freerdp_settings_set_bool(c->s->peer->settings, FreeRDP_WaitForOutputBufferFlush, FALSE);
        if (make_events(c) != 0) {
            log_warn("session %u: cannot watch its connection: closed", c->s->id);
            end(c);
            return;
        }
    } else if (c->work_rc < 0) {
        end(c);
        return;
    }
    c->st = C_LIVE;
    rearm_reads(c);
    service(c);
}

static void on_inbox(evutil_socket_t fd, short what, void *arg)
{
    struct sim_evloop *l = arg;
    (void)fd, (void)what;
    pthread_mutex_lock(&l->mu);
    struct sim_conn *c = l->inbox;
    l->inbox = NULL;
    pthread_mutex_unlock(&l->mu);
    while (c) {
        struct sim_conn *next = c->next;
        receive(c);
        c = next;
    }
}

void sim_loops_adopt(struct sim_loops *ls, struct sim_session *s)
{
    struct sim_conn *c = calloc(1, sizeof *c);
    if (!c) {
        log_warn("session %u: out of memory: closed", s->id);
        sim_peer_end(s);
        return;
    }
    unsigned i = __atomic_fetch_add(&ls->next, 1, __ATOMIC_RELAXED) % (unsigned)ls->n;
    c->s = s;
    c->loop = &ls->loop[i];
    c->st = C_LIVE;
    post(c->loop, c);
}

/* ---- threads ---- */

static void *loop_main(void *arg)
{
    struct sim_evloop *l = arg;
    event_base_loop(l->base, EVLOOP_NO_EXIT_ON_EMPTY);
    return NULL;
}

/* One loop per CPU this process may run on (taskset), at most SIM_LOOPS_MAX. */
static int loops_wanted(void)
{
    cpu_set_t set;
    int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    return n < 1 ? 1 : n > SIM_LOOPS_MAX ? SIM_LOOPS_MAX : n;
}

static int threads_ok;
static void use_threads(void) { threads_ok = evthread_use_pthreads() == 0; }

struct sim_loops *sim_loops_start(struct sim_server *srv)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, use_threads);
    struct sim_loops *ls = threads_ok ? calloc(1, sizeof *ls) : NULL;
    if (!ls) {
        log_error("cannot start the event loops (%s)", threads_ok ? "out of memory" : "libevent without pthreads");
        return NULL;
    }
    ls->srv = srv;
    ls->n = loops_wanted();
    for (int i = 0; i < ls->n; i++) {
        struct sim_evloop *l = &ls->loop[i];
        pthread_mutex_init(&l->mu, NULL);
        l->base = event_base_new();
        l->ev_inbox = l->base ? event_new(l->base, -1, 0, on_inbox, l) : NULL;
        if (!l->ev_inbox || pthread_create(&l->th, NULL, loop_main, l) != 0) {
            log_error("cannot start the event loops");
            sim_loops_stop(ls);
            return NULL;
        }
        l->started = 1;
    }
    return ls;
}

int sim_loops_count(const struct sim_loops *ls) { return ls ? ls->n : 0; }

void sim_loops_stop(struct sim_loops *ls)
{
    if (!ls)
        return;
    for (int i = 0; i < ls->n; i++) {
        struct sim_evloop *l = &ls->loop[i];
        if (l->started) {
            event_base_loopbreak(l->base);
            pthread_join(l->th, NULL);
        }
        if (l->ev_inbox)
            event_free(l->ev_inbox);
        if (l->base)
            event_base_free(l->base);
        pthread_mutex_destroy(&l->mu);
    }
    free(ls);
}

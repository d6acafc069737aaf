/* registry.c -- the registry of live connections and the admission gate (see registry.h). */
#include "simhost/server/registry.h"

#include "common/clock.h"
#include "common/log.h"

#include <pthread.h>
#include <sys/socket.h>

void sim_server_register(struct sim_server *srv, struct sim_peer_entry *e, int fd)
{
    pthread_mutex_lock(&srv->mu);
    e->fd = fd;
    e->deadline_us = clock_now_us() + (uint64_t)srv->opts->handshake_timeout_s * 1000000u;
    e->prev = NULL;
    e->next = srv->peers;
    if (srv->peers)
        srv->peers->prev = e;
    srv->peers = e;
    if (srv->stop && !e->killed) {
        e->killed = 1;
        shutdown(fd, SHUT_RDWR);
    }
    pthread_mutex_unlock(&srv->mu);
}

void sim_server_unregister(struct sim_server *srv, struct sim_peer_entry *e)
{
    pthread_mutex_lock(&srv->mu);
    if (e->prev)
        e->prev->next = e->next;
    else
        srv->peers = e->next;
    if (e->next)
        e->next->prev = e->prev;
    if (e->logged_on)
        srv->sessions--;
    e->logged_on = 0;
    e->fd = -1;
    pthread_mutex_unlock(&srv->mu);
}

int sim_server_logon(struct sim_server *srv, struct sim_peer_entry *e)
{
    int rc = 0;
    pthread_mutex_lock(&srv->mu);
    if (srv->opts->max_sessions > 0 && srv->sessions >= srv->opts->max_sessions)
        rc = -1;
    else {
        srv->sessions++;
        srv->pending--;
        e->logged_on = 1;
    }
    pthread_mutex_unlock(&srv->mu);
    return rc;
}

int sim_server_pending_cap(const struct sim_opts *o)
{
    int by_mem = o->max_pending_mb / SIM_PENDING_COST_MB;
    int cap = o->max_pending < by_mem ? o->max_pending : by_mem;
    return cap > 0 ? cap : 1;
}

/* The oldest registered handshake not yet shut down (the list is newest first), or NULL; *dead
 * counts the pending handshakes already shut down whose threads have not ended. */
static struct sim_peer_entry *oldest_pending(struct sim_server *srv, int *dead)
{
    struct sim_peer_entry *old = NULL;
    *dead = 0;
    for (struct sim_peer_entry *e = srv->peers; e; e = e->next)
        if (!e->logged_on) {
            if (e->killed)
                (*dead)++;
            else
                old = e;
        }
    return old;
}

int sim_server_admit(struct sim_server *srv, const char *peer)
{
    int cap = sim_server_pending_cap(srv->opts), dead;
    pthread_mutex_lock(&srv->mu);
    srv->accepted++;
    if (srv->conns >= srv->opts->max_conns || srv->stop) {
        srv->refused_busy++;
        pthread_mutex_unlock(&srv->mu);
        log_ratelimited(LOG_WARN, "sim_busy", "peer %s: refused: %d connections live (--max-conns)",
                        peer, srv->opts->max_conns);
        return -1;
    }
    struct sim_peer_entry *old = srv->pending >= cap ? oldest_pending(srv, &dead) : NULL;
    if (srv->pending >= cap && (srv->pending >= 2 * cap || (!old && srv->pending - dead >= cap))) {
        srv->refused_busy++;
        pthread_mutex_unlock(&srv->mu);
        log_ratelimited(LOG_WARN, "sim_pending", "peer %s: refused: %d handshakes pending (--max-pending %d)",
                        peer, srv->pending, cap);
        return -1;
    }
    if (old && srv->pending - dead >= cap) {
        old->killed = 1;
        shutdown(old->fd, SHUT_RDWR);
        srv->evicted++;
        log_ratelimited(LOG_WARN, "sim_evict", "peer %s: handshake shut down to admit peer %s "
                        "(%d handshakes pending, --max-pending %d)", old->peer, peer, srv->pending, cap);
    }
    srv->conns++;
    srv->pending++;
    pthread_mutex_unlock(&srv->mu);
    return 0;
}

void sim_server_conn_done(struct sim_server *srv, int logged_on)
{
    pthread_mutex_lock(&srv->mu);
    srv->conns--;
    if (!logged_on)
        srv->pending--;
    pthread_cond_broadcast(&srv->idle);
    pthread_mutex_unlock(&srv->mu);
}

/* server.c -- shared state, listener loop and handshake watchdog (the registry is registry.c). */
#include "simhost/server/server.h"

#include "common/clock.h"
#include "common/log.h"
#include "compat/bulk_tables.h"
#include "compat/codec_threads.h"
#include "simhost/desktop/apps.h"
#include "simhost/desktop/codec.h"
#include "simhost/server/loop.h"
#include "simhost/server/metrics.h"
#include "simhost/server/peer.h"

#include <errno.h>
#include <freerdp/listener.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <winpr/synch.h>
#include <winpr/wlog.h>

static int mkdir_p(const char *path, char *err, size_t errlen)
{
    char tmp[2300];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
            goto fail;
        *p = '/';
    }
    if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
        goto fail;
    return 0;
fail:
    snprintf(err, errlen, "%.900s: cannot create directory: %s", tmp, strerror(errno));
    return -1;
}

int sim_server_init(struct sim_server *srv, const struct sim_opts *o)
{
    char err[1024], calib[2400];
    memset(srv, 0, sizeof *srv);
    srv->opts = o;
    pthread_mutex_init(&srv->mu, NULL);
    pthread_cond_init(&srv->idle, NULL);
    snprintf(srv->home_dir, sizeof srv->home_dir, "%s/home", o->state_dir);
    snprintf(calib, sizeof calib, "%s/calibration", o->state_dir);
    if (mkdir_p(o->state_dir, err, sizeof err) || mkdir_p(srv->home_dir, err, sizeof err))
        goto fail;
    if (sim_font_load(&srv->font, SIM_FONT_PATH, 13, err, sizeof err))
        goto fail;
    if (!o->calibrate_only && !o->predict && !o->plan) {
        if (sim_users_load(&srv->users, o->users, o->users_file, err, sizeof err))
            goto fail;
        if (sim_tls_load(&srv->tls, o->state_dir, o->cert, o->key, err, sizeof err))
            goto fail;
        /* compression off (bulk.h): no peer needs bulk contexts */
        if (!bulk_tables_none() && bulk_tables_init() != 0)
            log_warn("FreeRDP's bulk context constructors were not found: sessions cannot connect");
        codec_threads_off();   /* no RemoteFX thread pools, should a codec context be made */
        if (o->nla && !o->sam_file) {
            snprintf(err, sizeof err, "--nla needs --sam-file F (make one with: winpr-hash -u simuser001 -p PASSWORD -f sam)");
            goto fail;
        }
        if (o->event_log && !(srv->elog = sim_eventlog_open(o->event_log))) {
            snprintf(err, sizeof err, "%s: cannot open event log: %s", o->event_log, strerror(errno));
            goto fail;
        }
        if (o->input_log && !(srv->ilog = sim_eventlog_open(o->input_log))) {
            snprintf(err, sizeof err, "%s: cannot open input log: %s", o->input_log, strerror(errno));
            goto fail;
        }
    }
    /* serving: one quick measurement for the printed table; predicting: the least of several */
    unsigned reps = o->calibrate_only || o->predict || o->plan ? SIM_COST_PREDICT_REPS : 1;
    if (sim_cost_calibrate_reps(&srv->costs, calib, o->work_scale, &srv->font, reps, err, sizeof err))
        goto fail;
    return 0;
fail:
    log_error("%s", err);
    return -1;
}

void sim_server_free(struct sim_server *srv)
{
    sim_eventlog_close(srv->elog);
    sim_eventlog_close(srv->ilog);
    sim_tls_free(&srv->tls);
    sim_users_free(&srv->users);
    sim_font_free(&srv->font);
    pthread_cond_destroy(&srv->idle);
    pthread_mutex_destroy(&srv->mu);
}

/* Shuts down the socket of every peer past its logon deadline (or all, on stop). */
static void *watchdog(void *arg)
{
    struct sim_server *srv = arg;
    pthread_mutex_lock(&srv->mu);
    while (!srv->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&srv->idle, &srv->mu, &ts);
        uint64_t now = clock_now_us();
        for (struct sim_peer_entry *e = srv->peers; e; e = e->next) {
            if (!e->logged_on && !e->killed && now > e->deadline_us) {
                e->killed = 1;
                shutdown(e->fd, SHUT_RDWR);
                log_ratelimited(LOG_INFO, "sim_deadline", "a client did not finish logon within %d s: "
                                "connection closed", srv->opts->handshake_timeout_s);
            }
        }
    }
    pthread_mutex_unlock(&srv->mu);
    return NULL;
}

/* Ends every connection: shut their sockets down, then wait for them to end until a deadline
 * (not a count of wake-ups: every connection that ends wakes this wait). Returns how many are
 * still live after SIM_EXIT_WAIT_S. */
static int stop_peers(struct sim_server *srv)
{
    sim_apps_cancel();
    pthread_mutex_lock(&srv->mu);
    srv->stop = 1;
    for (struct sim_peer_entry *e = srv->peers; e; e = e->next)
        if (!e->killed) {
            e->killed = 1;
            shutdown(e->fd, SHUT_RDWR);
        }
    pthread_cond_broadcast(&srv->idle);
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += SIM_EXIT_WAIT_S;
    while (srv->conns > 0 && pthread_cond_timedwait(&srv->idle, &srv->mu, &deadline) != ETIMEDOUT)
        ;
    int left = srv->conns;
    if (left > 0)
        log_warn("%d connections still busy %d s after shutdown: exiting without them", left, SIM_EXIT_WAIT_S);
    pthread_mutex_unlock(&srv->mu);
    return left;
}

int sim_server_run(struct sim_server *srv)
{
    const struct sim_opts *o = srv->opts;
    freerdp_listener *l = freerdp_listener_new();
    pthread_t wd;
    int wd_started = 0, rc = 1;
    struct sim_metrics *metrics = NULL;
    if (!l || !(srv->loops = sim_loops_start(srv)))
        goto done;
    srv->adopt = sim_loops_adopt;
    l->info = srv;
    l->PeerAccepted = sim_peer_accepted;
    if (!l->Open(l, o->host, (UINT16)o->port)) {
        log_error("%s:%d: cannot listen (port in use, or not a local address?)", o->host, o->port);
        goto done;
    }
    if (pthread_create(&wd, NULL, watchdog, srv) != 0)
        goto done;
    wd_started = 1;
    printf("sessmax-simhost: platform simhost/%s, up to %d bpp\n", sim_codec_name(o->codec), o->bpp);
    if (o->metrics_listen && !(metrics = sim_metrics_start(srv, o->metrics_listen)))
        goto done;
    printf("sessmax-simhost: listening on %s:%d fingerprint %s\n", o->host, o->port, srv->tls.fingerprint);
    fflush(stdout);
    while (!srv->stop) {
        HANDLE h[32];
        DWORD n = l->GetEventHandles(l, h, 32);
        if (n == 0)
            break;
        DWORD w = WaitForMultipleObjects(n, h, FALSE, 500);
        if (srv->stop)
            break;
        if (w == WAIT_FAILED)
            break;
        if (!l->CheckFileDescriptor(l)) {
            /* accept() failed (EMFILE, ENFILE, ...): back off instead of spinning */
            log_ratelimited(LOG_WARN, "sim_accept", "accept failed: %s", strerror(errno));
            usleep(50 * 1000);
        }
    }
    rc = 0;
done:
    sim_metrics_stop(metrics);
    if (l) {
        l->Close(l);
        freerdp_listener_free(l);
    }
    srv->busy_at_exit = stop_peers(srv);
    if (!srv->busy_at_exit) {   /* else a session may still be on a loop: see busy_at_exit */
        sim_loops_stop(srv->loops);
        srv->loops = NULL;
    }
    if (wd_started)
        pthread_join(wd, NULL);
    return rc;
}

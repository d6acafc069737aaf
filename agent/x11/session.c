/* session.c -- one simulated user through an external X11 client: the processes in order
 * (launch.h), the client's screen and input as a driver for the interpreter, and exactly one
 * terminal record. States and failure reasons are described in session.h. */
#include "agent/x11/session.h"

#include <stddef.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/interp/interp.h"
#include "agent/driver/screen.h"
#include "agent/engine/session_life.h"
#include "agent/x11/display.h"
#include "agent/x11/failure.h"
#include "agent/x11/input.h"
#include "agent/x11/launch.h"
#include "agent/x11/start.h"
#include "agent/x11/traffic.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/x11_preset.h"

/* Bound on each wait of the start (the X server's display number, the password helper). */
#define X11_SESSION_START_WAIT_MS 30000u

struct x11_session {
    struct session_life l;              /* identity, state, records, end, interpreter; the
                                         * password is wiped once the client has it */
    char dir[4096];
    struct x11_start st;                /* the start on a connector worker; then the processes
                                         * and the display it left, watched on the loop */
    int starting;                       /* st.job queued or running: its results are not ours yet */
    int stop_asked;                     /* logoff or kill while starting: ended by started() */
    enum failure_reason stop_reason;
    char stop_detail[RESULTS_DETAIL_LEN];
    struct event *x_ev, *window_ev, *traffic_ev;
    uint32_t frames;                    /* batches of damage handed to the interpreter */
    struct rec_traffic wire;            /* the client's TCP counters as last read (they stay
                                         * when its connection has closed) */
    struct x11_traffic sockets;         /* the client's TCP sockets, held between reads */
    int traffic_warned;
};

/* ---------------------------------------------------------------- the end */

static int terminal(const struct x11_session *s)
{
    return session_life_terminal(&s->l);
}

/* Stops what runs without waiting for it: the processes' exits are reaped on the loop later
 * (or by x11_session_free). */
static void traffic_cb(evutil_socket_t fd, short what, void *arg);

static void teardown(void *owner)
{
    struct x11_session *s = owner;
    if (s->traffic_ev && event_pending(s->traffic_ev, EV_TIMEOUT, NULL)) {
        traffic_cb(-1, 0, s);           /* a session shorter than the interval has its bytes */
        event_del(s->traffic_ev);
    }
    x11_traffic_close(&s->sockets);
    interp_free(s->l.interp);
    s->l.interp = NULL;
    if (s->x_ev)
        event_del(s->x_ev);
    event_del(s->window_ev);
    x11_display_close(s->st.dpy);
    s->st.dpy = NULL;
    x11_proc_stop(s->st.client);
    x11_proc_stop(s->st.xserver);
    if (s->dir[0])
        x11_launch_forget_secrets(s->dir);
    session_life_wipe_password(&s->l);
}

/* ---------------------------------------------------------------- driver ops */

static int live(const struct x11_session *s)
{
    return s->st.dpy && !s->l.finish_pending &&
           (s->l.state == SESSION_ST_LOGON || s->l.state == SESSION_ST_RUNNING ||
            s->l.state == SESSION_ST_LOGOFF);
}

/* After a call that may have read events into Xlib's queue (a flush, a round trip): handle
 * them on the next loop turn, since the fd will not say so. */
static int after_input(struct x11_session *s, int rc)
{
    if (rc == 0 && x11_display_pending(s->st.dpy))
        event_active(s->x_ev, EV_READ, 0);
    return rc;
}

static int op_key(void *sess, uint32_t code, int down)
{
    struct x11_session *s = sess;
    return live(s) ? after_input(s, x11_display_key(s->st.dpy, x11_keycode_of_scancode(code), down)) : -1;
}

static int op_unicode(void *sess, uint16_t c, int down)
{
    struct x11_session *s = sess;
    return live(s) ? after_input(s, x11_display_unicode(s->st.dpy, c, down)) : -1;
}

static int op_mouse(void *sess, uint16_t flags, uint16_t x, uint16_t y)
{
    struct x11_session *s = sess;
    return live(s) ? after_input(s, x11_display_pointer(s->st.dpy, flags, x, y)) : -1;
}

static int op_screen(void *sess, struct screen_view *out)
{
    struct x11_session *s = sess;
    return s->st.dpy ? x11_display_screen(s->st.dpy, out) : -1;
}

static int op_save_png(void *sess, const char *path)
{
    return x11_session_save_png(sess, path);
}

static int op_refresh(void *sess)
{
    struct x11_session *s = sess;
    return live(s) ? x11_display_expose(s->st.dpy) : -1;
}

static const struct driver_ops x11_driver = {
    .key = op_key, .unicode = op_unicode, .mouse = op_mouse,
    .screen = op_screen, .save_png = op_save_png, .refresh = op_refresh,
};

/* ---------------------------------------------------------------- interpreter callbacks */

static void logon_cb(void *sess, int ok, int64_t logon_us)
{
    struct x11_session *s = sess;
    char detail[RESULTS_DETAIL_LEN] = "";
    uint32_t repaints = s->l.interp ? interp_logon_repaints(s->l.interp) : 0;
    if (s->l.state != SESSION_ST_LOGON)
        return;
    if (!ok) {
        snprintf(detail, sizeof detail, "desktop-ready condition did not hold in time "
                 "(expose requests: %u)", repaints);
        session_life_finish_later(&s->l, FAIL_LOGON_TIMEOUT, detail);
        return;
    }
    if (repaints)
        snprintf(detail, sizeof detail, "expose requests: %u", repaints);
    session_life_active(&s->l, logon_us, detail, NULL);
}

static void loops_done_cb(void *sess)
{
    x11_session_logoff(sess);
}

static void finished_cb(void *sess, enum failure_reason reason, const char *detail)
{
    struct x11_session *s = sess;
    session_life_finish_later(&s->l, reason, detail);
}

/* CONNECTING -> LOGON: the client's window is there. */
static void window_appeared(struct x11_session *s)
{
    event_del(s->window_ev);
    s->l.state = SESSION_ST_LOGON;
    if (!s->l.wl) {
        logon_cb(s, 1, (int64_t)(clock_now_us() - s->l.t0_us));
        return;
    }
    static const struct session_life_calls calls = {
        .driver = &x11_driver, .on_logon = logon_cb, .on_loops_done = loops_done_cb,
        .on_finished = finished_cb,
    };
    session_life_start_interp(&s->l, &calls);
}

/* ---------------------------------------------------------------- processes and X events */

static void x_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct x11_session *s = arg;
    struct rect rects[SCREEN_MAX_RECTS];
    size_t n = 0;
    int mapped = 0;
    if (!s->st.dpy || terminal(s) || s->l.finish_pending)
        return;
    if (x11_display_pump(s->st.dpy, rects, SCREEN_MAX_RECTS, &n, &mapped) != 0) {
        session_life_finish_later(&s->l, FAIL_XSERVER, "the connection to the X server (Xvfb) broke");
        return;
    }
    if (mapped && s->l.state == SESSION_ST_CONNECTING && s->st.client)
        window_appeared(s);
    if (n)
        s->frames++;
    if (n && s->l.interp && !s->l.finish_pending)
        interp_on_paint(s->l.interp, rects, n);
    if (s->st.dpy && !s->l.finish_pending)
        after_input(s, 0);
}

/* The client's own TCP connection, read from outside it (traffic.h), as the same traffic
 * record an engine session sends. Above-TLS payload is not known outside the client: bytes_in
 * and bytes_out carry the TCP bytes, as wire_in and wire_out do. */
static void traffic_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct x11_session *s = arg;
    struct rec_traffic now = { 0 };
    if (!s->l.h->sink->traffic || !s->st.client)
        return;
    int rc = 0;
    if (x11_proc_running(s->st.client))
        rc = x11_traffic_read(&s->sockets, x11_proc_pid(s->st.client), x11_proc_pidfd(s->st.client), &now);
    else
        x11_traffic_close(&s->sockets);
    if (rc < 0 && !s->traffic_warned) {
        s->traffic_warned = 1;
        log_warn("session %u: cannot read the client's sockets (pidfd_getfd); no traffic figures",
                 s->l.index);
    }
    if (rc > 0 && now.wire_in + now.wire_out >= s->wire.wire_in + s->wire.wire_out)
        s->wire = now;
    struct rec_traffic t = s->wire;
    t.session = s->l.index;
    t.t_us = clock_wall_us();
    t.frames = s->frames;
    t.bytes_in = t.wire_in;
    t.bytes_out = t.wire_out;
    s->l.h->sink->traffic(s->l.h->sink->ctx, &t);
}

static void client_exit(void *arg, int status)
{
    struct x11_session *s = arg;
    char tail[96], detail[RESULTS_DETAIL_LEN], path[4096];
    x11_traffic_close(&s->sockets);     /* its connection must not outlive it in our hands */
    if (terminal(s) || s->l.finish_pending)
        return;
    int logging_off = s->l.state == SESSION_ST_LOGOFF, xserver_gone = x11_proc_gone(s->st.xserver);
    x11_launch_stderr_tail(s->dir, tail, sizeof tail);
    enum failure_reason r = x11_failure_client_exit(status, logging_off, xserver_gone, tail, detail,
                                                    sizeof detail);
    if (r == FAIL_CLIENT_EXIT && s->l.h->cfg->shot_dir) {
        snprintf(path, sizeof path, "%s/%s-client-stderr.txt", s->l.h->cfg->shot_dir, s->l.user);
        if (x11_launch_save_stderr(s->dir, path) != 0)
            log_warn("session %u: cannot save the client's stderr to %s", s->l.index, path);
    }
    session_life_finish_later(&s->l, r, detail);
}

static void xserver_exit(void *arg, int status)
{
    struct x11_session *s = arg;
    char detail[RESULTS_DETAIL_LEN];
    session_life_finish_later(&s->l, x11_failure_xserver_exit(status, detail, sizeof detail), detail);
}

/* Loop thread: the start on the worker is over. Its processes are watched from now on, whatever
 * happens next (teardown stops them, x11_session_free reaps them). */
static void started(struct connector_job *j)
{
    struct x11_session *s = (struct x11_session *)((char *)j - offsetof(struct x11_session, st.job));
    s->starting = 0;
    session_life_wipe_password(&s->l);
    if ((s->st.xserver && x11_proc_watch(s->st.xserver, s->l.h->base, xserver_exit, s) != 0) ||
        (s->st.client && x11_proc_watch(s->st.client, s->l.h->base, client_exit, s) != 0)) {
        session_life_end(&s->l, FAIL_INTERNAL, "cannot watch the session's processes");
        return;
    }
    if (s->stop_asked) {
        session_life_end(&s->l, s->stop_reason, s->stop_detail);
        return;
    }
    if (s->st.reason != FAIL_NONE) {
        session_life_end(&s->l, s->st.reason, s->st.detail);
        return;
    }
    s->l.t0_us = s->st.client_started_us;
    uint64_t since = clock_now_us() - s->l.t0_us, ms = s->l.h->cfg->client->window_timeout_ms;
    uint64_t left_us = ms * 1000 > since ? ms * 1000 - since : 0;
    struct timeval tv = { (time_t)(left_us / 1000000), (suseconds_t)(left_us % 1000000) };
    event_add(s->window_ev, &tv);
    s->x_ev = event_new(s->l.h->base, x11_display_fd(s->st.dpy), EV_READ | EV_PERSIST, x_cb, s);
    if (!s->x_ev || event_add(s->x_ev, NULL) != 0) {
        session_life_end(&s->l, FAIL_INTERNAL, "cannot watch the X connection");
        return;
    }
    event_active(s->x_ev, EV_READ, 0);  /* what Xlib already queued while starting */
    uint32_t every = s->l.h->cfg->traffic_interval_ms;
    if (every && s->st.client) {
        struct timeval iv = { every / 1000, (suseconds_t)(every % 1000) * 1000 };
        event_add(s->traffic_ev, &iv);
    }
}

static void window_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct x11_session *s = arg;
    char detail[RESULTS_DETAIL_LEN];
    if (s->l.state != SESSION_ST_CONNECTING)
        return;
    snprintf(detail, sizeof detail, "no client window within %u ms of its start",
             s->l.h->cfg->client->window_timeout_ms);
    session_life_finish_later(&s->l, FAIL_CLIENT_TIMEOUT, detail);
}

/* ---------------------------------------------------------------- public */

struct x11_session *x11_session_new(const struct session_host *h, const char *run_dir,
                                    const struct engine_session_spec *spec)
{
    struct x11_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    static const struct session_life_ops ops = { .teardown = teardown };
    x11_traffic_init(&s->sockets);
    int ok = session_life_init(&s->l, h, spec, &ops, s) == 0;
    snprintf(s->dir, sizeof s->dir, "%s/s%u", run_dir, s->l.index);
    s->window_ev = evtimer_new(h->base, window_timeout_cb, s);
    s->traffic_ev = event_new(h->base, -1, EV_PERSIST, traffic_cb, s);
    if (!ok || !s->window_ev || !s->traffic_ev) {
        x11_session_free(s);
        return NULL;
    }
    return s;
}

void x11_session_start(struct x11_session *s)
{
    if (session_life_launch(&s->l) != 0)
        return;
    s->st.job.work = x11_start_work;
    s->st.job.done = started;
    s->st.wait_ms = X11_SESSION_START_WAIT_MS;
    s->st.ctx = (struct x11_launch_ctx){ .cfg = s->l.h->cfg, .dir = s->dir, .user = s->l.user,
                                         .password = s->l.password };
    s->starting = 1;
    connector_submit(s->l.h->conn, &s->st.job);
}

/* An end asked while the start runs on a worker waits for started(); a start still queued is
 * taken back. */
static void stop(struct x11_session *s, enum failure_reason reason, const char *detail)
{
    if (s->starting && connector_cancel(s->l.h->conn, &s->st.job))
        s->starting = 0;
    if (!s->starting) {
        session_life_end(&s->l, reason, detail);
        return;
    }
    if (!s->stop_asked) {
        s->stop_asked = 1;
        s->stop_reason = reason;
        snprintf(s->stop_detail, sizeof s->stop_detail, "%s", detail ? detail : "");
    }
    x11_start_abort(&s->st);
}

void x11_session_logoff(struct x11_session *s)
{
    if (session_life_logoff(&s->l))             /* NEW, CONNECTING */
        stop(s, FAIL_ABORTED, "logoff requested before the client's window appeared");
}

void x11_session_kill(struct x11_session *s, enum failure_reason reason, const char *detail)
{
    stop(s, reason, detail);
}

void x11_session_abort_start(struct x11_session *s)
{
    if (s)
        x11_start_abort(&s->st);
}

const struct session_life *x11_session_life(const struct x11_session *s)
{
    return &s->l;
}

int x11_session_screen(struct x11_session *s, struct screen_view *out)
{
    return op_screen(s, out);
}

int x11_session_save_png(struct x11_session *s, const char *path)
{
    struct screen_view v;
    if (op_screen(s, &v) != 0) {
        log_warn("session %u: no screen to save to %s", s->l.index, path);
        return -1;
    }
    return screen_write_png(&v, path);
}

int x11_session_pids(const struct x11_session *s, pid_t *client, pid_t *xserver)
{
    *client = *xserver = 0;
    if (s->starting)                    /* the worker still owns the processes */
        return 0;
    if (x11_proc_running(s->st.client))
        *client = x11_proc_pid(s->st.client);
    if (x11_proc_running(s->st.xserver))
        *xserver = x11_proc_pid(s->st.xserver);
    return *client || *xserver;
}

void x11_session_free(struct x11_session *s)
{
    if (!s)
        return;
    if (s->traffic_ev)
        event_del(s->traffic_ev);       /* no record from here: the sink may be gone */
    teardown(s);
    x11_proc_free(s->st.client);
    x11_proc_free(s->st.xserver);
    if (s->x_ev)
        event_free(s->x_ev);
    if (s->window_ev)
        event_free(s->window_ev);
    if (s->traffic_ev)
        event_free(s->traffic_ev);
    session_life_release(&s->l);
    free(s);
}

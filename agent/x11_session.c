/* x11_session.c -- one simulated user through an external X11 client: the processes in order
 * (x11_launch.h), the client's screen and input as a driver for the interpreter, and exactly one
 * terminal record. States and failure reasons are described in x11_session.h. */
#include "agent/x11_session.h"

#include <errno.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/interp.h"
#include "agent/screen.h"
#include "agent/session_life.h"
#include "agent/x11_display.h"
#include "agent/x11_keys.h"
#include "agent/x11_launch.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/x11_preset.h"

struct x11_session {
    struct session_life l;              /* identity, state, records, end, interpreter; the
                                         * password is wiped once the client has it */
    char dir[4096], display[16], dpybuf[16];
    size_t dpylen;

    struct x11_proc *xserver, *helper, *client;
    struct x11_display *dpy;
    int ready_fd;
    struct event *ready_ev, *x_ev, *window_ev;
};

/* ---------------------------------------------------------------- the end */

static int terminal(const struct x11_session *s)
{
    return session_life_terminal(&s->l);
}

/* Stops what runs without waiting for it: the processes' exits are reaped on the loop later
 * (or by x11_session_free). */
static void teardown(void *owner)
{
    struct x11_session *s = owner;
    interp_free(s->l.interp);
    s->l.interp = NULL;
    if (s->x_ev)
        event_del(s->x_ev);
    if (s->ready_ev)
        event_del(s->ready_ev);
    event_del(s->window_ev);
    x11_display_close(s->dpy);
    s->dpy = NULL;
    if (s->ready_fd >= 0)
        close(s->ready_fd);
    s->ready_fd = -1;
    x11_proc_stop(s->helper);
    x11_proc_stop(s->client);
    x11_proc_stop(s->xserver);
    if (s->dir[0])
        x11_launch_forget_secrets(s->dir);
    session_life_wipe_password(&s->l);
}

/* ---------------------------------------------------------------- driver ops */

static int live(const struct x11_session *s)
{
    return s->dpy && !s->l.finish_pending &&
           (s->l.state == SESSION_ST_LOGON || s->l.state == SESSION_ST_RUNNING ||
            s->l.state == SESSION_ST_LOGOFF);
}

/* After a call that may have read events into Xlib's queue (a flush, a round trip): handle
 * them on the next loop turn, since the fd will not say so. */
static int after_input(struct x11_session *s, int rc)
{
    if (rc == 0 && x11_display_pending(s->dpy))
        event_active(s->x_ev, EV_READ, 0);
    return rc;
}

static int op_key(void *sess, uint32_t code, int down)
{
    struct x11_session *s = sess;
    return live(s) ? after_input(s, x11_display_key(s->dpy, x11_keycode_of_scancode(code), down)) : -1;
}

static int op_unicode(void *sess, uint16_t c, int down)
{
    struct x11_session *s = sess;
    return live(s) ? after_input(s, x11_display_unicode(s->dpy, c, down)) : -1;
}

static int op_mouse(void *sess, uint16_t flags, uint16_t x, uint16_t y)
{
    struct x11_session *s = sess;
    return live(s) ? after_input(s, x11_display_pointer(s->dpy, flags, x, y)) : -1;
}

static int op_screen(void *sess, struct screen_view *out)
{
    struct x11_session *s = sess;
    return s->dpy ? x11_display_screen(s->dpy, out) : -1;
}

static int op_save_png(void *sess, const char *path)
{
    return x11_session_save_png(sess, path);
}

static int op_refresh(void *sess)
{
    struct x11_session *s = sess;
    return live(s) ? x11_display_expose(s->dpy) : -1;
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
    session_life_active(&s->l, logon_us, detail);
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
    if (!s->dpy || terminal(s) || s->l.finish_pending)
        return;
    if (x11_display_pump(s->dpy, rects, SCREEN_MAX_RECTS, &n, &mapped) != 0) {
        session_life_finish_later(&s->l, FAIL_XSERVER, "the connection to the X server broke");
        return;
    }
    if (mapped && s->l.state == SESSION_ST_CONNECTING && s->client)
        window_appeared(s);
    if (n && s->l.interp && !s->l.finish_pending)
        interp_on_paint(s->l.interp, rects, n);
    if (s->dpy && !s->l.finish_pending)
        after_input(s, 0);
}

static void client_exit(void *arg, int status)
{
    struct x11_session *s = arg;
    char how[64], tail[96], detail[RESULTS_DETAIL_LEN], path[4096];
    if (terminal(s) || s->l.finish_pending)
        return;
    if (s->l.state == SESSION_ST_LOGOFF) {      /* the workload's logoff ended the remote session */
        session_life_finish_later(&s->l, FAIL_NONE, "client exited after logoff");
        return;
    }
    x11_proc_describe(status, how, sizeof how);
    x11_launch_stderr_tail(s->dir, tail, sizeof tail);
    snprintf(detail, sizeof detail, "client %.60s%s%.90s", how, tail[0] ? ": " : "", tail);
    if (s->l.h->cfg->shot_dir) {
        snprintf(path, sizeof path, "%s/%s-client-stderr.txt", s->l.h->cfg->shot_dir, s->l.user);
        if (x11_launch_save_stderr(s->dir, path) != 0)
            log_warn("session %u: cannot save the client's stderr to %s", s->l.index, path);
    }
    session_life_finish_later(&s->l, FAIL_CLIENT_EXIT, detail);
}

static void xserver_exit(void *arg, int status)
{
    struct x11_session *s = arg;
    char how[64], detail[RESULTS_DETAIL_LEN];
    x11_proc_describe(status, how, sizeof how);
    snprintf(detail, sizeof detail, "X server (Xvfb) %s", how);
    session_life_finish_later(&s->l, FAIL_XSERVER, detail);
}

static void start_client(struct x11_session *s)
{
    char err[RESULTS_DETAIL_LEN];
    struct x11_launch_ctx c = { .cfg = s->l.h->cfg, .dir = s->dir, .display = s->display,
                                .user = s->l.user, .password = s->l.password };
    s->l.t0_us = clock_now_us();
    s->client = x11_launch_client(s->l.h->base, &c, client_exit, s, err, sizeof err);
    session_life_wipe_password(&s->l);
    if (!s->client)
        session_life_finish_later(&s->l, FAIL_INTERNAL, err);
}

static void helper_exit(void *arg, int status)
{
    struct x11_session *s = arg;
    char how[64], detail[RESULTS_DETAIL_LEN];
    if (terminal(s) || s->l.finish_pending)
        return;
    if (status != 0) {
        x11_proc_describe(status, how, sizeof how);
        snprintf(detail, sizeof detail, "password helper %s", how);
        session_life_finish_later(&s->l, FAIL_INTERNAL, detail);
        return;
    }
    start_client(s);
}

/* Xvfb is ready (display number on the pipe): connect to it, then the helper or the client. */
static void xserver_ready(struct x11_session *s, int number)
{
    char err[RESULTS_DETAIL_LEN], fb[4200];
    int needed;
    snprintf(s->display, sizeof s->display, ":%d", number);
    snprintf(fb, sizeof fb, "%s/Xvfb_screen0", s->dir);
    if (!(s->dpy = x11_display_open(s->display, fb, err, sizeof err))) {
        session_life_finish_later(&s->l, FAIL_XSERVER, err);
        return;
    }
    s->x_ev = event_new(s->l.h->base, x11_display_fd(s->dpy), EV_READ | EV_PERSIST, x_cb, s);
    if (!s->x_ev || event_add(s->x_ev, NULL) != 0) {
        session_life_finish_later(&s->l, FAIL_INTERNAL, "cannot watch the X connection");
        return;
    }
    struct x11_launch_ctx c = { .cfg = s->l.h->cfg, .dir = s->dir, .display = s->display,
                                .user = s->l.user, .password = s->l.password };
    s->helper = x11_launch_helper(s->l.h->base, &c, &needed, helper_exit, s, err, sizeof err);
    if (needed && !s->helper)
        session_life_finish_later(&s->l, FAIL_INTERNAL, err);
    else if (!needed)
        start_client(s);
}

static void ready_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)what;
    struct x11_session *s = arg;
    int n = x11_launch_read_display(fd, s->dpybuf, sizeof s->dpybuf, &s->dpylen);
    if (n == -1)
        return;
    event_del(s->ready_ev);
    close(s->ready_fd);
    s->ready_fd = -1;
    if (n < 0)
        session_life_finish_later(&s->l, FAIL_XSERVER, "Xvfb did not say its display number");
    else
        xserver_ready(s, n);
}

static void window_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct x11_session *s = arg;
    char detail[RESULTS_DETAIL_LEN];
    if (s->l.state != SESSION_ST_CONNECTING)
        return;
    snprintf(detail, sizeof detail, "%s within %u ms", s->client ? "no client window" :
             "X server or password helper not ready", s->l.h->cfg->client->window_timeout_ms);
    session_life_finish_later(&s->l, s->client ? FAIL_CLIENT_TIMEOUT : FAIL_XSERVER, detail);
}

/* ---------------------------------------------------------------- public */

struct x11_session *x11_session_new(const struct session_host *h, const char *run_dir,
                                    const struct engine_session_spec *spec)
{
    struct x11_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    static const struct session_life_ops ops = { .teardown = teardown };
    int ok = session_life_init(&s->l, h, spec, &ops, s) == 0;
    s->ready_fd = -1;
    snprintf(s->dir, sizeof s->dir, "%s/s%u", run_dir, s->l.index);
    s->window_ev = evtimer_new(h->base, window_timeout_cb, s);
    if (!ok || !s->window_ev) {
        x11_session_free(s);
        return NULL;
    }
    return s;
}

void x11_session_start(struct x11_session *s)
{
    char err[RESULTS_DETAIL_LEN];
    if (session_life_launch(&s->l) != 0)
        return;
    uint32_t ms = s->l.h->cfg->client->window_timeout_ms;
    struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
    event_add(s->window_ev, &tv);
    if (mkdir(s->dir, 0700) != 0 && errno != EEXIST) {
        snprintf(err, sizeof err, "%.100s: cannot create: %.40s", s->dir, strerror(errno));
        session_life_finish_later(&s->l, FAIL_INTERNAL, err);
        return;
    }
    const struct x11_client *c = s->l.h->cfg->client;
    s->xserver = x11_launch_xserver(s->l.h->base, s->dir, c->width, c->height, &s->ready_fd,
                                    xserver_exit, s, err, sizeof err);
    s->ready_ev = s->xserver ? event_new(s->l.h->base, s->ready_fd, EV_READ | EV_PERSIST, ready_cb, s) : NULL;
    if (!s->ready_ev || event_add(s->ready_ev, NULL) != 0)
        session_life_finish_later(&s->l, s->xserver ? FAIL_INTERNAL : FAIL_XSERVER, s->xserver ? "cannot watch Xvfb" : err);
}

void x11_session_logoff(struct x11_session *s)
{
    if (session_life_logoff(&s->l))             /* NEW, CONNECTING */
        session_life_end(&s->l, FAIL_ABORTED, "logoff requested before the client's window appeared");
}

void x11_session_kill(struct x11_session *s, enum failure_reason reason, const char *detail)
{
    session_life_end(&s->l, reason, detail);
}

enum session_state x11_session_state(const struct x11_session *s) { return s->l.state; }
uint32_t x11_session_index(const struct x11_session *s) { return s->l.index; }
const char *x11_session_user(const struct x11_session *s) { return s->l.user; }
uint64_t x11_session_launched_us(const struct x11_session *s) { return s->l.launched_us; }
enum failure_reason x11_session_reason(const struct x11_session *s) { return s->l.final_reason; }

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

int x11_session_cost(const struct x11_session *s, struct x11_cost *client, struct x11_cost *xserver)
{
    memset(client, 0, sizeof *client);
    memset(xserver, 0, sizeof *xserver);
    int any = 0;
    if (x11_proc_running(s->client))
        any |= x11_proc_cost(x11_proc_pid(s->client), client) == 0;
    if (x11_proc_running(s->xserver))
        any |= x11_proc_cost(x11_proc_pid(s->xserver), xserver) == 0;
    return any;
}

void x11_session_free(struct x11_session *s)
{
    if (!s)
        return;
    teardown(s);
    x11_proc_free(s->helper);
    x11_proc_free(s->client);
    x11_proc_free(s->xserver);
    if (s->x_ev)
        event_free(s->x_ev);
    if (s->ready_ev)
        event_free(s->ready_ev);
    if (s->window_ev)
        event_free(s->window_ev);
    session_life_release(&s->l);
    free(s);
}

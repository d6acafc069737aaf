/* session.c -- one simulated user's life over RDP: connect attempts on the connector, then
 * FreeRDP's event handles on the loop, and exactly one terminal record. The state diagram and
 * invariants are in session.h; the instance's connect-time callbacks are in connect.c, the screen
 * (paints to the interpreter) in screen.c, the input the interpreter sends in input.c, the
 * traffic records in traffic.c; the shared state is in state.h; the records, the end and
 * the orderly logoff, shared with the x11 kind, are in agent/engine/session_life.c. */
#include "agent/rdp/session.h"

#include <errno.h>
#include <event2/event.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <freerdp/freerdp.h>
#include <freerdp/input.h>
#include <winpr/synch.h>

#include "agent/driver/rxstamp.h"
#include "agent/driver/screen.h"
#include "agent/engine/connector.h"
#include "agent/engine/loopwatch.h"
#include "agent/engine/session_life.h"
#include "agent/interp/interp.h"
#include "agent/netem/netem.h"
#include "agent/rdp/connect.h"
#include "agent/rdp/drives.h"
#include "agent/rdp/failure.h"
#include "agent/rdp/input.h"
#include "agent/rdp/screen.h"
#include "agent/rdp/state.h"
#include "agent/rdp/settings.h"
#include "agent/rdp/traffic.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/names.h"
#include "compat/loop_sleep.h"
#include "compat/wlog_logoff.h"

/* ---------------------------------------------------------------- teardown */

static void disarm(struct rdp_session *s)
{
    for (int i = 0; i < s->nev; i++)
        event_free(s->ev[i]);
    s->nev = 0;
    s->sock_fd = -1;
    s->reread_fd = -1;
}

/* Disconnecting and freeing an instance takes milliseconds (tens at worst): it runs on a
 * connect thread so one session's end never shows up as loop lag in the others' timers. */
struct teardown_job {
    struct connector_job job;
    freerdp *inst;
    char drive_dir[4096];        /* the session's client drives to remove after it ("": none) */
};

/* The instance goes first: its drive device may still hold the files open. Removing what the
 * server wrote (a 300 MB copy) takes tens of ms of file-system work, which stays off the loop. */
static void teardown_work(struct connector_job *j)
{
    struct teardown_job *t = (struct teardown_job *)j;
    rdp_connect_free_instance(t->inst, 1);
    t->inst = NULL;
    drives_session_cleanup(t->drive_dir);
}

static void teardown_done(struct connector_job *j)
{
    free(j);
}

/* Frees the instance, then removes drive_dir when it is not NULL (the session's end). */
static void release_instance(struct rdp_session *s, int on_loop, const char *drive_dir)
{
    freerdp *inst = s->inst;
    struct teardown_job *t = NULL;
    s->inst = NULL;
    if (inst)
        ((struct session_ctx *)inst->context)->s = NULL;    /* callbacks no longer see us */
    if (!inst && (!drive_dir || !drive_dir[0]))
        return;
    if (!on_loop || !(t = calloc(1, sizeof *t))) {
        if (inst)
            rdp_connect_free_instance(inst, 1);
        if (drive_dir)
            drives_session_cleanup(drive_dir);
        return;
    }
    snprintf(t->drive_dir, sizeof t->drive_dir, "%s", drive_dir ? drive_dir : "");
    t->inst = inst;
    t->job.work = teardown_work;
    t->job.done = teardown_done;
    t->job.must_finish = 1;
    connector_submit(s->l.h->conn, &t->job);
}

/* Releases the live parts (never the session struct). A connected session reports its traffic
 * counters one last time, so a session shorter than the traffic interval still has its bytes. */
static void teardown(struct rdp_session *s, int on_loop)
{
    if (on_loop && s->inst && s->l.h->cfg->traffic_interval_ms)
        rdp_traffic_report(s);
    interp_free(s->l.interp);
    s->l.interp = NULL;
    disarm(s);
    if (s->traffic_ev)
        event_del(s->traffic_ev);
    if (s->retry_ev)
        event_del(s->retry_ev);
    if (s->confirm_ev)
        event_del(s->confirm_ev);
    release_instance(s, on_loop, s->drive_dir);   /* what the server wrote goes; shared files stay */
    session_life_wipe_password(&s->l);
    s->drive_dir[0] = '\0';
}

static void teardown_on_loop(void *owner)
{
    teardown(owner, 1);
}

/* The screen at the moment a session fails, kept as evidence: <shot_dir>/<user>-failed.png, its
 * file name appended to the failure detail ("...; screen alice-failed.png"). Nothing without a
 * shots directory or before the first frame buffer (a refused connect). */
static void failure_shot(void *owner, char *detail, size_t len)
{
    struct rdp_session *s = owner;
    struct screen_view v;
    const char *dir = s->l.h->cfg->shot_dir;
    if (!dir || rdp_screen_view(s, &v) != 0)
        return;
    char who[RESULTS_NAME_LEN], file[RESULTS_NAME_LEN + 16], path[4096];
    name_sanitize(s->l.user, who, sizeof who);
    snprintf(file, sizeof file, "%s-failed.png", who);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (screen_write_png(&v, path) != 0)
        return;
    size_t n = strlen(detail), need = strlen(file) + sizeof "; screen ";
    if (need >= len)
        return;
    if (n + need > len)
        n = len - need;
    snprintf(detail + n, len - n, "; screen %s", file);
}

/* The connection is gone or broken: what does that mean in this state? */
static void connection_lost(struct rdp_session *s)
{
    char detail[RESULTS_DETAIL_LEN];
    struct failure_facts f = s->facts;
    f.last_error = freerdp_get_last_error(s->inst->context);
    f.error_info = freerdp_error_info(s->inst);
    f.connected = 1;
    f.logoff_requested = s->l.state == SESSION_ST_LOGOFF;
    f.desktop_ready = s->l.state != SESSION_ST_LOGON;
    f.relogged_by = s->l.h->relogged_by ? s->l.h->relogged_by(s->l.h->arg, &s->l) : 0;
    enum failure_reason r = failure_classify(&f, detail, sizeof detail);
    session_life_finish_later(&s->l, r, detail);
}

/* ---------------------------------------------------------------- the loop side */

static void arm(struct rdp_session *s);

static void fd_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct rdp_session *s = arg;
    struct loopwatch_mark m;
    if (!s->inst || s->l.finish_pending)
        return;
    loopwatch_begin(&m);
    /* what this call reads waited in the socket since the kernel stamped it (the agent's share of
     * a response that ends in this call: docs/scoring.md); with nothing unread, since now; and
     * bytes FreeRDP read earlier and still holds (it processes a bounded amount per call and sets
     * its reread event for the rest) since the call that found them */
    s->ready_us = rxstamp_ready_us(s->sock_fd, clock_now_us());
    if (s->carry_us && s->carry_us < s->ready_us)
        s->ready_us = s->carry_us;
    int ending = s->l.state == SESSION_ST_LOGOFF || s->l.logoff_requested;
    loop_sleep_enter(s->inst->context, ending, loopwatch_slept);
    wlog_logoff_expect(ending);
    BOOL ok = freerdp_check_event_handles(s->inst->context);
    wlog_logoff_expect(0);
    loop_sleep_leave();
    struct pollfd more = { .fd = s->reread_fd, .events = POLLIN };
    s->carry_us = s->reread_fd >= 0 && poll(&more, 1, 0) > 0 ? s->ready_us : 0;
    s->ready_us = 0;
    loopwatch_end(&m, "freerdp_check_event_handles", s->l.index);
    if (!ok || freerdp_shall_disconnect(s->inst)) {
        disarm(s);
        connection_lost(s);
        return;
    }
    /* the socket changes after a redirection or FreeRDP's own reconnect: re-query */
    HANDLE h[SESSION_MAX_HANDLES];
    DWORD n = freerdp_get_event_handles(s->inst->context, h, SESSION_MAX_HANDLES);
    if ((int)n != s->nev || (n > 1 && GetEventFileDescriptor(h[1]) != s->sock_fd)) {
        disarm(s);
        arm(s);
    }
}

static void arm(struct rdp_session *s)
{
    HANDLE h[SESSION_MAX_HANDLES];
    DWORD n = freerdp_get_event_handles(s->inst->context, h, SESSION_MAX_HANDLES);
    for (DWORD i = 0; i < n; i++) {
        int fd = GetEventFileDescriptor(h[i]);
        if (fd < 0)
            continue;
        struct event *ev = event_new(s->l.h->base, fd, EV_READ | EV_PERSIST, fd_cb, s);
        if (!ev || event_add(ev, NULL) != 0) {
            if (ev)
                event_free(ev);
            session_life_finish_later(&s->l, FAIL_INTERNAL, "cannot watch the session's event handles");
            return;
        }
        s->ev[s->nev++] = ev;
    }
    s->sock_fd = n > 1 ? GetEventFileDescriptor(h[1]) : -1;
    s->reread_fd = n > 1 ? GetEventFileDescriptor(h[0]) : -1;   /* FreeRDP 2: transport's reread event first */
    s->carry_us = 0;
    if (s->sock_fd >= 0 && rxstamp_enable(s->sock_fd) != 0)
        log_ratelimited(LOG_INFO, "rxstamp", "session %u: no kernel receive timestamps on its socket (%s): its "
                        "agent share is timed from the loop's callback", s->l.index, strerror(errno));
}

static void traffic_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    rdp_traffic_report(arg);
}


static void connect_again(struct rdp_session *s);

static void logon_cb(void *sess, int ok, int64_t logon_us)
{
    struct rdp_session *s = sess;
    char detail[RESULTS_DETAIL_LEN] = "";
    uint32_t repaints = s->l.interp ? interp_logon_repaints(s->l.interp) : 0;
    if (s->l.state != SESSION_ST_LOGON)
        return;
    if (!ok && !s->l.logoff_requested && s->logon_retries < s->l.h->cfg->logon_retries) {
        s->logon_retries++;
        log_ratelimited(LOG_INFO, "logon-retry", "session %u (%s): desktop not ready in time, "
                        "logon retry %u/%u", s->l.index, s->l.user, s->logon_retries, s->l.h->cfg->logon_retries);
        connect_again(s);
        return;
    }
    session_life_wipe_password(&s->l);
    if (!ok) {
        snprintf(detail, sizeof detail, "desktop-ready condition did not hold in time "
                 "(repaint requests: %u, logon retries: %u)", repaints, s->logon_retries);
        session_life_finish_later(&s->l, FAIL_LOGON_TIMEOUT, detail);
        return;
    }
    if (repaints || s->logon_retries)
        snprintf(detail, sizeof detail, "repaint requests: %u, logon retries: %u", repaints, s->logon_retries);
    session_life_active(&s->l, logon_us, detail, &s->marks);
}

static void loops_done_cb(void *sess)
{
    rdp_session_logoff(sess);
}

/* The server did not end the session in time after the logoff steps. */
static void confirm_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct rdp_session *s = arg;
    char detail[RESULTS_DETAIL_LEN];
    snprintf(detail, sizeof detail, "the logoff steps ran but the server did not end the session within %u s",
             SESSION_LOGOFF_CONFIRM_MS / 1000);
    session_life_finish_later(&s->l, FAIL_LOGOFF_INCOMPLETE, detail);
}

static void finished_cb(void *sess, enum failure_reason reason, const char *detail)
{
    struct rdp_session *s = sess;
    /* A logoff counts only when the server ends the session (connection_lost after it, or its
     * logoff error info); a workload without logoff steps just disconnects, as before. */
    if (reason == FAIL_NONE && s->l.state == SESSION_ST_LOGOFF && s->l.wl && s->l.wl->nlogoff) {
        struct timeval tv = { SESSION_LOGOFF_CONFIRM_MS / 1000, (SESSION_LOGOFF_CONFIRM_MS % 1000) * 1000 };
        event_add(s->confirm_ev, &tv);
        return;
    }
    session_life_finish_later(&s->l, reason, detail);
}

/* CONNECTING -> LOGON: the connected instance arrives on the loop thread. */
static void connected(struct rdp_session *s)
{
    if (!s->l.h->cfg->logon_retries || !s->l.wl)      /* else kept for a logon retry */
        session_life_wipe_password(&s->l);
    s->l.state = SESSION_ST_LOGON;
    s->in_frame = 0;
    s->nframe_rects = 0;
    s->sock_fd = s->reread_fd = -1;
    arm(s);
    /* FreeRDP 2.11 reads TLS with read-ahead and returns from its connect loop at the PDU that
     * makes the session active: PDUs the server sent right behind it (a desktop's first frame)
     * can sit in OpenSSL's buffer while the socket is empty, and the loop would never look. */
    if (s->nev > 0)
        event_active(s->ev[0], EV_READ, 0);
    freerdp_input_send_synchronize_event(s->inst->input, 0);
    if (s->l.h->cfg->traffic_interval_ms && s->traffic_ev) {
        uint32_t ms = s->l.h->cfg->traffic_interval_ms;
        struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
        event_add(s->traffic_ev, &tv);
    }
    if (!s->l.wl) {
        logon_cb(s, 1, (int64_t)(clock_now_us() - s->l.t0_us));
        return;
    }
    static const struct session_life_calls calls = {
        .driver = &rdp_driver, .on_logon = logon_cb, .on_loops_done = loops_done_cb,
        .on_finished = finished_cb,
    };
    session_life_start_interp(&s->l, &calls);
}

/* ---------------------------------------------------------------- connect attempts */

/* How long the plain connect that learns an unreachable peer's errno may take. */
#define PEER_PROBE_MS 3000

/* Worker thread: one freerdp_connect() under the watchdog. */
static void connect_work(struct connector_job *j)
{
    struct rdp_session *s = (struct rdp_session *)((char *)j - offsetof(struct rdp_session, job));
    freerdp *inst = freerdp_new();
    int ok = 0;

    memset(&s->facts, 0, sizeof s->facts);
    if (!inst || netem_enter(s->l.h->cfg->netem) != 0)
        goto fail;
    rdp_connect_hook(inst);
    if (!freerdp_context_new(inst)) {
        freerdp_free(inst);
        inst = NULL;
        goto fail;
    }
    ((struct session_ctx *)inst->context)->s = s;
    if (rdp_settings_push(inst->settings, s->l.h->cfg, s->l.user, s->l.password) != 0)
        goto fail;
    if (s->l.wl && s->l.wl->ndrives) {
        char err[512] = "";
        if ((!s->drive_dir[0] && drives_prepare(s->l.h->cfg->config_dir, s->l.wl, err, sizeof err) != 0) ||
            (!s->drive_dir[0] && drives_session_setup(s->l.h->cfg->config_dir, s->l.wl, s->l.index, s->drive_dir,
                                                      sizeof s->drive_dir, err, sizeof err) != 0) ||
            drives_apply(inst->settings, s->l.wl, s->drive_dir) != 0) {
            log_ratelimited(LOG_ERROR, "drives", "session %u: client drives: %s", s->l.index, err);
            goto fail;
        }
    }
    connector_attach(s->l.h->conn, j, rdp_connect_kick, inst);
    rdp_connect_marks_arm(s);
    errno = 0;
    ok = freerdp_connect(inst) ? 1 : 0;
    rdp_connect_marks_disarm();
    s->facts.sys_errno = ok ? 0 : errno;
    s->facts.watchdog = connector_detach(s->l.h->conn, j);
    if (!ok) {
        s->facts.last_error = freerdp_get_last_error(inst->context);
        s->facts.error_info = freerdp_error_info(inst);
        const struct engine_config *cfg = s->l.h->cfg;
        if (failure_wants_peer_errno(&s->facts) &&
            (s->facts.peer_errno = rdp_connect_peer_errno(cfg->host, cfg->port, PEER_PROBE_MS)) != 0)
            s->facts.sys_errno = s->facts.peer_errno;   /* FreeRDP's teardown left ENOTCONN there */
    }
fail:
    if (!inst)
        s->facts.last_error = 0xffffffff;
    if (!ok) {
        rdp_connect_free_instance(inst, 0);
        inst = NULL;
    }
    s->inst = inst;
}

/* LOGON -> CONNECTING: the logon timed out and a logon retry is allowed. The instance goes (off
 * the loop), and a fresh connect attempt starts now. Called from the interpreter's logon
 * callback, which touches the interpreter no more afterwards. */
static void connect_again(struct rdp_session *s)
{
    interp_free(s->l.interp);
    s->l.interp = NULL;
    disarm(s);
    if (s->traffic_ev)
        event_del(s->traffic_ev);
    release_instance(s, 1, NULL);              /* the drives stay for the next attempt */
    s->l.state = SESSION_ST_CONNECTING;
    s->attempts = 0;
    s->job.timeout_ms = s->l.h->cfg->connect_timeout_ms;
    connector_submit(s->l.h->conn, &s->job);
}

static void retry_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct rdp_session *s = arg;
    s->job.timeout_ms = s->l.h->cfg->connect_timeout_ms;
    connector_submit(s->l.h->conn, &s->job);
}

/* Loop thread: an attempt finished. */
static void connect_done(struct connector_job *j)
{
    struct rdp_session *s = (struct rdp_session *)((char *)j - offsetof(struct rdp_session, job));
    char why[RESULTS_DETAIL_LEN - 24], detail[RESULTS_DETAIL_LEN];

    s->attempts++;
    if (s->inst && !s->l.logoff_requested) {
        struct loopwatch_mark m;
        loopwatch_begin(&m);
        s->l.t0_us = j->started_us;
        log_debug("session %u (%s): connected in %.1f ms", s->l.index, s->l.user,
                  (double)(clock_now_us() - j->started_us) / 1000.0);
        connected(s);
        loopwatch_end(&m, "hand-over of a connected session", s->l.index);
        return;
    }
    if (s->inst) {                              /* connected, but logoff was asked meanwhile */
        session_life_end(&s->l, FAIL_ABORTED, "logoff requested while connecting");
        return;
    }
    struct failure_facts f = s->facts;
    char peer[300];
    snprintf(peer, sizeof peer, "%s:%u", s->l.h->cfg->host, (unsigned)s->l.h->cfg->port);
    f.peer = peer;
    f.logoff_requested = s->l.logoff_requested;
    if (s->facts.last_error == 0xffffffff) {
        f.last_error = 0;
        session_life_end(&s->l, FAIL_INTERNAL, "cannot create a FreeRDP instance");
        return;
    }
    enum failure_reason r = failure_classify(&f, why, sizeof why);
    snprintf(detail, sizeof detail, "%s; attempt %u/%u", why, s->attempts, s->l.h->cfg->max_attempts);
    if (!s->l.logoff_requested && failure_retryable(r) && s->attempts < s->l.h->cfg->max_attempts) {
        log_ratelimited(LOG_INFO, "retry", "session %u (%s): %s, retrying", s->l.index, s->l.user,
                        detail);
        uint32_t ms = s->l.h->cfg->retry_delay_ms;
        struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
        event_add(s->retry_ev, &tv);
        return;
    }
    session_life_end(&s->l, r, detail);
}

/* ---------------------------------------------------------------- public */

struct rdp_session *rdp_session_new(const struct session_host *h, const struct engine_session_spec *spec)
{
    struct rdp_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    static const struct session_life_ops ops = { .teardown = teardown_on_loop,
                                                 .evidence = failure_shot };
    int ok = session_life_init(&s->l, h, spec, &ops, s) == 0;
    s->sock_fd = s->reread_fd = -1;
    s->job.work = connect_work;
    s->job.done = connect_done;
    s->traffic_ev = event_new(h->base, -1, EV_PERSIST, traffic_cb, s);
    s->retry_ev = evtimer_new(h->base, retry_cb, s);
    s->confirm_ev = evtimer_new(h->base, confirm_cb, s);
    if (!ok || !s->traffic_ev || !s->retry_ev || !s->confirm_ev) {
        rdp_session_free(s);
        return NULL;
    }
    return s;
}

void rdp_session_start(struct rdp_session *s)
{
    if (session_life_launch(&s->l) != 0)
        return;
    s->job.timeout_ms = s->l.h->cfg->connect_timeout_ms;
    connector_submit(s->l.h->conn, &s->job);
}

void rdp_session_logoff(struct rdp_session *s)
{
    if (!session_life_logoff(&s->l))
        return;
    if (s->l.state == SESSION_ST_NEW) {
        session_life_end(&s->l, FAIL_ABORTED, "logoff before start");
        return;
    }
    s->l.logoff_requested = 1;                          /* CONNECTING */
    if (connector_cancel(s->l.h->conn, &s->job) || event_pending(s->retry_ev, EV_TIMEOUT, NULL))
        session_life_end(&s->l, FAIL_ABORTED, "logoff requested before connect");
    else
        connector_abort(s->l.h->conn, &s->job);       /* connect_done() ends it */
}

void rdp_session_kill(struct rdp_session *s, enum failure_reason reason, const char *detail)
{
    if (s->l.state == SESSION_ST_CONNECTING &&
        !connector_cancel(s->l.h->conn, &s->job) && !event_pending(s->retry_ev, EV_TIMEOUT, NULL)) {
        s->l.logoff_requested = 1;
        connector_abort(s->l.h->conn, &s->job);       /* cannot end under a running attempt */
        return;
    }
    if (reason == FAIL_ABORTED && s->l.state == SESSION_ST_LOGOFF)   /* the deadline, mid-logoff */
        reason = FAIL_LOGOFF_INCOMPLETE;
    session_life_end(&s->l, reason, detail);
}

const struct session_life *rdp_session_life(const struct rdp_session *s)
{
    return &s->l;
}

void rdp_session_free(struct rdp_session *s)
{
    if (!s)
        return;
    teardown(s, 0);
    if (s->traffic_ev)
        event_free(s->traffic_ev);
    if (s->retry_ev)
        event_free(s->retry_ev);
    if (s->confirm_ev)
        event_free(s->confirm_ev);
    session_life_release(&s->l);
    free(s);
}

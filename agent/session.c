/* session.c -- one simulated user's life: connect attempts on the connector, then FreeRDP's
 * event handles on the loop, and exactly one terminal record. The state diagram and invariants
 * are in session.h; what FreeRDP calls back (paints to the interpreter) and the input the
 * interpreter sends are in session_rdp.c; the shared state is in session_int.h. */
#include "agent/session.h"

#include <errno.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <freerdp/freerdp.h>
#include <freerdp/input.h>
#include <winpr/synch.h>

#include "agent/connector.h"
#include "agent/drives.h"
#include "agent/failure.h"
#include "agent/interp.h"
#include "agent/netem.h"
#include "agent/netstats.h"
#include "agent/rdp_settings.h"
#include "agent/screen.h"
#include "agent/session_int.h"
#include "agent/session_rdp.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/names.h"

/* ---------------------------------------------------------------- records */

static void emit(struct session *s, enum session_event_kind kind, int64_t value_us,
                 enum failure_reason reason, const char *detail)
{
    struct rec_session r = { .session = s->index, .t_us = clock_wall_us(), .kind = kind,
                             .value_us = value_us, .reason = reason };
    snprintf(r.user, sizeof r.user, "%s", s->user);
    if (detail)
        snprintf(r.detail, sizeof r.detail, "%s", detail);
    if (s->h->sink->session)
        s->h->sink->session(s->h->sink->ctx, &r);
}

static void wipe_password(struct session *s)
{
    if (!s->password)
        return;
    explicit_bzero(s->password, strlen(s->password));
    free(s->password);
    s->password = NULL;
}


/* ---------------------------------------------------------------- teardown */

static void disarm(struct session *s)
{
    for (int i = 0; i < s->nev; i++)
        event_free(s->ev[i]);
    s->nev = 0;
    s->sock_fd = -1;
}

/* Disconnecting and freeing an instance takes milliseconds (tens at worst): it runs on a
 * connect thread so one session's end never shows up as loop lag in the others' timers. */
struct teardown_job {
    struct connector_job job;
    freerdp *inst;
};

static void teardown_work(struct connector_job *j)
{
    struct teardown_job *t = (struct teardown_job *)j;
    session_rdp_free_instance(t->inst, 1);
    t->inst = NULL;
}

static void teardown_done(struct connector_job *j)
{
    free(j);
}

static void release_instance(struct session *s, int on_loop)
{
    freerdp *inst = s->inst;
    struct teardown_job *t = NULL;
    s->inst = NULL;
    if (!inst)
        return;
    ((struct session_ctx *)inst->context)->s = NULL;    /* callbacks no longer see us */
    if (!on_loop || !(t = calloc(1, sizeof *t))) {
        session_rdp_free_instance(inst, 1);
        return;
    }
    t->inst = inst;
    t->job.work = teardown_work;
    t->job.done = teardown_done;
    t->job.must_finish = 1;
    connector_submit(s->h->conn, &t->job);
}

static void traffic_cb(evutil_socket_t fd, short what, void *arg);

/* Releases the live parts (never the session struct). A connected session reports its traffic
 * counters one last time, so a session shorter than the traffic interval still has its bytes. */
static void teardown(struct session *s, int on_loop)
{
    if (on_loop && s->inst && s->h->cfg->traffic_interval_ms)
        traffic_cb(-1, 0, s);
    interp_free(s->interp);
    s->interp = NULL;
    disarm(s);
    if (s->traffic_ev)
        event_del(s->traffic_ev);
    if (s->retry_ev)
        event_del(s->retry_ev);
    if (s->confirm_ev)
        event_del(s->confirm_ev);
    release_instance(s, on_loop);
    wipe_password(s);
    drives_session_cleanup(s->drive_dir);   /* what the server wrote goes; shared files stay */
    s->drive_dir[0] = '\0';
}

static void end(struct session *s, enum failure_reason reason, const char *detail)
{
    if (s->state == SESSION_ST_DONE || s->state == SESSION_ST_FAILED)
        return;
    teardown(s, 1);
    s->final_reason = reason;
    if (reason == FAIL_NONE) {
        s->state = SESSION_ST_DONE;
        emit(s, SESSION_ENDED, 0, FAIL_NONE, detail);
    } else {
        s->state = SESSION_ST_FAILED;
        emit(s, SESSION_FAILED, 0, reason, detail);
        log_ratelimited(LOG_INFO, "session-failed", "session %u (%s): %s: %s", s->index, s->user,
                        failure_reason_name(reason), detail ? detail : "");
    }
    if (s->h->on_terminal)
        s->h->on_terminal(s->h->arg, s);
}

static void finish_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct session *s = arg;
    s->finish_pending = 0;
    end(s, s->finish_reason, s->finish_detail);
}

/* The screen at the moment a session fails, kept as evidence: <shot_dir>/<user>-failed.png, its
 * file name appended to the failure detail ("...; screen alice-failed.png"). Nothing without a
 * shots directory or before the first frame buffer (a refused connect). */
static void failure_shot(struct session *s, char *detail, size_t len)
{
    struct screen_view v;
    const char *dir = s->h->cfg->shot_dir;
    if (!dir || !s->inst || !s->inst->context || screen_view_of(s->inst->context->gdi, &v) != 0)
        return;
    char who[RESULTS_NAME_LEN], file[RESULTS_NAME_LEN + 16], path[4096];
    name_sanitize(s->user, who, sizeof who);
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

/* Deferred end: safe from inside FreeRDP and interpreter callbacks. The first reason wins. */
static void finish_later(struct session *s, enum failure_reason reason, const char *detail)
{
    if (s->finish_pending || s->state == SESSION_ST_DONE || s->state == SESSION_ST_FAILED)
        return;
    s->finish_pending = 1;
    s->finish_reason = reason;
    snprintf(s->finish_detail, sizeof s->finish_detail, "%s", detail ? detail : "");
    if (reason != FAIL_NONE)
        failure_shot(s, s->finish_detail, sizeof s->finish_detail);
    event_active(s->finish_ev, EV_TIMEOUT, 0);
}

/* The connection is gone or broken: what does that mean in this state? */
static void connection_lost(struct session *s)
{
    char detail[RESULTS_DETAIL_LEN];
    struct failure_facts f = s->facts;
    f.last_error = freerdp_get_last_error(s->inst->context);
    f.error_info = freerdp_error_info(s->inst);
    f.connected = 1;
    f.logoff_requested = s->state == SESSION_ST_LOGOFF;
    f.desktop_ready = s->state != SESSION_ST_LOGON;
    f.relogged_by = s->h->relogged_by ? s->h->relogged_by(s->h->arg, s) : 0;
    enum failure_reason r = failure_classify(&f, detail, sizeof detail);
    finish_later(s, r, detail);
}

/* ---------------------------------------------------------------- the loop side */

static void arm(struct session *s);

static void fd_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct session *s = arg;
    if (!s->inst || s->finish_pending)
        return;
    if (!freerdp_check_event_handles(s->inst->context) || freerdp_shall_disconnect(s->inst)) {
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

static void arm(struct session *s)
{
    HANDLE h[SESSION_MAX_HANDLES];
    DWORD n = freerdp_get_event_handles(s->inst->context, h, SESSION_MAX_HANDLES);
    for (DWORD i = 0; i < n; i++) {
        int fd = GetEventFileDescriptor(h[i]);
        if (fd < 0)
            continue;
        struct event *ev = event_new(s->h->base, fd, EV_READ | EV_PERSIST, fd_cb, s);
        if (!ev || event_add(ev, NULL) != 0) {
            if (ev)
                event_free(ev);
            finish_later(s, FAIL_INTERNAL, "cannot watch the session's event handles");
            return;
        }
        s->ev[s->nev++] = ev;
    }
    s->sock_fd = n > 1 ? GetEventFileDescriptor(h[1]) : -1;
}

static void traffic_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct session *s = arg;
    if (!s->inst || !s->h->sink->traffic)
        return;
    struct rec_traffic t = { .session = s->index, .t_us = clock_wall_us(), .frames = s->frames };
    netstats_sample(s->inst->context, s->sock_fd, &t);
    s->h->sink->traffic(s->h->sink->ctx, &t);
}


static void connect_again(struct session *s);

static void logon_cb(void *sess, int ok, int64_t logon_us)
{
    struct session *s = sess;
    char detail[RESULTS_DETAIL_LEN] = "";
    uint32_t repaints = s->interp ? interp_logon_repaints(s->interp) : 0;
    if (s->state != SESSION_ST_LOGON)
        return;
    if (!ok && !s->logoff_requested && s->logon_retries < s->h->cfg->logon_retries) {
        s->logon_retries++;
        log_ratelimited(LOG_INFO, "logon-retry", "session %u (%s): desktop not ready in time, "
                        "logon retry %u/%u", s->index, s->user, s->logon_retries, s->h->cfg->logon_retries);
        connect_again(s);
        return;
    }
    wipe_password(s);
    if (!ok) {
        snprintf(detail, sizeof detail, "desktop-ready condition did not hold in time "
                 "(repaint requests: %u, logon retries: %u)", repaints, s->logon_retries);
        finish_later(s, FAIL_LOGON_TIMEOUT, detail);
        return;
    }
    if (repaints || s->logon_retries)
        snprintf(detail, sizeof detail, "repaint requests: %u, logon retries: %u", repaints, s->logon_retries);
    s->state = SESSION_ST_RUNNING;
    emit(s, SESSION_ACTIVE, logon_us, FAIL_NONE, detail[0] ? detail : NULL);
    if (s->logoff_requested) {
        s->logoff_requested = 0;
        session_logoff(s);
    }
}

static void loops_done_cb(void *sess)
{
    session_logoff(sess);
}

/* The server did not end the session in time after the logoff steps. */
static void confirm_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct session *s = arg;
    char detail[RESULTS_DETAIL_LEN];
    snprintf(detail, sizeof detail, "the logoff steps ran but the server did not end the session within %u s",
             SESSION_LOGOFF_CONFIRM_MS / 1000);
    finish_later(s, FAIL_LOGOFF_INCOMPLETE, detail);
}

static void finished_cb(void *sess, enum failure_reason reason, const char *detail)
{
    struct session *s = sess;
    /* A logoff counts only when the server ends the session (connection_lost after it, or its
     * logoff error info); a workload without logoff steps just disconnects, as before. */
    if (reason == FAIL_NONE && s->state == SESSION_ST_LOGOFF && s->wl && s->wl->nlogoff) {
        struct timeval tv = { SESSION_LOGOFF_CONFIRM_MS / 1000, (SESSION_LOGOFF_CONFIRM_MS % 1000) * 1000 };
        event_add(s->confirm_ev, &tv);
        return;
    }
    finish_later(s, reason, detail);
}

/* CONNECTING -> LOGON: the connected instance arrives on the loop thread. */
static void connected(struct session *s)
{
    if (!s->h->cfg->logon_retries || !s->wl)      /* else kept for a logon retry */
        wipe_password(s);
    s->state = SESSION_ST_LOGON;
    s->in_frame = 0;
    s->nframe_rects = 0;
    s->sock_fd = -1;
    arm(s);
    /* FreeRDP 2.11 reads TLS with read-ahead and returns from its connect loop at the PDU that
     * makes the session active: PDUs the server sent right behind it (a desktop's first frame)
     * can sit in OpenSSL's buffer while the socket is empty, and the loop would never look. */
    if (s->nev > 0)
        event_active(s->ev[0], EV_READ, 0);
    freerdp_input_send_synchronize_event(s->inst->input, 0);
    if (s->h->cfg->traffic_interval_ms && s->traffic_ev) {
        uint32_t ms = s->h->cfg->traffic_interval_ms;
        struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
        event_add(s->traffic_ev, &tv);
    }
    if (!s->wl) {
        logon_cb(s, 1, (int64_t)(clock_now_us() - s->t0_us));
        return;
    }
    struct interp_host ih = {
        .sess = s, .ops = &session_rdp_driver, .base = s->h->base, .sink = s->h->sink,
        .session_index = s->index, .seed = s->seed, .shot_dir = s->h->cfg->shot_dir,
        .shot_timers = s->h->cfg->shot_timers, .max_loops = s->h->cfg->max_loops,
        .on_loops_done = loops_done_cb,
        .user = s->user, .on_logon = logon_cb, .on_finished = finished_cb,
    };
    s->interp = interp_new(s->wl, &ih);
    if (!s->interp) {
        finish_later(s, FAIL_INTERNAL, "cannot create the workload interpreter");
        return;
    }
    interp_start(s->interp, s->t0_us);
}

/* ---------------------------------------------------------------- connect attempts */

/* Worker thread: one freerdp_connect() under the watchdog. */
static void connect_work(struct connector_job *j)
{
    struct session *s = (struct session *)((char *)j - offsetof(struct session, job));
    freerdp *inst = freerdp_new();
    int ok = 0;

    memset(&s->facts, 0, sizeof s->facts);
    if (!inst || netem_enter(s->h->cfg->netem) != 0)
        goto fail;
    session_rdp_hook(inst);
    if (!freerdp_context_new(inst)) {
        freerdp_free(inst);
        inst = NULL;
        goto fail;
    }
    ((struct session_ctx *)inst->context)->s = s;
    if (rdp_settings_push(inst->settings, s->h->cfg, s->user, s->password) != 0)
        goto fail;
    if (s->wl && s->wl->ndrives) {
        char err[512];
        if ((!s->drive_dir[0] && drives_session_setup(s->h->cfg->config_dir, s->wl, s->index, s->drive_dir,
                                                      sizeof s->drive_dir, err, sizeof err) != 0) ||
            drives_apply(inst->settings, s->wl, s->drive_dir) != 0) {
            log_ratelimited(LOG_ERROR, "drives", "session %u: client drives: %s", s->index, err);
            goto fail;
        }
    }
    connector_attach(s->h->conn, j, inst);
    errno = 0;
    ok = freerdp_connect(inst) ? 1 : 0;
    s->facts.sys_errno = ok ? 0 : errno;
    s->facts.watchdog = connector_detach(s->h->conn, j);
    if (!ok) {
        s->facts.last_error = freerdp_get_last_error(inst->context);
        s->facts.error_info = freerdp_error_info(inst);
    }
fail:
    if (!inst)
        s->facts.last_error = 0xffffffff;
    if (!ok) {
        session_rdp_free_instance(inst, 0);
        inst = NULL;
    }
    s->inst = inst;
}

/* LOGON -> CONNECTING: the logon timed out and a logon retry is allowed. The instance goes (off
 * the loop), and a fresh connect attempt starts now. Called from the interpreter's logon
 * callback, which touches the interpreter no more afterwards. */
static void connect_again(struct session *s)
{
    interp_free(s->interp);
    s->interp = NULL;
    disarm(s);
    if (s->traffic_ev)
        event_del(s->traffic_ev);
    release_instance(s, 1);
    s->state = SESSION_ST_CONNECTING;
    s->attempts = 0;
    s->job.timeout_ms = s->h->cfg->connect_timeout_ms;
    connector_submit(s->h->conn, &s->job);
}

static void retry_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct session *s = arg;
    s->job.timeout_ms = s->h->cfg->connect_timeout_ms;
    connector_submit(s->h->conn, &s->job);
}

/* Loop thread: an attempt finished. */
static void connect_done(struct connector_job *j)
{
    struct session *s = (struct session *)((char *)j - offsetof(struct session, job));
    char why[RESULTS_DETAIL_LEN - 24], detail[RESULTS_DETAIL_LEN];

    s->attempts++;
    if (s->inst && !s->logoff_requested) {
        s->t0_us = j->started_us;
        log_debug("session %u (%s): connected in %.1f ms", s->index, s->user,
                  (double)(clock_now_us() - j->started_us) / 1000.0);
        connected(s);
        return;
    }
    if (s->inst) {                              /* connected, but logoff was asked meanwhile */
        end(s, FAIL_ABORTED, "logoff requested while connecting");
        return;
    }
    struct failure_facts f = s->facts;
    f.logoff_requested = s->logoff_requested;
    if (s->facts.last_error == 0xffffffff) {
        f.last_error = 0;
        end(s, FAIL_INTERNAL, "cannot create a FreeRDP instance");
        return;
    }
    enum failure_reason r = failure_classify(&f, why, sizeof why);
    snprintf(detail, sizeof detail, "%s; attempt %u/%u", why, s->attempts, s->h->cfg->max_attempts);
    if (!s->logoff_requested && failure_retryable(r) && s->attempts < s->h->cfg->max_attempts) {
        log_ratelimited(LOG_INFO, "retry", "session %u (%s): %s, retrying", s->index, s->user,
                        detail);
        uint32_t ms = s->h->cfg->retry_delay_ms;
        struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
        event_add(s->retry_ev, &tv);
        return;
    }
    end(s, r, detail);
}

/* ---------------------------------------------------------------- public */

struct session *session_new(const struct session_host *h, const struct engine_session_spec *spec)
{
    struct session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->h = h;
    s->index = spec->session_index;
    snprintf(s->user, sizeof s->user, "%s", spec->user ? spec->user : "");
    s->password = strdup(spec->password ? spec->password : "");
    s->wl = spec->workload;
    s->seed = spec->seed;
    s->sock_fd = -1;
    s->job.work = connect_work;
    s->job.done = connect_done;
    s->traffic_ev = event_new(h->base, -1, EV_PERSIST, traffic_cb, s);
    s->retry_ev = evtimer_new(h->base, retry_cb, s);
    s->confirm_ev = evtimer_new(h->base, confirm_cb, s);
    s->finish_ev = event_new(h->base, -1, 0, finish_cb, s);
    if (!s->password || !s->traffic_ev || !s->retry_ev || !s->finish_ev || !s->confirm_ev) {
        session_free(s);
        return NULL;
    }
    return s;
}

void session_start(struct session *s)
{
    if (s->state != SESSION_ST_NEW)
        return;
    s->state = SESSION_ST_CONNECTING;
    s->launched_us = clock_now_us();
    emit(s, SESSION_LAUNCHED, 0, FAIL_NONE, NULL);
    s->job.timeout_ms = s->h->cfg->connect_timeout_ms;
    connector_submit(s->h->conn, &s->job);
}

void session_logoff(struct session *s)
{
    switch (s->state) {
    case SESSION_ST_NEW:
        end(s, FAIL_ABORTED, "logoff before start");
        break;
    case SESSION_ST_CONNECTING:
        s->logoff_requested = 1;
        if (connector_cancel(s->h->conn, &s->job) || event_pending(s->retry_ev, EV_TIMEOUT, NULL))
            end(s, FAIL_ABORTED, "logoff requested before connect");
        else
            connector_abort(s->h->conn, &s->job);   /* connect_done() ends it */
        break;
    case SESSION_ST_LOGON:
        /* let the logon finish first (logon_cb then logs off), unless there is no workload */
        s->logoff_requested = 1;
        if (!s->interp)
            finish_later(s, FAIL_NONE, "logoff");
        break;
    case SESSION_ST_RUNNING:
        s->state = SESSION_ST_LOGOFF;
        emit(s, SESSION_LOGOFF, 0, FAIL_NONE, NULL);
        if (s->interp)
            interp_logoff(s->interp);
        else
            finish_later(s, FAIL_NONE, "logoff");
        break;
    default:
        break;
    }
}

void session_kill(struct session *s, enum failure_reason reason, const char *detail)
{
    if (s->state == SESSION_ST_CONNECTING &&
        !connector_cancel(s->h->conn, &s->job) && !event_pending(s->retry_ev, EV_TIMEOUT, NULL)) {
        s->logoff_requested = 1;
        connector_abort(s->h->conn, &s->job);       /* cannot end under a running attempt */
        return;
    }
    if (reason == FAIL_ABORTED && s->state == SESSION_ST_LOGOFF)   /* the deadline, mid-logoff */
        reason = FAIL_LOGOFF_INCOMPLETE;
    end(s, reason, detail);
}

enum session_state session_get_state(const struct session *s) { return s->state; }
uint32_t session_get_index(const struct session *s) { return s->index; }
const char *session_get_user(const struct session *s) { return s->user; }
uint64_t session_get_launched_us(const struct session *s) { return s->launched_us; }
enum failure_reason session_get_reason(const struct session *s) { return s->final_reason; }

uint32_t session_loops(const struct session *s)
{
    return s->interp ? interp_loops(s->interp) : 0;
}

int session_screen(struct session *s, struct screen_view *out)
{
    return session_rdp_driver.screen(s, out);
}

int session_save_png(struct session *s, const char *path)
{
    struct screen_view v;
    if (!s->inst || screen_view_of(s->inst->context->gdi, &v) != 0) {
        log_warn("session %u: no screen to save to %s", s->index, path);
        return -1;
    }
    return screen_write_png(&v, path);
}

void session_free(struct session *s)
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
    if (s->finish_ev)
        event_free(s->finish_ev);
    free(s);
}

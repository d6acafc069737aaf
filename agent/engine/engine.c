/* engine.c -- the session engine: owns the connector, the sessions of one kind (session_ops.h:
 * the engine never knows what drives them), the loop-lag probe, the health timer and the paced
 * logoff of everyone. */
#include "agent/engine/engine.h"

#include <errno.h>
#include <event2/event.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "agent/engine/connector.h"
#include "agent/engine/looplag.h"
#include "agent/engine/schedstat.h"
#include "agent/engine/loopwatch.h"
#include "agent/engine/session_life.h"
#include "agent/engine/session_ops.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/x11_preset.h"

#define LOOPLAG_PERIOD_MS 20
#define LOGOFF_SPACING_US 500          /* engine_logoff_all: between two sessions' logoffs */

struct engine {
    struct event_base *base;
    struct engine_config cfg;          /* strings below are owned copies */
    char *host, *domain, *fingerprint, *config_dir, *shot_dir;
    int own_config_dir;
    struct result_sink sink;
    struct session_host host_info;
    struct connector *conn;
    struct looplag *lag;
    const struct session_ops *ops;     /* the sessions' kind */
    void *kind;                        /* its engine-wide part */
    struct event *health_ev, *deadline_ev, *logoff_ev;
    size_t logoff_next;                /* engine_logoff_all: the next session to log off */
    uint64_t logoff_start_us;          /* and when it began */
    void **sessions;                   /* the kind's sessions, in start order */
    size_t nsessions, cap;
    struct x11_client client;          /* cfg.client points here when set */
    int stopping;
    void (*idle_cb)(void *);
    void *idle_arg;
    uint64_t last_cpu_us, last_health_us;
    pid_t loop_tid;                    /* the thread that made the engine: the loop's */
    struct schedstat last_loop, last_proc;   /* at the last health record (schedstat.h) */
    uint64_t last_throttled_ns;        /* the cgroup's throttled time then */
    int have_sched;                    /* both were readable then */
};

/* ---------------------------------------------------------------- process-wide setup */

static void process_setup_once(void)
{
    static int done;
    if (!done)
        signal(SIGPIPE, SIG_IGN);
    done = 1;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static const struct session_life *life_of(const struct engine *e, size_t i)
{
    return e->ops->life(e->sessions[i]);
}

static int make_config_dir(struct engine *e, const char *given)
{
    char path[4096];
    if (given) {
        if (mkdir(given, 0700) != 0 && errno != EEXIST)
            goto fail_given;
        e->config_dir = strdup(given);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/sessmax-agent.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(path)) {
            log_error("%s: cannot create FreeRDP config directory: %s", path, strerror(errno));
            return -1;
        }
        e->config_dir = strdup(path);
        e->own_config_dir = 1;
    }
    if (!e->config_dir)
        return -1;
    /* created up front so hundreds of connect threads do not race to mkdir them */
    const char *sub[] = { "certs", "server" };
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", e->config_dir, sub[i]);
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            log_error("%s: cannot create: %s", path, strerror(errno));
            return -1;
        }
    }
    return 0;
fail_given:
    log_error("%s: cannot create FreeRDP config directory: %s", given, strerror(errno));
    return -1;
}

static int rm_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

/* ---------------------------------------------------------------- health */

static void process_usage(uint64_t *cpu_us, uint64_t *rss_kb)
{
    struct rusage ru;
    *cpu_us = 0;
    *rss_kb = 0;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        *cpu_us = (uint64_t)ru.ru_utime.tv_sec * 1000000 + (uint64_t)ru.ru_utime.tv_usec +
                  (uint64_t)ru.ru_stime.tv_sec * 1000000 + (uint64_t)ru.ru_stime.tv_usec;
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long size, resident;
    if (f && fscanf(f, "%lu %lu", &size, &resident) == 2)
        *rss_kb = (uint64_t)resident * (uint64_t)(sysconf(_SC_PAGESIZE) / 1024);
    if (f)
        fclose(f);
}

static void health_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct engine *e = arg;
    struct engine_counts c;
    struct rec_health h = { .t_us = clock_wall_us() };
    uint64_t cpu_us, now = clock_now_us();
    struct loopwatch_mark m;
    loopwatch_begin(&m);

    engine_get_counts(e, &c);
    h.sessions_active = c.logon + c.running + c.logoff;
    h.sessions_connecting = c.connecting;
    looplag_take(e->lag, &h.lag_p50_us, &h.lag_p99_us, &h.lag_max_us);
    process_usage(&cpu_us, &h.rss_kb);
    if (now > e->last_health_us)
        h.cpu_permille = (uint32_t)((cpu_us - e->last_cpu_us) * 1000 / (now - e->last_health_us));
    struct schedstat loop, proc;
    int sched = schedstat_thread(e->loop_tid, &loop) == 0 && schedstat_process(&proc) == 0;
    uint64_t throttled = schedstat_throttled_ns();
    if (sched && e->have_sched && now > e->last_health_us) {
        schedstat_interval(&e->last_loop, &loop, &e->last_proc, &proc, now - e->last_health_us, &h);
        schedstat_throttled_interval(e->last_throttled_ns, throttled, now - e->last_health_us, &h);
    }
    e->last_throttled_ns = throttled;
    e->last_loop = loop;
    e->last_proc = proc;
    e->have_sched = sched;
    if (e->ops->kind_health)
        e->ops->kind_health(e->kind, &h, e->sessions, e->nsessions);
    e->last_cpu_us = cpu_us;
    e->last_health_us = now;
    if (e->sink.health)
        e->sink.health(e->sink.ctx, &h);
    loopwatch_end(&m, "health record", UINT32_MAX);
}

/* ---------------------------------------------------------------- sessions */

static void check_idle(struct engine *e)
{
    if (e->nsessions && engine_idle(e)) {
        if (e->deadline_ev)
            event_del(e->deadline_ev);
        if (e->idle_cb)
            e->idle_cb(e->idle_arg);
    }
}

static void on_terminal(void *arg)
{
    check_idle(arg);
}

static void *find(const struct engine *e, uint32_t index)
{
    for (size_t i = 0; i < e->nsessions; i++)
        if (life_of(e, i)->index == index)
            return e->sessions[i];
    return NULL;
}

static int live_state(enum session_state st)
{
    return st != SESSION_ST_DONE && st != SESSION_ST_FAILED;
}

/* session_host.relogged_by: xrdp (and Windows) give a user's desktop to the newest logon and
 * log the older client off, so a newer live session of the same user explains such a drop. */
static uint32_t relogged_by(void *arg, const struct session_life *l)
{
    const struct engine *e = arg;
    for (size_t i = 0; i < e->nsessions; i++) {
        const struct session_life *o = life_of(e, i);
        if (o != l && o->state != SESSION_ST_NEW && live_state(o->state) &&
            o->launched_us >= l->launched_us && !strcmp(o->user, l->user))
            return o->index + 1;
    }
    return 0;
}

static void logoff_batch_cb(evutil_socket_t fd, short what, void *arg);

static void deadline_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct engine *e = arg;
    unsigned n = 0;
    for (size_t i = 0; i < e->nsessions; i++)
        if (live_state(life_of(e, i)->state)) {
            e->ops->kill(e->sessions[i], FAIL_ABORTED, "logoff deadline passed");
            n++;
        }
    if (n)
        log_warn("logoff deadline passed: %u sessions disconnected", n);
}

/* ---------------------------------------------------------------- public */

struct engine *engine_new(struct event_base *base, const struct engine_config *cfg,
                          const struct result_sink *sink)
{
    if (!cfg->host || !*cfg->host) {
        log_error("engine: no target host");
        return NULL;
    }
    if (!cfg->kind) {
        log_error("engine: no session kind");
        return NULL;
    }
    struct engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    process_setup_once();
    e->base = base;
    e->cfg = *cfg;
    e->ops = cfg->kind;
    e->sink = *sink;
    e->host = strdup(cfg->host);
    e->domain = dup_or_null(cfg->domain);
    e->fingerprint = dup_or_null(cfg->fingerprint);
    e->shot_dir = dup_or_null(cfg->shot_dir);
    if (!e->host || (cfg->domain && !e->domain) || (cfg->fingerprint && !e->fingerprint) ||
        (cfg->shot_dir && !e->shot_dir) || make_config_dir(e, cfg->config_dir) != 0)
        goto fail;
    e->cfg.host = e->host;
    e->cfg.domain = e->domain;
    e->cfg.fingerprint = e->fingerprint;
    e->cfg.shot_dir = e->shot_dir;
    e->cfg.config_dir = e->config_dir;
    if (cfg->client) {
        e->client = *cfg->client;
        if (!e->client.width) {
            e->client.width = e->cfg.width;
            e->client.height = e->cfg.height;
        }
        e->cfg.client = &e->client;
    }
    if (e->cfg.bpp != 32)
        e->cfg.bpp = 16;
    if (!e->cfg.max_attempts)
        e->cfg.max_attempts = 1;
    e->conn = connector_new(base, cfg->connect_threads);
    e->lag = looplag_new(base, LOOPLAG_PERIOD_MS);
    e->deadline_ev = evtimer_new(base, deadline_cb, e);
    e->logoff_ev = evtimer_new(base, logoff_batch_cb, e);
    if (!e->conn || !e->lag || !e->deadline_ev || !e->logoff_ev)
        goto fail;
    e->host_info = (struct session_host){ .base = base, .cfg = &e->cfg, .sink = &e->sink,
                                          .conn = e->conn, .on_terminal = on_terminal,
                                          .relogged_by = relogged_by, .arg = e };
    if (e->ops->kind_init(&e->host_info, &e->kind) != 0)
        goto fail;
    if (e->cfg.health_interval_ms) {
        e->health_ev = event_new(base, -1, EV_PERSIST, health_cb, e);
        uint32_t ms = e->cfg.health_interval_ms;
        struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
        if (!e->health_ev || event_add(e->health_ev, &tv) != 0)
            goto fail;
    }
    process_usage(&e->last_cpu_us, &(uint64_t){ 0 });
    e->loop_tid = (pid_t)syscall(SYS_gettid);
    e->have_sched = schedstat_thread(e->loop_tid, &e->last_loop) == 0 && schedstat_process(&e->last_proc) == 0;
    e->last_throttled_ns = schedstat_throttled_ns();
    e->last_health_us = clock_now_us();
    return e;
fail:
    log_error("engine: cannot start");
    engine_free(e);
    return NULL;
}

int engine_start_session(struct engine *e, const struct engine_session_spec *spec)
{
    if (e->stopping) {
        log_warn("session %u not started: the engine is logging off", spec->session_index);
        return -1;
    }
    if (find(e, spec->session_index)) {
        log_error("session %u already exists", spec->session_index);
        return -1;
    }
    if (e->nsessions == e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 64;
        void **n = realloc(e->sessions, cap * sizeof *n);
        if (!n)
            return -1;
        e->sessions = n;
        e->cap = cap;
    }
    void *sess = e->ops->create(e->kind, &e->host_info, spec);
    if (!sess)
        return -1;
    e->sessions[e->nsessions++] = sess;
    e->ops->start(sess);
    return 0;
}

int engine_logoff_session(struct engine *e, uint32_t session_index)
{
    void *s = find(e, session_index);
    if (!s)
        return -1;
    e->ops->logoff(s);
    return 0;
}

/* Starts the logoffs one LOGOFF_SPACING_US apart (as many per pass as are due, within one pass
 * budget), then re-arms for the next one due. Started in one pass, 1,000 sessions' logoff steps
 * stayed in step: every key of the logoff sequence came due for all of them in the same pass,
 * and each such wave held the loop 30-45 ms (on the CPU, ~160 ms apart); 500 µs apart they
 * spread over half a second for 1,000 sessions. */
static void logoff_batch_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct engine *e = arg;
    uint64_t now = clock_now_us(), end = now + LOOP_PASS_BUDGET_US;
    size_t due = (size_t)((now - e->logoff_start_us) / LOGOFF_SPACING_US) + 1;
    while (e->logoff_next < e->nsessions && e->logoff_next < due && clock_now_us() < end)
        e->ops->logoff(e->sessions[e->logoff_next++]);
    if (e->logoff_next < e->nsessions) {
        uint64_t next = e->logoff_next < due ? 0 : e->logoff_start_us + e->logoff_next * LOGOFF_SPACING_US - now;
        struct timeval tv = { (time_t)(next / 1000000), (suseconds_t)(next % 1000000) };
        evtimer_add(e->logoff_ev, &tv);
        return;
    }
    check_idle(e);
}

void engine_logoff_all(struct engine *e, uint32_t deadline_ms)
{
    e->stopping = 1;
    struct timeval tv = { deadline_ms / 1000, (deadline_ms % 1000) * 1000 };
    event_add(e->deadline_ev, &tv);
    e->logoff_next = 0;
    e->logoff_start_us = clock_now_us();
    logoff_batch_cb(-1, 0, e);
}

void engine_get_counts(const struct engine *e, struct engine_counts *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < e->nsessions; i++) {
        const struct session_life *l = life_of(e, i);
        switch (l->state) {
        case SESSION_ST_NEW:
        case SESSION_ST_CONNECTING: out->connecting++; break;
        case SESSION_ST_LOGON: out->logon++; break;
        case SESSION_ST_RUNNING: out->running++; break;
        case SESSION_ST_LOGOFF: out->logoff++; break;
        case SESSION_ST_DONE: out->done++; break;
        case SESSION_ST_FAILED:
            out->failed++;
            out->failed_by_reason[l->final_reason]++;
            break;
        }
    }
}

int engine_idle(const struct engine *e)
{
    for (size_t i = 0; i < e->nsessions; i++)
        if (live_state(life_of(e, i)->state))
            return 0;
    return 1;
}

void engine_set_idle_cb(struct engine *e, void (*cb)(void *arg), void *arg)
{
    e->idle_cb = cb;
    e->idle_arg = arg;
}

int engine_save_png(struct engine *e, uint32_t session_index, const char *path)
{
    void *s = find(e, session_index);
    if (!s) {
        log_warn("no session %u to save", session_index);
        return -1;
    }
    return e->ops->save_png(s, path);
}

int engine_screen(struct engine *e, uint32_t session_index, struct screen_view *out)
{
    void *s = find(e, session_index);
    if (!s)
        return -1;
    return e->ops->screen(s, out);
}

void engine_set_paint_tap(struct engine *e,
                          void (*tap)(void *arg, uint32_t index, const struct rect *rects, size_t n),
                          void *arg)
{
    e->host_info.paint_tap = tap;
    e->host_info.tap_arg = arg;
}

int engine_session_driver(struct engine *e, uint32_t session_index, const struct driver_ops **ops,
                          void **sess)
{
    void *s = find(e, session_index);
    if (!s || !e->ops->driver || e->ops->life(s)->state != SESSION_ST_RUNNING)
        return -1;
    *ops = e->ops->driver;
    *sess = s;
    return 0;
}

uint32_t engine_lag_total(const struct engine *e, uint32_t *p50_us, uint32_t *p99_us,
                          uint32_t *max_us)
{
    looplag_total(e->lag, p50_us, p99_us, max_us);
    return 0;
}

void engine_free(struct engine *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->nsessions && e->ops->abort_start; i++)
        e->ops->abort_start(e->sessions[i]);
    connector_free(e->conn);               /* joins: no attempt runs after this */
    for (size_t i = 0; i < e->nsessions; i++)
        e->ops->free(e->sessions[i]);
    free(e->sessions);
    if (e->ops)
        e->ops->kind_free(e->kind);
    if (e->health_ev)
        event_free(e->health_ev);
    if (e->deadline_ev)
        event_free(e->deadline_ev);
    if (e->logoff_ev)
        event_free(e->logoff_ev);
    looplag_free(e->lag);
    if (e->own_config_dir && e->config_dir)
        nftw(e->config_dir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
    free(e->config_dir);
    free(e->host);
    free(e->domain);
    free(e->fingerprint);
    free(e->shot_dir);
    free(e);
}

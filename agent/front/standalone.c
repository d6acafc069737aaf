/* standalone.c -- the `run` and `shot` commands (options in standalone_opts.c): start
 * sessions on a ramp, stop after the duration (or on SIGINT/SIGTERM) with an orderly logoff, and
 * print JSON lines (stdout) plus a summary (stderr). The password comes from SESSMAX_PASSWORD. */
#include "agent/front/standalone.h"

#include <errno.h>
#include <event2/event.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "agent/engine/engine.h"
#include "agent/front/cert_hint.h"
#include "agent/front/standalone_opts.h"
#include "agent/interp/interp.h"
#include "common/hostport.h"
#include "agent/front/jsonl_sink.h"
#include "agent/engine/loopwatch.h"
#include "agent/netem/netem.h"
#include "agent/front/outpipe.h"
#include "common/log.h"
#include "common/numarg.h"
#include "common/netprofile.h"
#include "common/shots.h"
#include "common/workload.h"
#include "common/workload_pixel.h"
#include "common/x11_preset.h"

/* ---------------------------------------------------------------- run */

struct run {
    struct opts *o;
    struct event_base *base;
    struct engine *eng;
    const struct workload *wl;
    const char *password;
    unsigned started;
    struct event *launch_ev, *stop_ev, *sigint_ev, *sigterm_ev;
    int stopping, interrupted;
};

static void stop_run(struct run *r, const char *why)
{
    if (r->stopping)
        return;
    r->stopping = 1;
    log_info("%s: logging off (deadline %" PRId64 " ms)", why, r->o->logoff_ms);
    event_del(r->launch_ev);
    engine_logoff_all(r->eng, (uint32_t)r->o->logoff_ms);
}

static void launch_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct run *r = arg;
    struct opts *o = r->o;
    char user[RESULTS_NAME_LEN];
    unsigned n = r->started + 1;
    if (r->stopping || r->started >= o->sessions)
        return;
    standalone_expand_user(o->users, o->first + n - 1, user, sizeof user);
    struct engine_session_spec spec = { .session_index = n - 1, .user = user,
                                        .password = r->password, .workload = r->wl,
                                        .seed = o->seed * 1000003u + n };
    engine_start_session(r->eng, &spec);
    r->started++;
    if (r->started < o->sessions) {
        int64_t gap_us = o->ramp_ms * 1000 / o->sessions;
        struct timeval tv = { (time_t)(gap_us / 1000000), (suseconds_t)(gap_us % 1000000) };
        event_add(r->launch_ev, &tv);
    }
}

static void duration_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    stop_run(arg, "duration reached");
}

static void signal_cb(evutil_socket_t sig, short what, void *arg)
{
    (void)what;
    struct run *r = arg;
    if (r->stopping) {
        log_warn("second signal: exiting without waiting for logoff");
        event_base_loopexit(r->base, NULL);
        return;
    }
    r->interrupted = 1;
    stop_run(r, sig == SIGINT ? "interrupted" : "terminated");
}

static void idle_cb(void *arg)
{
    struct run *r = arg;
    if (r->stopping || r->started >= r->o->sessions)
        event_base_loopexit(r->base, NULL);
}

static int run_loop(struct run *r, struct jsonl_sink *js)
{
    struct opts *o = r->o;
    r->eng = engine_new(r->base, &o->cfg, jsonl_sink_result_sink(js));
    r->launch_ev = evtimer_new(r->base, launch_cb, r);
    r->stop_ev = evtimer_new(r->base, duration_cb, r);
    r->sigint_ev = evsignal_new(r->base, SIGINT, signal_cb, r);
    r->sigterm_ev = evsignal_new(r->base, SIGTERM, signal_cb, r);
    if (!r->eng || !r->launch_ev || !r->stop_ev || !r->sigint_ev || !r->sigterm_ev)
        return EX_SOFTWARE;
    engine_set_idle_cb(r->eng, idle_cb, r);
    struct timeval dur = { (time_t)(o->duration_ms / 1000), (suseconds_t)(o->duration_ms % 1000) * 1000 };
    event_add(r->stop_ev, &dur);
    event_add(r->sigint_ev, NULL);
    event_add(r->sigterm_ev, NULL);
    event_active(r->launch_ev, EV_TIMEOUT, 0);
    event_base_dispatch(r->base);

    uint32_t p50, p99, max;
    engine_lag_total(r->eng, &p50, &p99, &max);
    unsigned bad_count = jsonl_sink_summary(js, stderr, p50, p99, max);
    uint32_t stalls, late_ticks, sleeps;
    uint64_t slept_us;
    loopwatch_counts(&stalls, &late_ticks);
    loopwatch_sleeps(&sleeps, &slept_us);
    fprintf(stderr, "loop stalls over %u ms: %u in watched calls, %u late ticks outside them "
            "(the 'loop stall' lines name them); FreeRDP's Sleep() on the loop: %u calls, %.1f ms\n",
            LOOPWATCH_REPORT_US / 1000, stalls, late_ticks, sleeps, slept_us / 1000.0);
    return bad_count || r->interrupted ? 1 : 0;
}

int standalone_run(int argc, char **argv)
{
    struct opts o;
    struct run r = { .o = &o };
    struct workload *wl = NULL;
    struct jsonl_sink *js = NULL;
    char host[256], err[WORKLOAD_ERR_LEN];
    int rc;

    standalone_opts_defaults(&o);
    if ((rc = standalone_opts_parse(argc, argv, &o, STANDALONE_RUN_USAGE)) != 0)
        return rc < 0 ? 0 : rc;
    if ((rc = standalone_opts_check("run", &o, host, sizeof host, &r.password)) != 0)
        return rc;
    char probe[RESULTS_NAME_LEN];
    if (standalone_expand_user(o.users, o.first + o.sessions - 1, probe, sizeof probe) != 0)
        return standalone_opts_bad("run", "users", o.users);
    if (!o.workload || !o.duration_ms) {
        fprintf(stderr, "sessmax-agent run: --workload and --duration are required (see --help)\n");
        return EX_USAGE;
    }
    if (!(wl = workload_load_file(o.workload, err, sizeof err))) {
        fprintf(stderr, "%s\n", err);
        return EX_DATAERR;
    }
    if (!o.size_given && workload_width(wl)) {
        o.cfg.width = workload_width(wl);
        o.cfg.height = workload_height(wl);
    }
    if (workload_bpp(wl) && o.cfg.bpp == 16)
        o.cfg.bpp = workload_bpp(wl);
    r.wl = wl;
    if (o.cfg.shot_timers && !o.cfg.shot_dir) {
        fprintf(stderr, "sessmax-agent run: --shot-timers needs --shots DIR\n");
        workload_free(wl);
        return EX_USAGE;
    }
    if (o.cfg.shot_dir && shots_mkdir(o.cfg.shot_dir, err, sizeof err) != 0) {
        fprintf(stderr, "sessmax-agent run: %s\n", err);
        workload_free(wl);
        return EX_CANTCREAT;
    }
    struct netprofile net;
    struct netem *netem = NULL;
    char nhost[64];
    netprofile_lan(&net);
    if (o.network && (netprofile_parse_arg(o.network, &net, err, sizeof err) != 0 ||
                      netem_apply(&net, &o.cfg, &netem, nhost, sizeof nhost, err, sizeof err) != 0)) {
        fprintf(stderr, "sessmax-agent run: --network: %s\n", err);
        workload_free(wl);
        return EX_NOPERM;
    }
    rc = EX_SOFTWARE;
    struct outpipe *out = outpipe_start();     /* records and logs never wait for the disk */
    r.base = event_base_new();
    js = jsonl_sink_new(stdout);
    if (r.base && js)
        rc = run_loop(&r, js);
    engine_free(r.eng);
    netem_close(netem);   /* after the engine: its sessions' sockets live in the namespace */
    if (r.launch_ev) event_free(r.launch_ev);
    if (r.stop_ev) event_free(r.stop_ev);
    if (r.sigint_ev) event_free(r.sigint_ev);
    if (r.sigterm_ev) event_free(r.sigterm_ev);
    if (r.base) event_base_free(r.base);
    jsonl_sink_free(js);
    outpipe_stop(out);
    int pics = o.cfg.shot_timers ? shots_contact_sheet(o.cfg.shot_dir, err, sizeof err) : 0;
    if (pics < 0)
        fprintf(stderr, "sessmax-agent run: %s\n", err);
    else if (o.cfg.shot_timers)
        fprintf(stderr, "shots: %d pictures, contact sheet %s/index.html\n", pics, o.cfg.shot_dir);
    workload_free(wl);
    return rc;
}

/* ---------------------------------------------------------------- shot */

struct shot {
    struct opts *o;
    struct workload *wl;              /* --workload: print its regions' match hashes */
    struct event_base *base;
    struct engine *eng;
    struct event *wait_ev;
    int saved, failed, uniform, tls_failed;
    int unreachable;                  /* failed to connect: exit EX_UNAVAILABLE, as probe */
};

/* A screen of one colour is a desktop that has not painted (yet): not worth a PNG's exit 0. */
static int shot_uniform(const struct screen_view *v, uint32_t *rgb)
{
    *rgb = workload_pixel_rgb(v->pixels, v->stride, v->bytes_per_pixel, 0, 0);
    for (uint32_t y = 0; y < v->height; y++)
        if (memcmp(v->pixels + (size_t)y * v->stride, v->pixels, (size_t)v->width * v->bytes_per_pixel) != 0)
            return 0;
    for (uint32_t x = 1; x < v->width; x++)
        if (memcmp(v->pixels + (size_t)x * v->bytes_per_pixel, v->pixels, v->bytes_per_pixel) != 0)
            return 0;
    return 1;
}

/* For writing `match` conditions: each named region's hash at tolerance 0, as a YAML line. */
static void shot_print_hashes(struct shot *s)
{
    struct screen_view v;
    if (engine_screen(s->eng, 0, &v) != 0)
        return;
    for (size_t i = 1; i < s->wl->nregions; i++) {
        const struct workload_region *g = &s->wl->regions[i];
        if (g->r.x < 0 || g->r.y < 0 || (uint32_t)(g->r.x + g->r.w) > v.width ||
            (uint32_t)(g->r.y + g->r.h) > v.height) {
            printf("# %s: outside the %ux%u screen\n", g->name, v.width, v.height);
            continue;
        }
        uint64_t h = workload_region_hash(v.pixels, v.stride, v.bytes_per_pixel, g->r, 0);
        printf("%s: {match: {region: %s, hash: \"%016llx\", tolerance: 0}}\n", g->name, g->name,
               (unsigned long long)h);
    }
    fflush(stdout);
}

static void shot_save_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct shot *s = arg;
    struct screen_view v;
    uint32_t rgb;
    if (engine_screen(s->eng, 0, &v) == 0 && shot_uniform(&v, &rgb)) {
        s->uniform = 1;
        fprintf(stderr, "sessmax-agent shot: warning: the whole screen is one colour (#%06x): the desktop "
                "has not painted; try a longer --wait\n", rgb);
    }
    if (engine_save_png(s->eng, 0, s->o->out) == 0) {
        s->saved = 1;
        fprintf(stderr, "saved %s\n", s->o->out);
        if (s->wl)
            shot_print_hashes(s);
    }
    engine_logoff_all(s->eng, (uint32_t)s->o->logoff_ms);
}

static void shot_session_cb(void *ctx, const struct rec_session *e)
{
    struct shot *s = ctx;
    if (e->kind == SESSION_ACTIVE) {
        struct timeval tv = { (time_t)(s->o->wait_ms / 1000), (suseconds_t)(s->o->wait_ms % 1000) * 1000 };
        event_add(s->wait_ev, &tv);
    } else if (e->kind == SESSION_FAILED) {
        s->failed = 1;
        fprintf(stderr, "sessmax-agent shot: %s: %s: %s\n", e->user,
                failure_reason_name(e->reason), e->detail);
        if (e->reason == FAIL_TLS)
            s->tls_failed = 1;   /* the hint (its fingerprint) once the loop has ended */
        if (e->reason == FAIL_CONNECT || e->reason == FAIL_CONNECT_TIMEOUT)
            s->unreachable = 1;
    }
}

static void shot_idle_cb(void *arg)
{
    struct shot *s = arg;
    event_base_loopexit(s->base, NULL);
}

int standalone_shot(int argc, char **argv)
{
    struct opts o;
    struct shot s = { .o = &o };
    char host[256];
    const char *password;
    int rc;

    standalone_opts_one_session(&o, 5000);
    if ((rc = standalone_opts_parse(argc, argv, &o, STANDALONE_SHOT_USAGE)) != 0)
        return rc < 0 ? 0 : rc;
    if ((rc = standalone_opts_check("shot", &o, host, sizeof host, &password)) != 0)
        return rc;
    if (!o.out) {
        fprintf(stderr, "sessmax-agent shot: -o FILE.png is required (see --help)\n");
        return EX_USAGE;
    }
    char err[WORKLOAD_ERR_LEN], dir[4096];
    snprintf(dir, sizeof dir, "%s", o.out);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (shots_mkdir(dir, err, sizeof err) != 0) {
            fprintf(stderr, "sessmax-agent shot: %s\n", err);
            return EX_CANTCREAT;
        }
    }
    if (o.workload && !(s.wl = workload_load_file(o.workload, err, sizeof err))) {
        fprintf(stderr, "%s\n", err);
        return EX_DATAERR;
    }
    struct result_sink sink = { .ctx = &s, .session = shot_session_cb };
    rc = EX_SOFTWARE;
    s.base = event_base_new();
    if (s.base)
        s.eng = engine_new(s.base, &o.cfg, &sink);
    if (s.eng && (s.wait_ev = evtimer_new(s.base, shot_save_cb, &s))) {
        engine_set_idle_cb(s.eng, shot_idle_cb, &s);
        struct engine_session_spec spec = { .session_index = 0, .user = o.users,
                                            .password = password, .seed = o.seed };
        if (engine_start_session(s.eng, &spec) == 0) {
            event_base_dispatch(s.base);
            rc = s.saved && !s.uniform ? 0 : s.unreachable ? EX_UNAVAILABLE : 1;
            if (s.tls_failed)
                cert_hint_print(o.target, host, o.cfg.port, o.cfg.fingerprint,
                                o.cfg.connect_timeout_ms && o.cfg.connect_timeout_ms < 10000 ? o.cfg.connect_timeout_ms : 10000);
        }
    }
    engine_free(s.eng);
    workload_free(s.wl);
    if (s.wait_ev)
        event_free(s.wait_ev);
    if (s.base)
        event_base_free(s.base);
    return rc;
}

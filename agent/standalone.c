/* standalone.c -- the `run` and `shot` commands: parse options into an engine_config, start
 * sessions on a ramp, stop after the duration (or on SIGINT/SIGTERM) with an orderly logoff, and
 * print JSON lines (stdout) plus a summary (stderr). The password comes from SESSMAX_PASSWORD. */
#include "agent/standalone.h"

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

#include "agent/engine.h"
#include "agent/interp.h"
#include "common/hostport.h"
#include "agent/jsonl_sink.h"
#include "agent/netem.h"
#include "common/log.h"
#include "common/numarg.h"
#include "common/netprofile.h"
#include "common/shots.h"
#include "common/workload.h"
#include "common/workload_pixel.h"
#include "common/x11_preset.h"

struct opts {
    struct engine_config cfg;
    struct x11_client client;          /* --client */
    const char *target, *users, *workload, *out, *log_level, *network;
    unsigned sessions, first;          /* --first: number of the first user */
    int64_t duration_ms, ramp_ms, wait_ms, logoff_ms;
    uint64_t seed;
    int size_given;
};

/* ---------------------------------------------------------------- helpers */

int64_t standalone_parse_duration_ms(const char *text)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || v < 0)
        return -1;
    double mul = 1000;
    if (!strcmp(end, "ms"))
        mul = 1;
    else if (!strcmp(end, "s") || !*end)
        mul = 1000;
    else if (!strcmp(end, "m"))
        mul = 60000;
    else if (!strcmp(end, "h"))
        mul = 3600000;
    else
        return -1;
    return (int64_t)(v * mul);
}

int standalone_expand_user(const char *pattern, unsigned n, char *out, size_t outlen)
{
    size_t o = 0;
    for (const char *p = pattern; *p; ) {
        char buf[32];
        const char *src = NULL;
        if (!strncmp(p, "{n}", 3)) {
            snprintf(buf, sizeof buf, "%u", n);
            src = buf;
            p += 3;
        } else if (!strncmp(p, "{n:0", 4) && p[4] >= '1' && p[4] <= '9' && p[5] == '}') {
            snprintf(buf, sizeof buf, "%0*u", p[4] - '0', n);
            src = buf;
            p += 6;
        } else if (*p == '{') {
            return -1;
        } else {
            buf[0] = *p++;
            buf[1] = 0;
            src = buf;
        }
        size_t l = strlen(src);
        if (o + l >= outlen)
            return -1;
        memcpy(out + o, src, l);
        o += l;
    }
    out[o] = 0;
    return 0;
}

static int parse_target(const char *t, struct engine_config *cfg, char *host, size_t hostlen)
{
    uint16_t port;
    if (hostport_split(t, 3389, host, hostlen, &port) != 0 || port == 0)
        return -1;
    cfg->host = host;
    cfg->port = port;
    return 0;
}

static const char RUN_USAGE[] =
    "usage: sessmax-agent run --target HOST:PORT --users PATTERN --sessions N --workload FILE\n"
    "                         --duration 60s [--ramp 10s] [--fingerprint sha256:..|--no-verify]\n"
    "                         [--shots DIR] [--connect-threads K] [options]\n"
    "Runs N sessions of the workload and prints one JSON object per line on stdout (samples,\n"
    "session events, traffic, health) and a summary on stderr. The password is read from\n"
    "SESSMAX_PASSWORD (never from the command line). PATTERN expands {n} or {n:03} with the\n"
    "1-based session number, e.g. 'simuser{n:03}'.\n"
    "options:\n"
    "  --target HOST:PORT       RDP server (port 3389 by default)\n"
    "  --users PATTERN          user names\n"
    "  --sessions N             number of sessions (default 1)\n"
    "  --workload FILE          workload YAML\n"
    "  --duration D             run time from the first launch (e.g. 60s, 5m), then log off\n"
    "  --ramp D                 spread the launches evenly over D (default 0: all at once)\n"
    "  --first N                number of the first user (default 1): --first 5 --sessions 2\n"
    "                           runs users 5 and 6 of PATTERN\n"
    "  --loops N                log each session off right after its Nth workload loop (the\n"
    "                           run ends when all did, or at --duration, whichever is first)\n"
    "  --fingerprint LIST       accept only these certificate fingerprints (sha256:AA:BB:..)\n"
    "  --no-verify              accept any certificate\n"
    "  --security LAYER         negotiate (default), tls, nla or rdp\n"
    "  --network PROFILE        shape the RDP traffic: a built-in profile (wan-250ms-1pct, ...) or\n"
    "                           its JSON object; needs CAP_NET_ADMIN (docs/network.md)\n"
    "  --shots DIR              save a PNG there when a wait or the logon times out\n"
    "  --shot-timers            with --shots: also one at the end of every timer of each\n"
    "                           session's first loop, and an index.html contact sheet\n"
    "  --logon-retries N        start a logon over with a fresh connection up to N times\n"
    "                           when the desktop never got ready (default 0)\n"
    "  --connect-threads K      connect thread pool size (default 4)\n"
    "  --connect-timeout D      connect watchdog per attempt (default 30s)\n"
    "  --max-attempts N         connect attempts per session for connect errors (default 2)\n"
    "  --logoff-timeout D       deadline for the orderly logoff (default 30s)\n"
    "  --size WxH, --bpp 16|32  desktop (default from the workload, else 1024x768x16)\n"
    "  --domain NAME            logon domain\n"
    "  --seed N                 base seed for think times (default 1)\n"
    "  --config-dir DIR         private FreeRDP config directory (default: a fresh temp dir)\n"
    "  --client SPEC            run an external X11 client per session instead of the engine:\n"
    "                           a preset (xfreerdp, vncviewer, citrix, vmware-view) or its JSON\n"
    "                           options, e.g. '{\"x11\":\"xfreerdp\",\"resolution\":\"800x600\"}'\n"
    "                           (docs/clients.md)\n"
    "  --log-level LEVEL        error|warn|info|debug (default warn)\n";

static const char SHOT_USAGE[] =
    "usage: sessmax-agent shot --target HOST:PORT --user NAME -o FILE.png [--wait 3s]\n"
    "                          [--fingerprint sha256:..|--no-verify] [--size WxH] [--bpp 16|32]\n"
    "                          [--workload FILE]\n"
    "Logs one session on (password from SESSMAX_PASSWORD), waits, saves its screen as PNG and\n"
    "logs off. The tool for writing workloads: regions and pixels are read from the PNG. With\n"
    "--workload, prints on stdout a `match` condition (region hash) for each of its regions.\n";

enum { O_TARGET = 256, O_USERS, O_SESSIONS, O_WORKLOAD, O_DURATION, O_RAMP, O_FP, O_NOVERIFY,
       O_SHOTS, O_THREADS, O_CTIMEOUT, O_ATTEMPTS, O_LOGOFF, O_SIZE, O_BPP, O_DOMAIN, O_SEED,
       O_CONFIGDIR, O_LOGLEVEL, O_WAIT, O_LOOPS, O_SECURITY, O_NETWORK, O_FIRST, O_SHOT_TIMERS,
       O_LOGON_RETRIES, O_CLIENT, O_HELP };

static const struct option LONGOPTS[] = {
    { "target", 1, 0, O_TARGET }, { "users", 1, 0, O_USERS }, { "user", 1, 0, O_USERS },
    { "sessions", 1, 0, O_SESSIONS }, { "workload", 1, 0, O_WORKLOAD },
    { "duration", 1, 0, O_DURATION }, { "ramp", 1, 0, O_RAMP }, { "fingerprint", 1, 0, O_FP },
    { "no-verify", 0, 0, O_NOVERIFY }, { "shots", 1, 0, O_SHOTS },
    { "connect-threads", 1, 0, O_THREADS }, { "connect-timeout", 1, 0, O_CTIMEOUT },
    { "max-attempts", 1, 0, O_ATTEMPTS }, { "logoff-timeout", 1, 0, O_LOGOFF },
    { "size", 1, 0, O_SIZE }, { "bpp", 1, 0, O_BPP }, { "domain", 1, 0, O_DOMAIN },
    { "seed", 1, 0, O_SEED }, { "config-dir", 1, 0, O_CONFIGDIR },
    { "log-level", 1, 0, O_LOGLEVEL }, { "wait", 1, 0, O_WAIT }, { "loops", 1, 0, O_LOOPS },
    { "security", 1, 0, O_SECURITY }, { "network", 1, 0, O_NETWORK }, { "first", 1, 0, O_FIRST },
    { "shot-timers", 0, 0, O_SHOT_TIMERS }, { "logon-retries", 1, 0, O_LOGON_RETRIES },
    { "client", 1, 0, O_CLIENT }, { "help", 0, 0, O_HELP },
    { 0, 0, 0, 0 },
};

static const char *opt_name(int c)
{
    for (const struct option *o = LONGOPTS; o->name; o++)
        if (o->val == c)
            return o->name;
    return "?";
}

static int bad(const char *cmd, const char *opt, const char *val)
{
    fprintf(stderr, "sessmax-agent %s: bad value for --%s: '%s' (see --help)\n", cmd, opt, val);
    return EX_USAGE;
}

/* Returns 0, EX_USAGE, or -1 for --help (printed). */
static int parse(int argc, char **argv, struct opts *o, const char *usage)
{
    const char *cmd = argv[0];
    int c;
    unsigned long v;
    char err[256];
    optind = 0;                  /* 0, not 1: re-initialises getopt after main()'s own scan */
    while ((c = getopt_long(argc, argv, "o:h", LONGOPTS, NULL)) != -1) {
        switch (c) {
        case O_TARGET: o->target = optarg; break;
        case O_USERS: o->users = optarg; break;
        case O_WORKLOAD: o->workload = optarg; break;
        case O_NETWORK: o->network = optarg; break;
        case O_FP: o->cfg.fingerprint = optarg; break;
        case O_NOVERIFY: o->cfg.no_verify = 1; break;
        case O_SECURITY:
            if (engine_security_parse(optarg, &o->cfg.security) != 0)
                return bad(cmd, "security", optarg);
            break;
        case O_SHOTS: o->cfg.shot_dir = optarg; break;
        case O_DOMAIN: o->cfg.domain = optarg; break;
        case O_CONFIGDIR: o->cfg.config_dir = optarg; break;
        case O_CLIENT: {
            char err[256];
            if (x11_client_from_json(&o->client, optarg, err, sizeof err) != 0) {
                fprintf(stderr, "sessmax-agent %s: --client: %s\n", cmd, err);
                return EX_USAGE;
            }
            o->cfg.client = &o->client;
            break;
        }
        case O_LOGLEVEL:
            if (log_parse_level(optarg) < 0)
                return bad(cmd, "log-level", optarg);
            o->log_level = optarg;
            break;
        case 'o': o->out = optarg; break;
        case O_SHOT_TIMERS: o->cfg.shot_timers = 1; break;
        case O_SESSIONS: case O_THREADS: case O_ATTEMPTS: case O_BPP: case O_SEED: case O_LOOPS:
        case O_FIRST: case O_LOGON_RETRIES:
            if (numarg_ulong(opt_name(c), optarg, c == O_SEED || c == O_LOGON_RETRIES ? 0 : 1,
                             c == O_SEED ? ULONG_MAX : c == O_LOGON_RETRIES ? 10 : 100000, &v,
                             err, sizeof err) != 0 || (c == O_BPP && v != 16 && v != 32))
                return bad(cmd, opt_name(c), optarg);
            if (c == O_SESSIONS) o->sessions = (unsigned)v;
            if (c == O_THREADS) o->cfg.connect_threads = (unsigned)v;
            if (c == O_ATTEMPTS) o->cfg.max_attempts = (uint32_t)v;
            if (c == O_BPP) o->cfg.bpp = (uint32_t)v;
            if (c == O_SEED) o->seed = v;
            if (c == O_LOOPS) o->cfg.max_loops = (uint32_t)v;
            if (c == O_FIRST) o->first = (unsigned)v;
            if (c == O_LOGON_RETRIES) o->cfg.logon_retries = (uint32_t)v;
            break;
        case O_DURATION: case O_RAMP: case O_CTIMEOUT: case O_LOGOFF: case O_WAIT: {
            int64_t ms = standalone_parse_duration_ms(optarg);
            if (ms < 0)
                return bad(cmd, opt_name(c), optarg);
            if (c == O_DURATION) o->duration_ms = ms;
            if (c == O_RAMP) o->ramp_ms = ms;
            if (c == O_CTIMEOUT) o->cfg.connect_timeout_ms = (uint32_t)(ms ? ms : 1);
            if (c == O_LOGOFF) o->logoff_ms = ms;
            if (c == O_WAIT) o->wait_ms = ms;
            break;
        }
        case O_SIZE: {
            unsigned long w, h;
            if (numarg_size("size", optarg, 64, 64, 8192, 8192, &w, &h, err, sizeof err) != 0)
                return bad(cmd, "size", optarg);
            o->cfg.width = (uint32_t)w;
            o->cfg.height = (uint32_t)h;
            o->size_given = 1;
            break;
        }
        case O_HELP: case 'h':
            fputs(usage, stdout);
            return -1;
        default:
            fputs(usage, stderr);
            return EX_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "sessmax-agent %s: unexpected argument '%s' (see --help)\n", cmd,
                argv[optind]);
        return EX_USAGE;
    }
    return 0;
}

static void defaults(struct opts *o)
{
    memset(o, 0, sizeof *o);
    engine_config_defaults(&o->cfg);
    o->sessions = 1;
    o->first = 1;
    o->logoff_ms = 30000;
    o->wait_ms = 3000;
    o->seed = 1;
}

/* Common checks of run and shot; fills host. */
static int check_common(const char *cmd, struct opts *o, char *host, size_t hostlen,
                        const char **password)
{
    if (o->log_level)
        log_set_level((enum log_level)log_parse_level(o->log_level));
    if (!o->target || parse_target(o->target, &o->cfg, host, hostlen) != 0) {
        fprintf(stderr, "sessmax-agent %s: --target HOST:PORT is required (see --help)\n", cmd);
        return EX_USAGE;
    }
    if (!o->users) {
        fprintf(stderr, "sessmax-agent %s: --user(s) is required (see --help)\n", cmd);
        return EX_USAGE;
    }
    if (o->cfg.fingerprint && o->cfg.no_verify) {
        fprintf(stderr, "sessmax-agent %s: --fingerprint and --no-verify exclude each other\n", cmd);
        return EX_USAGE;
    }
    *password = getenv("SESSMAX_PASSWORD");
    if (!*password) {
        fprintf(stderr, "sessmax-agent %s: set the password in SESSMAX_PASSWORD\n", cmd);
        return EX_DATAERR;
    }
    return 0;
}

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

    defaults(&o);
    if ((rc = parse(argc, argv, &o, RUN_USAGE)) != 0)
        return rc < 0 ? 0 : rc;
    if ((rc = check_common("run", &o, host, sizeof host, &r.password)) != 0)
        return rc;
    char probe[RESULTS_NAME_LEN];
    if (standalone_expand_user(o.users, o.first + o.sessions - 1, probe, sizeof probe) != 0)
        return bad("run", "users", o.users);
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
    int saved, failed, uniform;
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
            fprintf(stderr, "hint: the server's certificate was not accepted: pin it with --fingerprint "
                    "sha256:AA:BB:... (the warning above shows it), or pass --no-verify on a network you trust\n");
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

    defaults(&o);
    o.cfg.traffic_interval_ms = 0;
    o.cfg.health_interval_ms = 0;
    o.logoff_ms = 5000;
    if ((rc = parse(argc, argv, &o, SHOT_USAGE)) != 0)
        return rc < 0 ? 0 : rc;
    if ((rc = check_common("shot", &o, host, sizeof host, &password)) != 0)
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
            rc = s.saved && !s.uniform ? 0 : 1;
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

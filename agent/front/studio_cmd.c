/* studio_cmd.c -- `sessmax-agent studio HOST:PORT`: logs one session on through the engine
 * (without a workload: nothing but the studio sends it input), serves the studio's pages
 * (agent/studio/studio_api.h) on the token-checked web server of common/, hands every paint to
 * the studio, and logs off on SIGINT/SIGTERM. Options are run's and shot's (standalone_opts.c). */
#include "agent/front/studio_cmd.h"

#include <event2/event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "agent/engine/engine.h"
#include "agent/front/cert_hint.h"
#include "agent/front/standalone_opts.h"
#include "agent/studio/studio.h"
#include "agent/studio/studio_api.h"
#include "common/log.h"
#include "common/names.h"
#include "common/web_server.h"

static const char USAGE[] =
    "usage: sessmax-agent studio HOST:PORT --user NAME -o FILE.yaml [--listen 127.0.0.1:0]\n"
    "                            [--web-token-file FILE] [--name NAME] [--size WxH] [--bpp 16|32]\n"
    "                            [--fingerprint sha256:..|--no-verify] [--security LAYER]\n"
    "Logs one session on (password from SESSMAX_PASSWORD) and serves a page that shows it live:\n"
    "draw regions, take pixels, send keys and text, record key/type/think/wait/timer steps, try\n"
    "each against the session (how long it took, which condition ended it, what the\n"
    "plausibility floor says) and save the workload to FILE.yaml (docs/studio.md). The URL, with\n"
    "its token, is printed on stdout; the listener is on loopback unless --listen says otherwise.\n"
    "Ctrl-C logs the session off. Exit 0 after a clean end; 1 when the logon failed; 69 when the\n"
    "server cannot be reached; 64 for usage errors.\n";

struct studio_run {
    struct opts *o;
    const char *password;        /* from standalone_opts_check, as run and shot take it */
    struct event_base *base;
    struct engine *eng;
    struct studio *st;
    struct web_server *web;
    struct event *sigint_ev, *sigterm_ev;
    int failed, tls_failed, unreachable, stopping;
};

static int live_screen(void *arg, struct screen_view *out)
{
    struct studio_run *r = arg;
    return engine_screen(r->eng, 0, out);
}

static int live_driver(void *arg, const struct driver_ops **ops, void **sess)
{
    struct studio_run *r = arg;
    return engine_session_driver(r->eng, 0, ops, sess);
}

static void paint_tap(void *arg, uint32_t index, const struct rect *rects, size_t n)
{
    struct studio_run *r = arg;
    if (index == 0 && r->st)
        studio_paint(r->st, rects, n);
}

static void session_cb(void *ctx, const struct rec_session *e)
{
    struct studio_run *r = ctx;
    if (e->kind == SESSION_ACTIVE) {
        fprintf(stderr, "studio: %s logged on in %.1f s; the page shows the session\n", e->user, e->value_us / 1e6);
    } else if (e->kind == SESSION_FAILED) {
        r->failed = 1;
        fprintf(stderr, "sessmax-agent studio: %s: %s: %s\n", e->user, failure_reason_name(e->reason), e->detail);
        r->tls_failed = e->reason == FAIL_TLS;
        r->unreachable = e->reason == FAIL_CONNECT || e->reason == FAIL_CONNECT_TIMEOUT;
    }
}

static void idle_cb(void *arg)
{
    struct studio_run *r = arg;
    event_base_loopexit(r->base, NULL);
}

static void signal_cb(evutil_socket_t sig, short what, void *arg)
{
    (void)sig;
    (void)what;
    struct studio_run *r = arg;
    if (r->stopping) {
        event_base_loopexit(r->base, NULL);
        return;
    }
    r->stopping = 1;
    if (r->st && r->st->dirty)
        fprintf(stderr, "studio: unsaved changes were not written to %s\n", r->st->out_path);
    engine_logoff_all(r->eng, (uint32_t)r->o->logoff_ms);
}

/* The workload's name: --name, else the file's base name without .yaml. */
static void default_name(const struct opts *o, char *out, size_t len)
{
    const char *base = o->name ? o->name : strrchr(o->out, '/') ? strrchr(o->out, '/') + 1 : o->out;
    char tmp[RESULTS_NAME_LEN];
    snprintf(tmp, sizeof tmp, "%s", base);
    char *dot = strstr(tmp, ".yaml");
    if (dot && !o->name)
        *dot = '\0';
    name_sanitize(tmp, out, len);
}

static int serve(struct studio_run *r, const char *host)
{
    struct opts *o = r->o;
    char err[512], token[128] = "", name[RESULTS_NAME_LEN];
    if (o->token_file && web_token_read_file(o->token_file, token, sizeof token, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax-agent studio: %s\n", err);
        return EX_CONFIG;
    }
    default_name(o, name, sizeof name);
    struct studio_live live = { .arg = r, .screen = live_screen, .driver = live_driver };
    struct result_sink sink = { .ctx = r, .session = session_cb };
    if (!(r->eng = engine_new(r->base, &o->cfg, &sink)) ||
        !(r->st = studio_new(r->base, &live, o->users, name, o->out, o->cfg.width, o->cfg.height, o->cfg.bpp)))
        return EX_SOFTWARE;
    r->web = web_server_start(r->base, o->listen ? o->listen : "127.0.0.1:0", token, studio_api_page, r->st, err,
                              sizeof err);
    if (!r->web) {
        fprintf(stderr, "sessmax-agent studio: %s\n", err);
        return EX_UNAVAILABLE;
    }
    engine_set_paint_tap(r->eng, paint_tap, r);
    engine_set_idle_cb(r->eng, idle_cb, r);
    r->sigint_ev = evsignal_new(r->base, SIGINT, signal_cb, r);
    r->sigterm_ev = evsignal_new(r->base, SIGTERM, signal_cb, r);
    if (!r->sigint_ev || !r->sigterm_ev || event_add(r->sigint_ev, NULL) || event_add(r->sigterm_ev, NULL))
        return EX_SOFTWARE;
    printf("studio: %s  (session %s on %s:%u; saving to %s)\n", web_server_url(r->web), o->users, host,
           o->cfg.port, o->out);
    fflush(stdout);
    struct engine_session_spec spec = { .session_index = 0, .user = o->users,
                                        .password = r->password, .seed = o->seed };
    if (engine_start_session(r->eng, &spec) != 0)
        return EX_SOFTWARE;
    event_base_dispatch(r->base);
    return r->failed ? (r->unreachable ? EX_UNAVAILABLE : 1) : 0;
}

int studio_cmd_main(int argc, char **argv)
{
    struct opts o;
    struct studio_run r = { .o = &o };
    char host[256];
    const char *password;
    int rc;
    standalone_opts_one_session(&o, 10000);
    /* HOST:PORT may come first, as `probe` takes it */
    const char *positional = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
    if (positional) {
        argv[1] = argv[0];
        argv++;
        argc--;
    }
    if ((rc = standalone_opts_parse(argc, argv, &o, USAGE)) != 0)
        return rc < 0 ? 0 : rc;
    if (positional)
        o.target = positional;
    if ((rc = standalone_opts_check("studio", &o, host, sizeof host, &password)) != 0)
        return rc;
    if (!o.out) {
        fprintf(stderr, "sessmax-agent studio: -o FILE.yaml is required (the workload it saves; see --help)\n");
        return EX_USAGE;
    }
    if (o.cfg.client) {
        fprintf(stderr, "sessmax-agent studio: the studio drives the built-in RDP engine, not --client\n");
        return EX_USAGE;
    }
    r.password = password;
    r.base = event_base_new();
    rc = r.base ? serve(&r, host) : EX_SOFTWARE;
    web_server_free(r.web);
    engine_free(r.eng);
    studio_free(r.st);
    if (r.sigint_ev) event_free(r.sigint_ev);
    if (r.sigterm_ev) event_free(r.sigterm_ev);
    if (r.base) event_base_free(r.base);
    if (r.tls_failed)
        cert_hint_print(o.target, host, o.cfg.port, o.cfg.fingerprint, 10000);
    return rc;
}

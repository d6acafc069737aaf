/* cmd_serve.c -- `sessmax serve DB`: the finished runs of a results database in the browser (the
 * dashboard, each run's report, compare) until Ctrl-C; controller/web/serve.h has the pages. */
#include "controller/cli/cmd_serve.h"

#include <event2/event.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <sysexits.h>

#include "controller/web/serve.h"
#include "common/web_server.h"

static const char usage[] =
    "usage: sessmax serve DB [--listen ADDR:PORT] [--token-file FILE]\n\n"
    "Serves DB's runs to a browser until Ctrl-C: / is the dashboard (every run; smax and baseline\n"
    "over dates per cell, regressions marked), /run-ID.html a run's report and\n"
    "/compare?run=A&run=B (up to 5 runs) the side-by-side table. Pages are made again when DB\n"
    "changes, so a nightly job's new runs show up. Listens on 127.0.0.1:5665 unless told\n"
    "otherwise (:0 picks a free port) and prints the URL with its token: a random one, or the\n"
    "one in --token-file (mode 0600); every request needs it. Ends after Ctrl-C.\n";

static void stop_cb(evutil_socket_t sig, short what, void *arg)
{
    (void)sig;
    (void)what;
    event_base_loopexit(arg, NULL);
}

static int serve_until_signal(struct web_serve *w, const char *listen, const char *token)
{
    char err[512];
    struct event_base *base = event_base_new();
    struct event *si = base ? evsignal_new(base, SIGINT, stop_cb, base) : NULL;
    struct event *st = base ? evsignal_new(base, SIGTERM, stop_cb, base) : NULL;
    struct web_server *srv = si && st ? web_server_start(base, listen, token, web_serve_page, w, err, sizeof err)
                                      : NULL;
    int code = 0;
    if (!srv) {
        fprintf(stderr, "sessmax serve: %s\n", base && si && st ? err : "out of memory");
        code = base && si && st ? EX_UNAVAILABLE : EX_OSERR;
    } else {
        event_add(si, NULL);
        event_add(st, NULL);
        printf("serving %s\n", web_server_url(srv));
        fflush(stdout);
        event_base_dispatch(base);
    }
    web_server_free(srv);
    if (si)
        event_free(si);
    if (st)
        event_free(st);
    if (base)
        event_base_free(base);
    return code;
}

static int serve(int argc, char **argv)
{
    static const struct option opts[] = {
        { "listen", required_argument, NULL, 'l' }, { "token-file", required_argument, NULL, 't' },
        { NULL, 0, NULL, 0 },
    };
    const char *listen = "127.0.0.1:5665", *token_file = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'l': listen = optarg; break;
        case 't': token_file = optarg; break;
        default: return cmd_usage_error(&cmd_serve, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return cmd_usage_error(&cmd_serve, "expected one results database");
    char token[128] = "", err[512];
    if (token_file && web_token_read_file(token_file, token, sizeof token, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax serve: --token-file %s\n", err);
        return EX_CONFIG;
    }
    int code = 0;
    struct web_serve *w = web_serve_open(argv[optind], &code);
    if (!w)
        return code;
    code = serve_until_signal(w, listen, token);
    web_serve_close(w);
    return code;
}

const struct cmd cmd_serve = {
    "serve", "serve a results database's runs to a browser: dashboard, reports, compare",
    usage, serve,
};

/* cmd_dashboard.c -- `sessmax dashboard DB -o DIR`: the nightly trend page plus every run's report. */
#include "controller/cli/cmd_dashboard.h"

#include <getopt.h>
#include <stdio.h>

#include "controller/report/dashboard.h"
#include "controller/score/runsel.h"
#include "db/store.h"

static const char usage[] =
    "usage: sessmax dashboard DB -o DIR\n\n"
    "Writes DIR/index.html (the trend of smax and baseline per transport x platform x network over\n"
    "the runs in DB, newest first in each table) and DIR/run-<id>.html, the report of every run.\n"
    "Self-contained pages: open DIR/index.html from disk or serve DIR as static files.\n";

static int dashboard(int argc, char **argv)
{
    static const struct option opts[] = { { "output", required_argument, NULL, 'o' }, { NULL, 0, NULL, 0 } };
    const char *dir = NULL;
    int c, code = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        if (c != 'o')
            return cmd_usage_error(&cmd_dashboard, "unknown or incomplete option '%s'", argv[optind - 1]);
        dir = optarg;
    }
    if (optind != argc - 1)
        return cmd_usage_error(&cmd_dashboard, "expected one results database");
    if (!dir)
        return cmd_usage_error(&cmd_dashboard, "missing -o DIR");
    struct store *st = runsel_open("dashboard", argv[optind], &code);
    if (!st)
        return code;
    char err[1024];
    if (dashboard_write(st, dir, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax dashboard: %s\n", err);
        code = EX_IOERR;
    }
    store_close(st);
    return code;
}

const struct cmd cmd_dashboard = { "dashboard", "write the nightly trend page and every run's report", usage, dashboard };

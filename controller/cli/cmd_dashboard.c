/* cmd_dashboard.c -- `sessmax dashboard DB -o DIR`: the nightly trend page plus every run's report. */
#include "controller/cli/cmd_dashboard.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "controller/report/dashboard.h"
#include "controller/score/runsel.h"
#include "controller/score/trend.h"
#include "db/store.h"

static const char usage[] =
    "usage: sessmax dashboard DB -o DIR [--tolerance 10%] [--last 7]\n\n"
    "Writes DIR/index.html -- smax and baseline over dates, one line per cell (transport x platform\n"
    "x network x client), a ring on every run that moved beyond --tolerance against the median of\n"
    "the previous --last runs of its cell (red: regression, green: improvement; the judgement of\n"
    "`sessmax trend`), and a table per cell, newest first -- and DIR/run-<id>.html, the report of\n"
    "every run. Self-contained pages: open DIR/index.html from disk or serve DIR as static files.\n"
    "A run whose data cannot be read is skipped (its row says why); the others are written.\n";

static int dashboard(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' }, { "tolerance", required_argument, NULL, 't' },
        { "last", required_argument, NULL, 'l' }, { NULL, 0, NULL, 0 },
    };
    struct dashboard_options opt = { DASHBOARD_TOLERANCE, DASHBOARD_LAST };
    const char *dir = NULL;
    char *end;
    long v;
    int c, code = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 'o': dir = optarg; break;
        case 't':
            if (trend_parse_tolerance(optarg, &opt.tolerance) < 0)
                return cmd_usage_error(&cmd_dashboard, "--tolerance '%s': a percentage such as 10%%", optarg);
            break;
        case 'l':
            errno = 0;
            v = strtol(optarg, &end, 10);
            if (errno || *end || v < 1 || v > 256)
                return cmd_usage_error(&cmd_dashboard, "--last '%s': a number of runs, 1-256", optarg);
            opt.last = (size_t)v;
            break;
        default: return cmd_usage_error(&cmd_dashboard, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return cmd_usage_error(&cmd_dashboard, "expected one results database");
    if (!dir)
        return cmd_usage_error(&cmd_dashboard, "missing -o DIR");
    struct store *st = runsel_open("dashboard", argv[optind], &code);
    if (!st)
        return code;
    char err[1024];
    int rc = dashboard_write_opts(st, dir, &opt, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "sessmax dashboard: %s\n", err);
        code = rc > 0 ? EX_DATAERR : EX_IOERR;
    }
    store_close(st);
    return code;
}

const struct cmd cmd_dashboard = { "dashboard", "write the nightly trend page and every run's report", usage, dashboard };

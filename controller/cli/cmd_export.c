/* cmd_export.c -- `sessmax export DB --run ID --format csv|json|junit|openmetrics [-o FILE]`. */
#include "controller/cli/cmd_export.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "common/outfile.h"
#include "controller/report/export.h"
#include "controller/score/runsel.h"
#include "db/store.h"

static const char usage[] =
    "usage: sessmax export DB [--run ID] --format csv|json|junit|openmetrics [-o FILE] [--points]\n\n"
    "Writes one run's figures (smax, baseline, threshold, sessions, bandwidth, agent health, timer\n"
    "percentiles) and verdict:\n"
    "  csv          run,metric,timer,value rows (--points: the measure curve t_us,active,value_ms,index_ms)\n"
    "  json         one object (the verdict.json fields plus every figure)\n"
    "  junit        one testcase per validity rule and threshold (CI test reports)\n"
    "  openmetrics  gauges with run/transport/platform/network labels, ending in # EOF\n"
    "Default output is stdout.\n";

static int export(int argc, char **argv)
{
    static const struct option opts[] = {
        { "run", required_argument, NULL, 'r' }, { "format", required_argument, NULL, 'f' },
        { "output", required_argument, NULL, 'o' }, { "points", no_argument, NULL, 'p' },
        { NULL, 0, NULL, 0 },
    };
    const char *run_text = NULL, *fmt_text = NULL, *out = NULL;
    int c, code = 0, points = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 'r': run_text = optarg; break;
        case 'f': fmt_text = optarg; break;
        case 'o': out = optarg; break;
        case 'p': points = 1; break;
        default: return cmd_usage_error(&cmd_export, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return cmd_usage_error(&cmd_export, "expected one results database");
    int fmt = fmt_text ? export_parse_format(fmt_text) : -1;
    if (fmt < 0)
        return cmd_usage_error(&cmd_export, "--format must be csv, json, junit or openmetrics%s%s%s",
                            fmt_text ? " (got '" : "", fmt_text ? fmt_text : "", fmt_text ? "')" : "");
    if (points && fmt != EXPORT_CSV)
        return cmd_usage_error(&cmd_export, "--points goes with --format csv");
    struct summary s;
    struct verdict v;
    memset(&s, 0, sizeof s);
    FILE *o = NULL;
    struct store *st = runsel_open("export", argv[optind], &code);
    int64_t run = st ? runsel_pick("export", st, argv[optind], run_text, &code) : -1;
    if (run < 0 || runsel_load("export", st, run, NULL, 0, &s, &v, &code) < 0)
        goto done;
    char err[1024];
    o = out ? outfile_open(out, err, sizeof err) : stdout;
    if (!o) {
        fprintf(stderr, "sessmax export: %s\n", err);
        code = EX_CANTCREAT;
        goto done;
    }
    int rc = points ? export_points_csv(&s, o) : export_write(&s, &v, (enum export_format)fmt, o);
    if (rc < 0 || fflush(o) != 0) {
        fprintf(stderr, "sessmax export: %s: write failed: %s\n", out ? out : "stdout", strerror(errno));
        code = EX_IOERR;
    }
    if (o != stdout && code == 0 && outfile_commit(o, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax export: %s\n", err);
        code = EX_IOERR;
    } else if (o != stdout && code) {
        outfile_discard(o);
    }
    o = NULL;
done:
    store_close(st);
    summary_free(&s);
    return code;
}

const struct cmd cmd_export = { "export", "export a run as CSV, JSON, JUnit XML or OpenMetrics", usage, export };

/* cmd_report.c -- `sessmax report DB --run ID -o report.html`: the one-page run report. */
#include "controller/cli/cmd_report.h"

#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "controller/report/report.h"
#include "controller/score/runsel.h"
#include "db/store.h"

static const char usage[] =
    "usage: sessmax report DB [--run ID] -o FILE.html [--verdict FILE]\n\n"
    "Writes one self-contained HTML page (inline SVG, no script, no network) for a run (default:\n"
    "the newest): verdict and reasons, smax, baseline, threshold, response time and index vs\n"
    "active sessions, timer percentiles, logon times, bandwidth per session, agent health, and\n"
    "what one session cost on the agent host (agent process; client and X server of external clients).\n"
    "Also writes verdict.json beside the report (or to --verdict FILE).\n"
    "Exit: 0 when written (gate on `sessmax score`), 64+ usage/data/I/O errors.\n";

static int report(int argc, char **argv)
{
    static const struct option opts[] = {
        { "run", required_argument, NULL, 'r' }, { "output", required_argument, NULL, 'o' },
        { "verdict", required_argument, NULL, 'v' }, { NULL, 0, NULL, 0 },
    };
    const char *run_text = NULL, *out = NULL, *vpath = NULL;
    int c, code = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 'r': run_text = optarg; break;
        case 'o': out = optarg; break;
        case 'v': vpath = optarg; break;
        default: return cmd_usage_error(&cmd_report, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return cmd_usage_error(&cmd_report, "expected one results database");
    if (!out)
        return cmd_usage_error(&cmd_report, "missing -o FILE.html");
    char vdefault[PATH_MAX], copy[PATH_MAX], err[1024];
    snprintf(copy, sizeof copy, "%s", out);
    snprintf(vdefault, sizeof vdefault, "%s/verdict.json", dirname(copy));
    struct summary s;
    struct verdict v;
    memset(&s, 0, sizeof s);
    struct store *st = runsel_open("report", argv[optind], &code);
    int64_t run = st ? runsel_pick("report", st, argv[optind], run_text, &code) : -1;
    if (run < 0 || runsel_load("report", st, run, NULL, 0, &s, &v, &code) < 0)
        goto done;
    if (report_write_summary(&s, &v, out, err, sizeof err) < 0 ||
        verdict_write_json(&s, &v, vpath ? vpath : vdefault, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax report: %s\n", err);
        code = EX_IOERR;
        goto done;
    }
    code = 0;
done:
    store_close(st);
    summary_free(&s);
    return code;
}

const struct cmd cmd_report = { "report", "write a self-contained HTML report of a run", usage, report };

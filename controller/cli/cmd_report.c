/* cmd_report.c -- `sessmax report DB --run ID -o report.html`: the one-page run report. */
#include "controller/cli/cmd_report.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "controller/report/report.h"
#include "controller/report/report_deck.h"
#include "controller/score/runsel.h"
#include "db/store.h"

static const char usage[] =
    "usage: sessmax report DB [--run ID] -o FILE.html [--verdict FILE]\n"
    "       sessmax report DB --run A --run B [--run C ...] -o FILE.html   (2 to 5 runs overlaid)\n\n"
    "Writes one self-contained HTML page (inline SVG, no script, no network) for a run (default:\n"
    "the newest): a one-line summary for a slide, verdict and reasons, smax, baseline, threshold,\n"
    "response time and index vs active sessions, active sessions and the target's CPU over time,\n"
    "timer percentiles, logon times, bandwidth per session, agent health, and what one session cost\n"
    "on the agent host. It prints as it shows (the browser's print to PDF).\n"
    "With --verdict FILE also writes the verdict as JSON there.\n"
    "With several --run, one page overlays the runs' index curves and thresholds on one capacity\n"
    "chart with a side-by-side table (no verdict.json).\n"
    "Writing the report is a success whatever the verdict: gate on `sessmax score`.\n";

/* Several runs on one page: every run loaded, then the overlay. */
static int overlay(const char *db, char **ids, int n, const char *out)
{
    struct summary s[REPORT_OVERLAY_MAX];
    struct verdict v[REPORT_OVERLAY_MAX];
    int loaded = 0, code = 0;
    char err[1024];
    struct store *st = runsel_open("report", db, &code);
    for (int i = 0; st && i < n; i++) {
        int64_t run = runsel_pick("report", st, db, ids[i], &code);
        if (run < 0 || runsel_load("report", st, run, NULL, 0, &s[loaded], &v[loaded], &code) < 0)
            break;
        loaded++;
    }
    if (st && loaded == n && report_write_overlay(s, v, (size_t)n, out, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax report: %s\n", err);
        code = EX_IOERR;
    }
    for (int i = 0; i < loaded; i++)
        summary_free(&s[i]);
    store_close(st);
    return code;
}

static int report(int argc, char **argv)
{
    static const struct option opts[] = {
        { "run", required_argument, NULL, 'r' }, { "output", required_argument, NULL, 'o' },
        { "verdict", required_argument, NULL, 'v' }, { NULL, 0, NULL, 0 },
    };
    const char *run_text = NULL, *out = NULL, *vpath = NULL;
    char *ids[REPORT_OVERLAY_MAX];
    int nids = 0;
    int c, code = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 'r':
            if (nids == REPORT_OVERLAY_MAX)
                return cmd_usage_error(&cmd_report, "at most %d runs in one report", REPORT_OVERLAY_MAX);
            run_text = ids[nids++] = optarg;
            break;
        case 'o': out = optarg; break;
        case 'v': vpath = optarg; break;
        default: return cmd_usage_error(&cmd_report, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return cmd_usage_error(&cmd_report, "expected one results database");
    if (!out)
        return cmd_usage_error(&cmd_report, "missing -o FILE.html");
    if (nids > 1) {
        if (vpath)
            return cmd_usage_error(&cmd_report, "--verdict is for a one-run report");
        return overlay(argv[optind], ids, nids, out);
    }
    char err[1024];
    struct summary s;
    struct verdict v;
    memset(&s, 0, sizeof s);
    struct store *st = runsel_open("report", argv[optind], &code);
    int64_t run = st ? runsel_pick("report", st, argv[optind], run_text, &code) : -1;
    if (run < 0 || runsel_load("report", st, run, NULL, 0, &s, &v, &code) < 0)
        goto done;
    if (report_write_summary(&s, &v, out, err, sizeof err) < 0 ||
        (vpath && verdict_write_json(&s, &v, vpath, err, sizeof err) < 0)) {
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

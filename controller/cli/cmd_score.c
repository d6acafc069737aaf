/* cmd_score.c -- `sessmax score DB [--run ID]`: score a run, print it, store it, exit by verdict. */
#include "controller/cli/cmd_score.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "controller/report/export.h"
#include "controller/score/runsel.h"
#include "controller/score/score_run.h"
#include "db/store.h"

static const char usage[] =
    "usage: sessmax score DB [--run ID] [--json] [--verdict FILE] [--plan PLAN] [--no-store]\n\n"
    "Scores a run (default: the newest) with the score parameters and thresholds stored with it,\n"
    "prints baseline, threshold, smax, sessions, timers, logon times, bandwidth, agent health and\n"
    "the verdict, and stores the score in the run.\n\n"
    "  --run ID        the run to score\n"
    "  --json          print the summary as JSON instead of text\n"
    "  --verdict FILE  also write verdict.json to FILE\n"
    "  --plan PLAN     re-score with the score: and thresholds: sections of this plan\n"
    "  --no-store      do not write the score back into DB\n\n"
    "Exits with the verdict's code.\n";

static void store_back(const char *path, const struct summary *s, const struct verdict *v)
{
    char err[512];
    struct store *st = store_open(path, STORE_WRITE, err, sizeof err);
    if (!st || score_run_store(st, s, v) < 0)
        fprintf(stderr, "sessmax score: warning: score not stored: %s\n", st ? store_errmsg(st) : err);
    store_close(st);
}

static int score(int argc, char **argv)
{
    static const struct option opts[] = {
        { "run", required_argument, NULL, 'r' }, { "json", no_argument, NULL, 'j' },
        { "verdict", required_argument, NULL, 'v' }, { "plan", required_argument, NULL, 'p' },
        { "no-store", no_argument, NULL, 'n' }, { NULL, 0, NULL, 0 },
    };
    const char *run_text = NULL, *verdict_path = NULL, *plan = NULL;
    int json = 0, nostore = 0, c, code = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'r': run_text = optarg; break;
        case 'j': json = 1; break;
        case 'v': verdict_path = optarg; break;
        case 'p': plan = optarg; break;
        case 'n': nostore = 1; break;
        default: return cmd_usage_error(&cmd_score, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return cmd_usage_error(&cmd_score, "expected one results database, got %d arguments", argc - optind);
    const char *path = argv[optind];
    struct score_config cfg;
    struct summary s;
    struct verdict v;
    score_config_init(&cfg);
    memset(&s, 0, sizeof s);
    if (plan && runsel_plan_config("score", plan, &cfg, &code) < 0)
        return code;
    struct store *st = runsel_open("score", path, &code);
    int64_t run = st ? runsel_pick("score", st, path, run_text, &code) : -1;
    struct score_run_options so = { "score", plan ? &cfg : NULL, json ? NULL : stdout, verdict_path,
                                    SUMMARY_NO_CURVE, path };
    if (run < 0 || score_run(st, run, &so, &s, &v, &code) < 0)
        goto done;
    store_close(st);
    st = NULL;
    if (json)
        export_write(&s, &v, EXPORT_JSON, stdout);
    if (!nostore)
        store_back(path, &s, &v);
done:
    store_close(st);
    summary_free(&s);
    score_config_free(&cfg);
    return code;
}

const struct cmd cmd_score = { "score", "score a run: baseline, threshold, smax, verdict", usage, score };

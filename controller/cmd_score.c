/* cmd_score.c -- `sessmax score DB [--run ID]`: score a run, print it, store it, exit by verdict. */
#include "controller/cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "controller/export.h"
#include "controller/runsel.h"
#include "controller/score_text.h"
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
    "Exit: 0 pass, 1 a threshold failed, 2 inconclusive, 64+ usage/data errors.\n";

static void store_back(const char *path, const struct summary *s, const struct verdict *v)
{
    char err[512], reasons[2048];
    struct store *st = store_open(path, STORE_WRITE, err, sizeof err);
    verdict_reasons(v, reasons, sizeof reasons);
    struct store_score sc = { SCORE_VERSION, s->score.baseline_ms, s->score.threshold_ms, s->score.smax,
                              s->score.reached, s->launched, s->active, s->stuck, verdict_name(v->kind),
                              reasons };
    if (!st || store_run_set_score(st, s->run.id, &sc) < 0)
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
    if (run < 0 || runsel_load("score", st, run, plan ? &cfg : NULL, &s, &v, &code) < 0)
        goto done;
    store_close(st);
    st = NULL;
    if (json)
        export_write(&s, &v, EXPORT_JSON, stdout);
    else
        score_text_print(stdout, &s, &v);
    code = verdict_exit_code(v.kind);
    char err[512];
    if (verdict_path && verdict_write_json(&s, &v, verdict_path, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax score: %s\n", err);
        code = EX_IOERR;
    }
    if (!nostore)
        store_back(path, &s, &v);
done:
    store_close(st);
    summary_free(&s);
    score_config_free(&cfg);
    return code;
}

const struct cmd cmd_score = { "score", "score a run: baseline, threshold, smax, verdict", usage, score };

/* cmd_compare.c -- `sessmax compare DB [RUN...] [--by transport,platform,network,client] [--stat p50]`. */
#include "controller/cli/cmd_compare.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/outfile.h"
#include "controller/report/ab.h"
#include "controller/report/compare.h"
#include "controller/score/runsel.h"
#include "controller/score/score_config.h"
#include "db/store.h"

static const char usage[] =
    "usage: sessmax compare DB [RUN...] [--by transport,platform,network,client] [--format text|csv|markdown]\n"
    "                          [--stat p50|p95|p99] [-o FILE]\n\n"
    "One table, side by side: smax, baseline, a percentile of every timer (--stat; p95, or p50\n"
    "with --by network alone), kbit/s per session, the kernel's smoothed TCP RTT p50 (includes\n"
    "delayed ACKs) and retransmission rate\n"
    "(client side, % of data segments) and stuck sessions, one row per run (default: every run in\n"
    "DB) or, with --by, one row per group of runs sharing those labels (figures averaged over the\n"
    "group; smax over the runs that reached it).\n"
    "Example: sessmax compare results.db --by network    (the LAN-vs-WAN table, docs/network.md)\n\n"
    "       sessmax compare DB RUN_A RUN_B --ab [--max-regression 2s|10%] [--all-timers]\n"
    "Single-user A/B diagnosis: per timer, n, median A and B, B - A with a 95% bootstrap\n"
    "interval, the Mann-Whitney p-value and a verdict; for copy timers also MB/s A and B. A timer\n"
    "of B significantly slower than A by more than --max-regression fails the comparison. When run B's\n"
    "plan has a focus: timer, only that timer is compared (--all-timers: every timer) (docs/ab.md).\n";

/* The focus: timer stored with a run's score parameters ("" when none). */
static void run_focus(struct store *st, int64_t run, char *out, size_t len)
{
    char *plan = NULL, *params = NULL, err[256];
    struct score_config cfg;
    score_config_init(&cfg);
    out[0] = 0;
    if (store_run_texts(st, run, &plan, &params) == 0 && score_config_from_json(params, &cfg, err, sizeof err) == 0)
        snprintf(out, len, "%s", cfg.focus);
    score_config_free(&cfg);
    free(plan);
    free(params);
}

static int load_all(struct store *st, const char *path, char **ids, int nids, struct summary **out,
                    size_t *n, int *code)
{
    struct store_run *runs = NULL;
    size_t count = 0;
    if (nids == 0 && store_list_runs(st, &runs, &count) < 0) {
        fprintf(stderr, "sessmax compare: %s\n", store_errmsg(st));
        *code = EX_DATAERR;
        return -1;
    }
    size_t want = nids ? (size_t)nids : count;
    *out = calloc(want ? want : 1, sizeof **out);
    *n = 0;
    int rc = *out ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < want; i++) {
        int64_t run = nids ? runsel_pick("compare", st, path, ids[i], code) : runs[i].id;
        struct verdict v;
        if (run < 0 || runsel_load("compare", st, run, NULL, 0, &(*out)[*n], &v, code) < 0)
            rc = -1;
        else
            (*n)++;
    }
    free(runs);
    return rc;
}

/* --ab: two runs' samples, the table, exit 1 over the limit. */
static int compare_ab(const char *path, char **ids, int nids, const struct ab_limit *limit, int all, FILE *o)
{
    int code = 0;
    if (nids != 2)
        return cmd_usage_error(&cmd_compare, "--ab compares exactly two runs: DB RUN_A RUN_B");
    struct store *st = runsel_open("compare", path, &code);
    struct store_samples s[2];
    memset(s, 0, sizeof s);
    int64_t run[2] = { -1, -1 };
    for (int i = 0; st && code == 0 && i < 2; i++) {
        run[i] = runsel_pick("compare", st, path, ids[i], &code);
        if (run[i] >= 0 && store_load_samples(st, run[i], &s[i]) < 0) {
            fprintf(stderr, "sessmax compare: %s\n", store_errmsg(st));
            code = EX_DATAERR;
        }
    }
    if (st && code == 0) {
        char focus[RESULTS_NAME_LEN];
        run_focus(st, run[1], focus, sizeof focus);
        if (focus[0] && !all)
            fprintf(o, "focus: %s (the plan's focus: timer; --all-timers compares every timer)\n", focus);
        int bad = ab_write(&s[0], &s[1], run[0], run[1], limit, focus[0] && !all ? focus : NULL, o);
        struct store_copy_row *copies = NULL;
        size_t ncopies = 0;
        if (bad >= 0 && store_load_copy_timers(st, run[0], &copies, &ncopies) == 0 && !ncopies) {
            free(copies);
            copies = NULL;
            store_load_copy_timers(st, run[1], &copies, &ncopies);
        }
        if (bad >= 0 && ncopies)
            ab_write_copies(&s[0], &s[1], copies, ncopies, o);
        free(copies);
        if (bad < 0) {
            fprintf(stderr, "sessmax compare: runs %lld and %lld have no timer in common\n",
                    (long long)run[0], (long long)run[1]);
            code = EX_DATAERR;
        } else if (bad > 0) {
            fprintf(stderr, "sessmax compare: %d timer(s) of run %lld over the regression limit\n", bad,
                    (long long)run[1]);
            code = 1;
        }
    }
    store_free_samples(&s[0]);
    store_free_samples(&s[1]);
    store_close(st);
    return code;
}

static int compare(int argc, char **argv)
{
    static const struct option opts[] = {
        { "by", required_argument, NULL, 'b' }, { "format", required_argument, NULL, 'f' },
        { "output", required_argument, NULL, 'o' }, { "stat", required_argument, NULL, 's' },
        { "ab", no_argument, NULL, 'a' }, { "max-regression", required_argument, NULL, 'r' },
        { "all-timers", no_argument, NULL, 'A' }, { NULL, 0, NULL, 0 },
    };
    int ab = 0, all = 0;
    struct ab_limit limit = { -1, -1 }, *lim = NULL;
    unsigned by = 0;
    int fmt = COMPARE_TEXT, c, code = 0, stat = -1;
    const char *out = NULL;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 'b':
            if (compare_parse_by(optarg, &by) < 0)
                return cmd_usage_error(&cmd_compare, "--by '%s': use transport, platform, network, client "
                                    "(comma-separated)", optarg);
            break;
        case 'f':
            if ((fmt = compare_parse_format(optarg)) < 0)
                return cmd_usage_error(&cmd_compare, "--format '%s': use text, csv or markdown", optarg);
            break;
        case 's':
            if ((stat = compare_parse_stat(optarg)) < 0)
                return cmd_usage_error(&cmd_compare, "--stat '%s': use p50, p95 or p99", optarg);
            break;
        case 'o': out = optarg; break;
        case 'a': ab = 1; break;
        case 'A': all = 1; break;
        case 'r':
            if (ab_parse_limit(optarg, &limit) < 0)
                return cmd_usage_error(&cmd_compare, "--max-regression '%s': use a duration (2s, 500ms) "
                                       "or a percentage (10%%)", optarg);
            lim = &limit;
            break;
        default: return cmd_usage_error(&cmd_compare, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return cmd_usage_error(&cmd_compare, "expected a results database");
    const char *path = argv[optind];
    if (ab) {
        char err[1024];
        FILE *ao = out ? outfile_open(out, err, sizeof err) : stdout;
        if (!ao) {
            fprintf(stderr, "sessmax compare: %s\n", err);
            return EX_CANTCREAT;
        }
        int rc = compare_ab(path, argv + optind + 1, argc - optind - 1, lim, all, ao);
        if (ao != stdout && outfile_commit(ao, err, sizeof err) < 0) {
            fprintf(stderr, "sessmax compare: %s\n", err);
            return EX_IOERR;
        }
        return rc;
    }
    if (lim)
        return cmd_usage_error(&cmd_compare, "--max-regression goes with --ab");
    struct summary *runs = NULL;
    size_t n = 0;
    FILE *o = NULL;
    struct store *st = runsel_open("compare", path, &code);
    if (!st || load_all(st, path, argv + optind + 1, argc - optind - 1, &runs, &n, &code) < 0)
        goto done;
    if (n == 0) {
        fprintf(stderr, "sessmax compare: %s holds no run\n", path);
        code = EX_DATAERR;
        goto done;
    }
    char err[1024];
    o = out ? outfile_open(out, err, sizeof err) : stdout;
    if (!o) {
        fprintf(stderr, "sessmax compare: %s\n", err);
        code = EX_CANTCREAT;
        goto done;
    }
    int wrc = stat < 0 ? compare_write(runs, n, by, (enum compare_format)fmt, o)
                       : compare_write_stat(runs, n, by, (enum compare_stat)stat, (enum compare_format)fmt, o);
    if (wrc < 0 || fflush(o) != 0) {
        fprintf(stderr, "sessmax compare: write failed: %s\n", strerror(errno));
        code = EX_IOERR;
    }
    if (o != stdout && code == 0 && outfile_commit(o, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax compare: %s\n", err);
        code = EX_IOERR;
    } else if (o != stdout && code) {
        outfile_discard(o);
    }
    o = NULL;
done:
    for (size_t i = 0; i < n; i++)
        summary_free(&runs[i]);
    free(runs);
    store_close(st);
    return code;
}

const struct cmd cmd_compare = { "compare", "compare runs side by side (or grouped by labels)", usage, compare };

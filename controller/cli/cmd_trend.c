/* cmd_trend.c -- `sessmax trend DB`: every cell's recent runs judged against the trailing median
 * of the cell (controller/score/trend.c, as the dashboard marks them); exit 1 when the newest run
 * of a selected cell regressed. For nightly jobs. */
#include "controller/cli/cmd_trend.h"

#include "common/clock.h"
#include "controller/run/matrix_spec.h"
#include "controller/score/runsel.h"
#include "controller/score/summary_load.h"
#include "controller/score/trend.h"
#include "db/store.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct trend_opts {
    struct matrix_tag cell;       /* filter; no value = any */
    double tolerance;
    size_t last, show;
};

/* Does the run belong to the selected cells? A platform filter matches the label. */
static int selected(const struct store_run *r, const struct trend_opts *t)
{
    const char *const *v = t->cell.value;
    char label[MATRIX_VALUE_LEN], host[MATRIX_VALUE_LEN], n[16];
    uint16_t port;
    if (strcmp(r->status, "completed") != 0)
        return 0;
    if (v[MATRIX_PLATFORM]) {
        matrix_platform_split(v[MATRIX_PLATFORM], label, sizeof label, host, sizeof host, &port);
        if (strcmp(label, r->platform) != 0)
            return 0;
    }
    snprintf(n, sizeof n, "%u", r->sessions_planned);
    return (!v[MATRIX_TRANSPORT] || !strcmp(v[MATRIX_TRANSPORT], r->transport)) &&
           (!v[MATRIX_NETWORK] || !strcmp(v[MATRIX_NETWORK], r->network)) &&
           (!v[MATRIX_CLIENT] || !strcmp(v[MATRIX_CLIENT], r->client)) &&
           (!v[MATRIX_SESSIONS] || !strcmp(v[MATRIX_SESSIONS], n));
}

static void fmt_num(char *buf, size_t len, double v, const char *fmt)
{
    if (isfinite(v))
        snprintf(buf, len, fmt, v);
    else
        snprintf(buf, len, "-");
}

/* Prints a cell's newest runs with their judgement; returns the newest run's judgement. */
static enum trend_mark print_cell(const char *cell, const struct trend_point *p, size_t n, const struct trend_opts *t)
{
    printf("cell %s: %zu runs (tolerance %g%%, trailing median of %zu)\n", cell, n, t->tolerance * 100, t->last);
    printf("  %6s  %-16s  %7s  %7s  %7s  %9s  %7s  %7s  %s\n", "run", "started (UTC)", "smax", "median", "change",
           "baseline", "median", "change", "judgement");
    struct trend_judgement j = { 0 };
    for (size_t i = n > t->show ? n - t->show : 0; i < n; i++) {
        trend_judge(p, i, t->last, t->tolerance, &j);
        char when[32], smax[24], sm[24], sd[24], bl[24], bm[24], bd[24];
        clock_format_utc(p[i].started_us, "%Y-%m-%d %H:%M", when, sizeof when);
        if (isfinite(p[i].smax))
            snprintf(smax, sizeof smax, p[i].reached ? "%.0f" : ">= %.0f", p[i].smax);
        else
            snprintf(smax, sizeof smax, "n/a");
        fmt_num(sm, sizeof sm, j.smax_median, "%.1f");
        fmt_num(sd, sizeof sd, j.smax_delta_pct, "%+.1f%%");
        fmt_num(bl, sizeof bl, p[i].baseline_ms, "%.0f ms");
        fmt_num(bm, sizeof bm, j.baseline_median, "%.0f");
        fmt_num(bd, sizeof bd, j.baseline_delta_pct, "%+.1f%%");
        printf("  %6lld  %-16s  %7s  %7s  %7s  %9s  %7s  %7s  %s\n", (long long)p[i].run, when, smax, sm, sd, bl, bm,
               bd, trend_mark_name(j.overall));
    }
    return j.overall;
}

/* Loads every selected run's point and judges each cell; returns the exit code. */
static int judge_all(struct store *st, const char *path, const struct trend_opts *t)
{
    struct store_run *runs = NULL;
    size_t n = 0, cells = 0, regressed = 0;
    if (store_list_runs(st, &runs, &n) < 0) {
        fprintf(stderr, "sessmax trend: %s\n", store_errmsg(st));
        return EX_DATAERR;
    }
    struct trend_point *p = calloc(n ? n : 1, sizeof *p);
    char (*cell)[TREND_CELL_LEN] = calloc(n ? n : 1, TREND_CELL_LEN), err[1024];
    int *used = calloc(n ? n : 1, sizeof *used), rc = p && cell && used ? 0 : EX_OSERR;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        struct summary s;
        used[i] = !selected(&runs[i], t);   /* 1: not selected, or already printed */
        if (used[i])
            continue;
        trend_cell_of(&runs[i], cell[i], TREND_CELL_LEN);
        if (summary_load(st, runs[i].id, NULL, &s, err, sizeof err) < 0) {
            fprintf(stderr, "sessmax trend: run %lld: %s\n", (long long)runs[i].id, err);
            rc = EX_DATAERR;
            break;
        }
        trend_point_of(&s, &p[i]);
        summary_free(&s);
    }
    struct trend_point *series = rc == 0 ? calloc(n ? n : 1, sizeof *series) : NULL;
    for (size_t i = 0; series && i < n; i++) {
        if (used[i])
            continue;
        size_t m = 0;
        for (size_t j = i; j < n; j++)   /* runs are in id order: oldest first */
            if (!used[j] && !strcmp(cell[j], cell[i])) {
                series[m++] = p[j];
                used[j] = 1;
            }
        cells++;
        if (print_cell(cell[i], series, m, t) == TREND_REGRESSED)
            regressed++;
    }
    if (rc == 0 && !series)
        rc = EX_OSERR;
    if (rc == 0 && cells == 0) {
        fprintf(stderr, "sessmax trend: %s: no completed run matches the cell\n", path);
        rc = EX_DATAERR;
    } else if (rc == 0) {
        printf("trend: %zu of %zu cells regressed in their newest run\n", regressed, cells);
        rc = regressed ? EXIT_THRESHOLD_FAILED : EXIT_PASS;
    }
    free(series);
    free(p);
    free(cell);
    free(used);
    free(runs);
    return rc;
}

static int trend(int argc, char **argv)
{
    static const struct option opts[] = {
        { "cell", required_argument, NULL, 'c' }, { "tolerance", required_argument, NULL, 't' },
        { "last", required_argument, NULL, 'l' }, { "show", required_argument, NULL, 's' },
        { NULL, 0, NULL, 0 },
    };
    struct trend_opts t = { .tolerance = 0.10, .last = 7, .show = 10 };
    char err[512], *end;
    int c, code = 0;
    long v;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'c':
            if (matrix_tag_parse(optarg, &t.cell, err, sizeof err) < 0)
                return cmd_usage_error(&cmd_trend, "--%s", err);
            break;
        case 't':
            if (trend_parse_tolerance(optarg, &t.tolerance) < 0)
                return cmd_usage_error(&cmd_trend, "--tolerance '%s': a percentage such as 10%%", optarg);
            break;
        case 'l':
        case 's':
            errno = 0;
            v = strtol(optarg, &end, 10);
            if (errno || *end || v < 1 || v > 256)
                return cmd_usage_error(&cmd_trend, "--%s '%s': a number of runs, 1-256", c == 'l' ? "last" : "show",
                                       optarg);
            *(c == 'l' ? &t.last : &t.show) = (size_t)v;
            break;
        default: return cmd_usage_error(&cmd_trend, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return cmd_usage_error(&cmd_trend, "expected one results database");
    struct store *st = runsel_open("trend", argv[optind], &code);
    if (!st)
        return code;
    code = judge_all(st, argv[optind], &t);
    store_close(st);
    return code;
}

const struct cmd cmd_trend = {
    "trend", "judge each cell's newest runs against its trailing median; exit 1 on a regression",
    "usage: sessmax trend DB [--cell KEY=V,...] [--tolerance 10%] [--last 7] [--show 10]\n\n"
    "Groups the completed runs of DB by cell (transport / platform / network / client) and judges\n"
    "each run against the median of the previous --last runs of its cell that have the figure:\n"
    "REGRESSION when smax fell, or the baseline rose, by more than --tolerance; 'improved' the other\n"
    "way; 'within'; 'short' with fewer than min(3, --last) earlier runs; 'unknown' without a score.\n"
    "A run that never reached smax counts with its lower bound: not reached at N active supports\n"
    "smax >= N-1 only; it is never a regression by itself. The dashboard marks the same runs.\n"
    "--cell selects cells by label: platform, transport, client, network, sessions (comma-separated\n"
    "KEY=VALUE, as in a matrix cell tag). --show prints that many newest runs per cell.\n\n"
    "Exit: 0 no selected cell regressed in its newest run, 1 one did, 64 usage, 65 no matching run\n"
    "or bad data, 66 missing file.\n",
    trend,
};

/* cmd_trend.c -- `sessmax trend DB`: every cell's recent runs judged against the trailing median
 * of the cell (controller/score/trend.c, as the dashboard marks them); exit 1 when the newest run
 * of a selected cell regressed. For nightly jobs. */
#include "controller/cli/cmd_trend.h"

#include "common/clock.h"
#include "controller/run/matrix_spec.h"
#include "controller/score/runsel.h"
#include "controller/score/summary_load.h"
#include "controller/score/textesc.h"
#include "controller/score/trend.h"
#include "controller/score/verdict.h"
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

/* One run of a selected cell: its point, its verdict, or why it was skipped. */
struct trend_row {
    struct trend_point p;
    char cell[TREND_CELL_LEN], verdict[16], bad[256];
    int used;                     /* 1: not selected, or already printed */
};

/* Does the run belong to the selected cells? A platform filter matches the label. A run still
 * running is left out; a failed or aborted one is shown (judged "unknown": it has no trend). */
static int selected(const struct store_run *r, const struct trend_opts *t)
{
    const char *const *v = t->cell.value;
    char label[MATRIX_VALUE_LEN], host[MATRIX_VALUE_LEN], n[16];
    uint16_t port;
    if (!strcmp(r->status, "running"))
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
static enum trend_mark print_cell(const char *cell, struct trend_row *const *rows, const struct trend_point *p,
                                  size_t n, const struct trend_opts *t)
{
    char esc[1024];
    printf("cell %s: %zu runs (tolerance %g%%, trailing median of %zu)\n", textesc(esc, sizeof esc, cell, TEXTESC_LINE),
           n, t->tolerance * 100, t->last);
    printf("  %6s  %-16s  %7s  %7s  %7s  %9s  %7s  %7s  %-12s  %s\n", "run", "started (UTC)", "smax", "median",
           "change", "baseline", "median", "change", "verdict", "judgement");
    struct trend_judgement j = { 0 };
    for (size_t i = n > t->show ? n - t->show : 0; i < n; i++) {
        trend_judge(p, i, t->last, t->tolerance, &j);
        char when[32], smax[24], sm[24], sd[24], bl[24], bm[24], bd[24];
        clock_format_utc(p[i].started_us, "%Y-%m-%d %H:%M", when, sizeof when);
        if (rows[i]->bad[0]) {
            printf("  %6lld  %-16s  skipped: %s\n", (long long)p[i].run, when,
                   textesc(esc, sizeof esc, rows[i]->bad, TEXTESC_LINE));
            continue;
        }
        if (isfinite(p[i].smax))
            snprintf(smax, sizeof smax, p[i].reached ? "%.0f" : ">= %.0f", p[i].smax);
        else
            snprintf(smax, sizeof smax, "n/a");
        fmt_num(sm, sizeof sm, j.smax_median, "%.1f");
        fmt_num(sd, sizeof sd, j.smax_delta_pct, "%+.1f%%");
        fmt_num(bl, sizeof bl, p[i].baseline_ms, "%.0f ms");
        fmt_num(bm, sizeof bm, j.baseline_median, "%.0f");
        fmt_num(bd, sizeof bd, j.baseline_delta_pct, "%+.1f%%");
        printf("  %6lld  %-16s  %7s  %7s  %7s  %9s  %7s  %7s  %-12s  %s\n", (long long)p[i].run, when, smax, sm, sd,
               bl, bm, bd, rows[i]->verdict, trend_mark_name(j.overall));
    }
    return j.overall;
}

/* A selected run's point and verdict; a run whose data cannot be read keeps its reason (bad). */
static void load_row(struct store *st, const struct store_run *r, struct trend_row *row)
{
    struct summary s;
    struct verdict v;
    trend_cell_of(r, row->cell, sizeof row->cell);
    row->p = (struct trend_point){ .run = r->id, .started_us = r->started_us, .smax = NAN, .baseline_ms = NAN };
    snprintf(row->bad, sizeof row->bad, "its data cannot be read");
    if (summary_load(st, r->id, NULL, &s, row->bad, sizeof row->bad) < 0)
        return;
    if (verdict_evaluate(&s, &v, row->bad, sizeof row->bad) == 0) {
        row->bad[0] = 0;
        snprintf(row->verdict, sizeof row->verdict, "%s", verdict_name(v.kind));
        trend_point_of(&s, &row->p);
        if (strcmp(r->status, "completed") != 0)   /* only completed runs make or meet a trend */
            row->p.smax = row->p.baseline_ms = NAN;
    }
    summary_free(&s);
}

/* Loads every selected run's point and judges each cell; returns the exit code. */
static int judge_all(struct store *st, const char *path, const struct trend_opts *t)
{
    struct store_run *runs = NULL;
    size_t n = 0, cells = 0, regressed = 0, skipped = 0;
    if (store_list_runs(st, &runs, &n) < 0) {
        fprintf(stderr, "sessmax trend: %s\n", store_errmsg(st));
        return EX_DATAERR;
    }
    struct trend_row *rows = calloc(n ? n : 1, sizeof *rows), **series = calloc(n ? n : 1, sizeof *series);
    struct trend_point *pts = calloc(n ? n : 1, sizeof *pts);
    int rc = rows && series && pts ? 0 : EX_OSERR;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rows[i].used = !selected(&runs[i], t);
        if (!rows[i].used)
            load_row(st, &runs[i], &rows[i]);
        if (!rows[i].used && rows[i].bad[0]) {
            char esc[1024];
            fprintf(stderr, "sessmax trend: run %lld skipped: %s\n", (long long)runs[i].id,
                    textesc(esc, sizeof esc, rows[i].bad, TEXTESC_LINE));
            skipped++;
        }
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (rows[i].used)
            continue;
        size_t m = 0;
        for (size_t j = i; j < n; j++)   /* runs are in id order: oldest first */
            if (!rows[j].used && !strcmp(rows[j].cell, rows[i].cell)) {
                series[m] = &rows[j];
                pts[m++] = rows[j].p;
                rows[j].used = 1;
            }
        cells++;
        if (print_cell(rows[i].cell, series, pts, m, t) == TREND_REGRESSED)
            regressed++;
    }
    if (rc == 0 && cells == 0) {
        fprintf(stderr, "sessmax trend: %s: no completed run matches the cell\n", path);
        rc = EX_DATAERR;
    } else if (rc == 0) {
        printf("trend: %zu of %zu cells regressed in their newest run", regressed, cells);
        if (skipped)
            printf("; %zu runs skipped (their data cannot be read)", skipped);
        printf("\n");
        rc = regressed ? EXIT_THRESHOLD_FAILED : skipped ? EX_DATAERR : EXIT_PASS;
    }
    free(series);
    free(pts);
    free(rows);
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
    "trend", "judge each cell's newest runs against its trailing median; fails on a regression",
    "usage: sessmax trend DB [--cell KEY=V,...] [--tolerance 10%] [--last 7] [--show 10]\n\n"
    "Groups the runs of DB by cell (transport / platform / network / client) and judges each\n"
    "completed run against the median of the previous --last runs of its cell that have the figure:\n"
    "REGRESSION when smax fell, or the baseline rose, by more than --tolerance; 'improved' the other\n"
    "way; 'within'; 'short' with fewer than min(3, --last) earlier runs; 'unknown' without a score\n"
    "(a failed or aborted run, or one without samples: shown with its verdict, never in a median).\n"
    "A run whose data cannot be read is skipped with its reason and the others judged.\n"
    "A run that never reached smax counts with its lower bound: not reached at N active supports\n"
    "smax >= N-1 only; it is never a regression by itself. The dashboard marks the same runs.\n"
    "--cell selects cells by label: platform, transport, client, network, sessions (comma-separated\n"
    "KEY=VALUE, as in a matrix cell tag). --show prints that many newest runs per cell.\n"
    "A regression in a selected cell's newest run fails; no matching run is bad data.\n",
    trend,
};

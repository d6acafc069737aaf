/* compare.c -- rows (runs or groups) x columns (smax, baseline, a percentile per timer and, for
 * copy timers, the throughput at it, kbit/s, RTT, retransmissions, stuck sessions). */
#include "controller/report/compare.h"

#include "controller/report/export.h"
#include "controller/score/summary_copy.h"
#include "controller/score/textesc.h"
#include "controller/score/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int compare_parse_by(const char *text, unsigned *mask)
{
    static const char *const keys[] = { "transport", "platform", "network", "client" };
    *mask = 0;
    const char *p = text;
    while (*p) {
        size_t len = strcspn(p, ",");
        int found = 0;
        for (int k = 0; k < 4; k++)
            if (strlen(keys[k]) == len && !strncmp(p, keys[k], len)) {
                *mask |= 1u << k;
                found = 1;
            }
        if (!found)
            return -1;
        p += len + (p[len] == ',');
    }
    return *mask ? 0 : -1;
}

int compare_parse_stat(const char *text)
{
    static const char *const names[] = { "p50", "p95", "p99" };
    for (int i = 0; i < 3; i++)
        if (!strcmp(text, names[i]))
            return i;
    return -1;
}

int compare_parse_format(const char *text)
{
    if (!strcmp(text, "text"))
        return COMPARE_TEXT;
    if (!strcmp(text, "csv"))
        return COMPARE_CSV;
    if (!strcmp(text, "markdown") || !strcmp(text, "md"))
        return COMPARE_MARKDOWN;
    return -1;
}

#define MAXCOLS 64
#define CELL 400

struct table {
    size_t rows, cols;
    char (*cell)[MAXCOLS][CELL];   /* row 0 is the header */
};

static void group_label(const struct summary *s, unsigned by, char *buf, size_t len)
{
    if (!by) {
        snprintf(buf, len, "%lld %s", (long long)s->run.id, s->run.name);
        return;
    }
    const char *labels[] = { s->run.transport, s->run.platform, s->run.network, s->run.client };
    size_t used = 0;
    buf[0] = 0;
    for (int k = 0; k < 4; k++)
        if ((by & (1u << k)) && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "/" : "", labels[k]);
}

/* Timer names in first-seen order across all runs. */
static size_t timer_columns(const struct summary *runs, size_t n, const char **names, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t t = 0; t < runs[i].timer_count; t++) {
            size_t j = 0;
            while (j < k && strcmp(names[j], runs[i].timers[t].name))
                j++;
            if (j == k && k < max)
                names[k++] = runs[i].timers[t].name;
        }
    return k;
}

static const struct summary_timer *find_timer(const struct summary *s, const char *name)
{
    for (size_t t = 0; t < s->timer_count; t++)
        if (!strcmp(s->timers[t].name, name))
            return &s->timers[t];
    return NULL;
}

static double timer_stat(const struct summary *s, const char *name, enum compare_stat stat)
{
    const struct summary_timer *t = find_timer(s, name);
    if (!t)
        return NAN;
    return stat == COMPARE_P50 ? t->p50_ms : stat == COMPARE_P99 ? t->p99_ms : t->p95_ms;
}

/* Throughput of a copy timer at the stat's time (MiB/s); NaN for other timers. */
static double timer_mibps(const struct summary *s, const char *name, enum compare_stat stat)
{
    const struct summary_timer *t = find_timer(s, name);
    return t && t->copy_bytes ? summary_copy_mbps(t->copy_bytes, timer_stat(s, name, stat)) : NAN;
}

/* 1 when some run has `name` as a copy timer: it gets a throughput column too. */
static int is_copy_column(const struct summary *runs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        const struct summary_timer *t = find_timer(&runs[i], name);
        if (t && t->copy_bytes)
            return 1;
    }
    return 0;
}

/* Mean of the finite values (NaN when none). */
struct acc { double sum; size_t n; };
static void acc_add(struct acc *a, double v) { if (isfinite(v)) { a->sum += v; a->n++; } }
static double acc_mean(const struct acc *a) { return a->n ? a->sum / a->n : NAN; }

static void num(char *cell, double v, const char *fmt)
{
    if (isfinite(v))
        snprintf(cell, CELL, fmt, v);
    else
        snprintf(cell, CELL, "-");
}

/* The smax cell of runs none of which has a score: why (too few samples; a failed or aborted run). */
static void no_score(char *cell, const struct summary *runs, const size_t *members, size_t m)
{
    const struct summary *s = &runs[members[0]];
    if (m != 1) {
        snprintf(cell, CELL, "n/a (too few samples in all %zu runs)", m);
        return;
    }
    char why[96];
    verdict_format_smax(s, why, sizeof why);
    if (strcmp(s->run.status, "completed") != 0 && why[strlen(why) - 1] == ')')
        snprintf(cell, CELL, "%.*s; run %s)", (int)strlen(why) - 1, why, s->run.status);
    else
        snprintf(cell, CELL, "%s", why);
}

/* Fills one row from the runs whose index is listed in members. */
static void fill_row(char (*row)[CELL], const struct summary *runs, const size_t *members, size_t m,
                     const char *label, const char **timers, const int *copy, size_t nt, enum compare_stat stat)
{
    struct acc smax = { 0 }, base = { 0 }, kbps = { 0 }, stuck = { 0 }, p95[MAXCOLS] = { { 0 } };
    struct acc mib[MAXCOLS] = { { 0 } };
    struct acc rtt = { 0 }, retrans = { 0 };
    size_t open = 0;
    uint32_t open_min = UINT32_MAX;
    char bound[CELL] = "";
    for (size_t k = 0; k < m; k++) {
        const struct summary *s = &runs[members[k]];
        resources_bound_add(bound, sizeof bound, &s->res);
        if (s->score.reached)
            acc_add(&smax, s->score.smax);
        else if (s->score.status == SCORE_OK) {
            open++;
            open_min = s->score.max_active < open_min ? s->score.max_active : open_min;
        }
        acc_add(&base, s->score.baseline_ms);
        acc_add(&kbps, s->kbps_per_session);
        acc_add(&rtt, s->rtt_p50_ms);
        acc_add(&retrans, s->retrans_pct);
        acc_add(&stuck, s->stuck);
        for (size_t t = 0; t < nt; t++) {
            acc_add(&p95[t], timer_stat(s, timers[t], stat));
            acc_add(&mib[t], timer_mibps(s, timers[t], stat));
        }
    }
    size_t c = 0;
    snprintf(row[c++], CELL, "%s", label);
    snprintf(row[c++], CELL, "%zu", m);
    if (smax.n && open)
        snprintf(row[c++], CELL, "%.1f (%zu not reached)", acc_mean(&smax), open);
    else if (smax.n)
        num(row[c++], acc_mean(&smax), m > 1 ? "%.1f" : "%.0f");
    else if (open)
        snprintf(row[c++], CELL, "not reached at %u active (smax >= %u)", open_min, open_min > 0 ? open_min - 1 : 0);
    else
        no_score(row[c++], runs, members, m);
    num(row[c++], acc_mean(&base), "%.0f");
    for (size_t t = 0; t < nt; t++) {
        num(row[c++], acc_mean(&p95[t]), "%.0f");
        if (copy[t])
            num(row[c++], acc_mean(&mib[t]), "%.1f");
    }
    num(row[c++], acc_mean(&kbps), "%.1f");
    num(row[c++], acc_mean(&rtt), "%.1f");
    num(row[c++], acc_mean(&retrans), "%.2f");
    num(row[c++], acc_mean(&stuck), m > 1 ? "%.1f" : "%.0f");
    snprintf(row[c++], CELL, "%s", bound[0] ? bound : "-");
}

static int build(struct table *tb, const struct summary *runs, size_t n, unsigned by, enum compare_stat stat)
{
    static const char *const stat_names[] = { "p50", "p95", "p99" };
    const char *timers[MAXCOLS];
    int copy[MAXCOLS] = { 0 };
    size_t nt = timer_columns(runs, n, timers, (MAXCOLS - 9) / 2), ncopy = 0;
    for (size_t t = 0; t < nt; t++)
        ncopy += (size_t)(copy[t] = is_copy_column(runs, n, timers[t]));
    size_t *members = malloc((n ? n : 1) * sizeof *members);
    char *done = calloc(n ? n : 1, 1);
    tb->cell = calloc(n + 1, sizeof *tb->cell);
    if (!members || !done || !tb->cell) {
        free(members); free(done);
        return -1;
    }
    tb->cols = nt + ncopy + 9;
    size_t c = 0;
    const char *head[] = { by ? "group" : "run", "runs", "smax", "baseline_ms" };
    for (size_t k = 0; k < 4; k++)
        snprintf(tb->cell[0][c++], CELL, "%s", head[k]);
    for (size_t t = 0; t < nt; t++) {
        snprintf(tb->cell[0][c++], CELL, "%s_ms(%s)", stat_names[stat], timers[t]);
        if (copy[t])
            snprintf(tb->cell[0][c++], CELL, "MiB_per_s_at_%s(%s)", stat_names[stat], timers[t]);
    }
    snprintf(tb->cell[0][c++], CELL, "kbps_per_session");
    snprintf(tb->cell[0][c++], CELL, "rtt_p50_ms");
    snprintf(tb->cell[0][c++], CELL, "retrans_pct");
    snprintf(tb->cell[0][c++], CELL, "stuck_sessions");
    snprintf(tb->cell[0][c++], CELL, "bound_at_knee");
    tb->rows = 1;
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        char label[CELL], other[CELL];
        size_t m = 0;
        group_label(&runs[i], by, label, sizeof label);
        for (size_t j = i; j < n; j++) {
            group_label(&runs[j], by, other, sizeof other);
            if (!done[j] && (j == i || (by && !strcmp(label, other)))) {
                done[j] = 1;
                members[m++] = j;
            }
        }
        fill_row(tb->cell[tb->rows++], runs, members, m, label, timers, copy, nt, stat);
    }
    free(members);
    free(done);
    return 0;
}

/* Text and markdown: every cell escaped (textesc.h), so that a name from the results file can
 * neither start a line nor, in markdown, end a cell or become markup. */
static void write_text(const struct table *tb, FILE *o, int markdown)
{
    enum textesc_mode mode = markdown ? TEXTESC_MARKDOWN : TEXTESC_LINE;
    size_t w[MAXCOLS] = { 0 };
    for (size_t r = 0; r < tb->rows; r++)
        for (size_t c = 0; c < tb->cols; c++)
            if (textesc_len(tb->cell[r][c], mode) > w[c])
                w[c] = textesc_len(tb->cell[r][c], mode);
    for (size_t r = 0; r < tb->rows; r++) {
        for (size_t c = 0; c < tb->cols; c++) {
            /* first column left-aligned, figures right-aligned */
            int pad = (int)(w[c] - textesc_len(tb->cell[r][c], mode));
            fputs(markdown ? "| " : c ? "  " : "", o);
            if (c)
                fprintf(o, "%*s", pad, "");
            textesc_fputs(o, tb->cell[r][c], mode);
            if (!c && (markdown || c + 1 < tb->cols))
                fprintf(o, "%*s", pad, "");
            if (markdown)
                fputc(' ', o);
        }
        fprintf(o, markdown ? "|\n" : "\n");
        if (markdown && r == 0) {
            for (size_t c = 0; c < tb->cols; c++) {
                fprintf(o, "|%s", c ? "-" : ":");
                for (size_t k = 0; k < w[c]; k++)
                    fputc('-', o);
                fputc(c ? ':' : '-', o);
            }
            fprintf(o, "|\n");
        }
    }
}

static void write_csv(const struct table *tb, FILE *o)
{
    for (size_t r = 0; r < tb->rows; r++)
        for (size_t c = 0; c < tb->cols; c++) {
            export_csv_field(o, tb->cell[r][c]);
            fputc(c + 1 < tb->cols ? ',' : '\n', o);
        }
}

int compare_write(const struct summary *runs, size_t n, unsigned by, enum compare_format fmt, FILE *out)
{
    return compare_write_stat(runs, n, by, by == COMPARE_BY_NETWORK ? COMPARE_P50 : COMPARE_P95, fmt, out);
}

int compare_write_stat(const struct summary *runs, size_t n, unsigned by, enum compare_stat stat,
                       enum compare_format fmt, FILE *out)
{
    struct table tb = { 0 };
    if (build(&tb, runs, n, by, stat) < 0)
        return -1;
    if (fmt == COMPARE_CSV)
        write_csv(&tb, out);
    else
        write_text(&tb, out, fmt == COMPARE_MARKDOWN);
    free(tb.cell);
    return ferror(out) ? -1 : 0;
}

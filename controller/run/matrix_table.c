/* matrix_table.c -- rows x columns of a matrix's runs: which run goes in which cell, the cell's
 * figures, and the four renderings. */
#include "controller/run/matrix_table.h"

#include "controller/report/export.h"
#include "controller/score/jsonv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CELL_LEN 160

int matrix_format_parse(const char *text)
{
    static const char *const names[] = { "text", "csv", "json", "markdown" };
    for (int i = 0; i < 4; i++)
        if (!strcmp(text, names[i]))
            return i;
    return !strcmp(text, "md") ? MATRIX_MARKDOWN : -1;
}

void matrix_stat_compute(const struct summary *runs, const size_t *members, size_t n, struct matrix_stat *out)
{
    double sum = 0, base = 0, kbps = 0;
    size_t nbase = 0, nkbps = 0;
    memset(out, 0, sizeof *out);
    out->smax_mean = out->smax_min = out->smax_max = out->open_min = NAN;
    for (size_t i = 0; i < n; i++) {
        const struct summary *s = &runs[members[i]];
        resources_bound_add(out->bound, sizeof out->bound, &s->res);
        out->runs++;
        out->unscored += s->score.status != SCORE_OK;
        if (s->score.reached) {
            double v = s->score.smax;
            sum += v;
            out->smax_min = out->reached && out->smax_min < v ? out->smax_min : v;
            out->smax_max = out->reached && out->smax_max > v ? out->smax_max : v;
            out->reached++;
        } else if (s->score.status == SCORE_OK) {
            /* not reached at N active: the data support smax >= N - 1 only (docs/scoring.md) */
            double v = s->score.max_active > 0 ? s->score.max_active - 1.0 : 0.0;
            out->open_min = out->not_reached && out->open_min < v ? out->open_min : v;
            out->not_reached++;
        }
        if (isfinite(s->score.baseline_ms)) {
            base += s->score.baseline_ms;
            nbase++;
        }
        if (isfinite(s->kbps_per_session)) {
            kbps += s->kbps_per_session;
            nkbps++;
        }
    }
    out->smax_mean = out->reached ? sum / (double)out->reached : NAN;
    out->baseline_ms = nbase ? base / (double)nbase : NAN;
    out->kbps = nkbps ? kbps / (double)nkbps : NAN;
}

void matrix_stat_text(const struct matrix_stat *st, char *buf, size_t len)
{
    if (!st->runs) {
        snprintf(buf, len, "-");
        return;
    }
    char smax[64], base[32], kbps[32];
    if (st->reached == 1 && !st->not_reached)
        snprintf(smax, sizeof smax, "%.0f", st->smax_mean);
    else if (st->reached > 1 && !st->not_reached)
        snprintf(smax, sizeof smax, "%.1f (%.0f-%.0f)", st->smax_mean, st->smax_min, st->smax_max);
    else if (st->reached)
        snprintf(smax, sizeof smax, "%.1f (+%zu not reached)", st->smax_mean, st->not_reached);
    else if (st->not_reached)
        snprintf(smax, sizeof smax, ">= %.0f", st->open_min);
    else
        snprintf(smax, sizeof smax, "n/a (no score in %zu run%s)", st->unscored, st->unscored == 1 ? "" : "s");
    snprintf(base, sizeof base, isfinite(st->baseline_ms) ? "%.0f ms" : "- ms", st->baseline_ms);
    snprintf(kbps, sizeof kbps, isfinite(st->kbps) ? "%.1f kbit/s" : "- kbit/s", st->kbps);
    if (!st->bound[0])
        snprintf(buf, len, "%s / %s / %s", smax, base, kbps);
    else
        snprintf(buf, len, "%s / %s / %s / %s%s", smax, base, kbps, st->bound,
                 strcmp(st->bound, "none") ? "-bound" : " ran out");
}

int matrix_table_counts(const char *status)
{
    return !strcmp(status, "completed") || !strcmp(status, "failed");
}

/* The table's shape: which axis gives the columns, which give the rows, and every run's cell. */
struct layout {
    int col_axis;                  /* index into s->axes; -1: one column */
    size_t row_axes[MATRIX_KEY__COUNT], nrow_axes;
    size_t nrows, ncols;
    size_t *cell_of;               /* per run: row * ncols + col, or SIZE_MAX */
    const char *platform;          /* row label when the matrix does not vary the platform */
};

static int axis_index(const struct matrix_axis *ax, const char *value)
{
    for (size_t v = 0; v < ax->n; v++)
        if (value && !strcmp(ax->values[v], value))
            return (int)v;
    return -1;
}

static int layout_build(struct layout *l, const struct matrix_spec *s, const struct summary *runs, size_t n)
{
    memset(l, 0, sizeof *l);
    l->col_axis = -1;
    for (size_t a = 0; a < s->naxes; a++)
        if (s->axes[a].key != MATRIX_PLATFORM && l->col_axis < 0)
            l->col_axis = (int)a;
    for (size_t a = 0; a < s->naxes; a++)   /* platform first, then the others in --vary order */
        if (s->axes[a].key == MATRIX_PLATFORM)
            l->row_axes[l->nrow_axes++] = a;
    for (size_t a = 0; a < s->naxes; a++)
        if (s->axes[a].key != MATRIX_PLATFORM && (int)a != l->col_axis)
            l->row_axes[l->nrow_axes++] = a;
    l->ncols = l->col_axis < 0 ? 1 : s->axes[l->col_axis].n;
    l->nrows = 1;
    for (size_t r = 0; r < l->nrow_axes; r++)
        l->nrows *= s->axes[l->row_axes[r]].n;
    l->cell_of = malloc((n ? n : 1) * sizeof *l->cell_of);
    if (!l->cell_of)
        return -1;
    for (size_t i = 0; i < n; i++) {
        struct matrix_tag tag;
        char err[256];
        l->cell_of[i] = SIZE_MAX;
        if (!matrix_table_counts(runs[i].run.status) || matrix_tag_parse(runs[i].run.cell, &tag, err, sizeof err) < 0)
            continue;
        size_t row = 0, col = 0;
        int ok = 1;
        for (size_t r = 0; r < l->nrow_axes && ok; r++) {
            const struct matrix_axis *ax = &s->axes[l->row_axes[r]];
            int v = axis_index(ax, tag.value[ax->key]);
            ok = v >= 0;
            row = row * ax->n + (size_t)(ok ? v : 0);
        }
        if (l->col_axis >= 0 && ok) {
            int v = axis_index(&s->axes[l->col_axis], tag.value[s->axes[l->col_axis].key]);
            ok = v >= 0;
            col = (size_t)(ok ? v : 0);
        }
        if (ok)
            l->cell_of[i] = row * l->ncols + col;
    }
    return 0;
}

/* The label of row `row` for row axis r (the platform's label, without its target). */
static void row_label(const struct layout *l, const struct matrix_spec *s, size_t row, size_t r, char *buf, size_t len)
{
    size_t div = 1;
    for (size_t k = r + 1; k < l->nrow_axes; k++)
        div *= s->axes[l->row_axes[k]].n;
    const struct matrix_axis *ax = &s->axes[l->row_axes[r]];
    const char *v = ax->values[(row / div) % ax->n];
    char host[MATRIX_VALUE_LEN];
    uint16_t port;
    if (ax->key == MATRIX_PLATFORM)
        matrix_platform_split(v, buf, len, host, sizeof host, &port);
    else
        snprintf(buf, len, "%s", v);
}

/* The row-key headers: "platform" first (a fixed one when the matrix does not vary it). */
static size_t row_keys(const struct layout *l, const struct matrix_spec *s, const char **keys)
{
    size_t k = 0;
    if (!l->nrow_axes || s->axes[l->row_axes[0]].key != MATRIX_PLATFORM)
        keys[k++] = "platform";
    for (size_t r = 0; r < l->nrow_axes; r++)
        keys[k++] = matrix_key_name(s->axes[l->row_axes[r]].key);
    return k;
}

/* Labels of one row, one per row key. */
static void row_labels(const struct layout *l, const struct matrix_spec *s, size_t row, char (*out)[CELL_LEN])
{
    size_t k = 0;
    if (!l->nrow_axes || s->axes[l->row_axes[0]].key != MATRIX_PLATFORM)
        snprintf(out[k++], CELL_LEN, "%s", l->platform ? l->platform : "");
    for (size_t r = 0; r < l->nrow_axes; r++)
        row_label(l, s, row, r, out[k++], CELL_LEN);
}

static void cell_stat(const struct layout *l, const struct summary *runs, size_t n, size_t cell, size_t *members,
                      struct matrix_stat *st)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (l->cell_of[i] == cell)
            members[m++] = i;
    matrix_stat_compute(runs, members, m, st);
}

/* The distinct targets (host:port) of the runs of table cells `first`, `first + step`, ... (one
 * cell: step 0), comma-separated. */
static void targets_of(const struct layout *l, const struct summary *runs, size_t n, size_t first, size_t step,
                       size_t count, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t k = 0; k < count; k++)
        for (size_t i = 0; i < n; i++) {
            const char *t = runs[i].run.target;
            if (l->cell_of[i] != first + k * step || !t[0])
                continue;
            size_t tl = strlen(t);
            int seen = 0;
            for (const char *p = buf; (p = strstr(p, t)) && !seen; p += tl)
                seen = (p == buf || p[-1] == ',') && (p[tl] == ',' || !p[tl]);
            if (!seen && used + tl + 2 < len)
                used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "", t);
        }
}

/* When the columns of a row ran against different targets (a clients entry with its own
 * target), the table says so and names each column's. */
static void write_target_note(const struct layout *l, const struct matrix_spec *s, const struct summary *runs,
                              size_t n, int markdown, FILE *o)
{
    char a[CELL_LEN], b[CELL_LEN];
    int differ = 0;
    for (size_t r = 0; r < l->nrows && !differ; r++) {
        size_t have = 0;
        for (size_t c = 0; c < l->ncols && !differ; c++) {
            targets_of(l, runs, n, r * l->ncols + c, 0, 1, b, sizeof b);
            if (b[0] && have++ && strcmp(a, b))
                differ = 1;
            if (b[0])
                memcpy(a, b, sizeof a);
        }
    }
    if (!differ)
        return;
    fprintf(o, "%s(the columns ran against different servers: they compare clients and protocols, not one host;",
            markdown ? "\n" : "");
    for (size_t c = 0; c < l->ncols; c++) {
        targets_of(l, runs, n, c, l->ncols, l->nrows, b, sizeof b);
        fprintf(o, "%s %s at %s", c ? "," : "", l->col_axis < 0 ? "all" : s->axes[l->col_axis].values[c],
                b[0] ? b : "-");
    }
    fprintf(o, ")\n");
}

/* A column's header: the value ("lan", "tcp"), "sessions=N" for a number of sessions. */
static void col_header(const struct layout *l, const struct matrix_spec *s, size_t c, char *buf)
{
    if (l->col_axis < 0)
        snprintf(buf, CELL_LEN, "smax / baseline / kbit/s");
    else if (s->axes[l->col_axis].key == MATRIX_SESSIONS)
        snprintf(buf, CELL_LEN, "sessions=%s", s->axes[l->col_axis].values[c]);
    else
        snprintf(buf, CELL_LEN, "%s", s->axes[l->col_axis].values[c]);
}

static void put_md(FILE *o, const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '\\')
            fputc('\\', o);
        fputc((unsigned char)*s < 0x20 ? ' ' : *s, o);
    }
}

static int write_grid(const struct layout *l, const struct matrix_spec *s, const struct summary *runs, size_t n,
                      int markdown, FILE *o, size_t *members)
{
    const char *keys[MATRIX_KEY__COUNT + 1];
    size_t nk = row_keys(l, s, keys), ncol = nk + l->ncols;
    char (*grid)[CELL_LEN] = calloc((l->nrows + 1) * ncol, CELL_LEN);
    if (!grid)
        return -1;
    for (size_t k = 0; k < nk; k++)
        snprintf(grid[k], CELL_LEN, "%s", keys[k]);
    for (size_t c = 0; c < l->ncols; c++)
        col_header(l, s, c, grid[nk + c]);
    for (size_t r = 0; r < l->nrows; r++) {
        row_labels(l, s, r, &grid[(r + 1) * ncol]);
        for (size_t c = 0; c < l->ncols; c++) {
            struct matrix_stat st;
            cell_stat(l, runs, n, r * l->ncols + c, members, &st);
            matrix_stat_text(&st, grid[(r + 1) * ncol + nk + c], CELL_LEN);
        }
    }
    size_t w[MATRIX_KEY__COUNT + MATRIX_MAX_VALUES + 1] = { 0 };
    for (size_t i = 0; i < (l->nrows + 1) * ncol; i++)
        if (strlen(grid[i]) > w[i % ncol])
            w[i % ncol] = strlen(grid[i]);
    for (size_t r = 0; r <= l->nrows; r++) {
        for (size_t c = 0; c < ncol; c++) {
            const char *t = grid[r * ncol + c];
            if (markdown) {
                fputs("| ", o);
                put_md(o, t);
                fprintf(o, "%*s ", (int)(w[c] - strlen(t)), "");
            } else {
                fprintf(o, "%s%-*s", c ? "   " : "", c + 1 < ncol ? (int)w[c] : 0, t);
            }
        }
        fputs(markdown ? "|\n" : "\n", o);
        for (size_t c = 0; markdown && r == 0 && c < ncol; c++)
            fprintf(o, "|%s%s", c < nk ? ":" : "-", c + 1 < ncol ? "---" : "---|\n");
    }
    if (!markdown)
        fprintf(o, "(each cell: smax, mean (min-max) over repeats / baseline / kbit/s per session)\n");
    write_target_note(l, s, runs, n, markdown, o);
    free(grid);
    return 0;
}

static json_t *cell_json(const struct matrix_stat *st)
{
    json_t *j = json_object();
    int bad = jsonv_set(j, "runs", json_integer((json_int_t)st->runs)) +
              jsonv_set(j, "smax_mean", jsonv_number(st->smax_mean)) + jsonv_set(j, "smax_min", jsonv_number(st->smax_min)) +
              jsonv_set(j, "smax_max", jsonv_number(st->smax_max)) +
              jsonv_set(j, "smax_not_reached", json_integer((json_int_t)st->not_reached)) +
              jsonv_set(j, "smax_at_least", jsonv_number(st->open_min)) +
              jsonv_set(j, "runs_without_score", json_integer((json_int_t)st->unscored)) +
              jsonv_set(j, "baseline_ms", jsonv_number(st->baseline_ms)) +
              jsonv_set(j, "kbps_per_session", jsonv_number(st->kbps)) +
              jsonv_set(j, "bound_at_knee", st->bound[0] ? json_string(st->bound) : json_null());
    if (bad < 0) {
        json_decref(j);
        return NULL;
    }
    return j;
}

static void csv_num(FILE *o, double v, const char *fmt)
{
    if (isfinite(v))
        fprintf(o, fmt, v);
}

/* CSV and JSON: one record per cell, the row keys and the column key as fields. */
static int write_records(const struct layout *l, const struct matrix_spec *s, const struct summary *runs, size_t n,
                         int json, FILE *o, size_t *members)
{
    const char *keys[MATRIX_KEY__COUNT + 1];
    size_t nk = row_keys(l, s, keys);
    const char *colkey = l->col_axis < 0 ? NULL : matrix_key_name(s->axes[l->col_axis].key);
    json_t *arr = json ? json_array() : NULL;
    if (json && !arr)
        return -1;
    for (size_t k = 0; !json && k < nk; k++)
        fprintf(o, "%s,", keys[k]);
    if (!json)
        fprintf(o, "%s%sruns,smax_mean,smax_min,smax_max,smax_not_reached,smax_at_least,baseline_ms,kbps_per_session,"
                "target\n",
                colkey ? colkey : "", colkey ? "," : "");
    int rc = 0;
    for (size_t r = 0; r < l->nrows && rc == 0; r++) {
        char labels[MATRIX_KEY__COUNT + 1][CELL_LEN];
        row_labels(l, s, r, labels);
        for (size_t c = 0; c < l->ncols && rc == 0; c++) {
            struct matrix_stat st;
            char target[CELL_LEN];
            cell_stat(l, runs, n, r * l->ncols + c, members, &st);
            targets_of(l, runs, n, r * l->ncols + c, 0, 1, target, sizeof target);
            const char *colval = colkey ? s->axes[l->col_axis].values[c] : NULL;
            if (json) {
                json_t *j = cell_json(&st);
                if (j)
                    rc |= jsonv_set(j, "target", target[0] ? json_string(target) : json_null());
                for (size_t k = 0; j && k < nk; k++)
                    rc |= jsonv_set(j, keys[k], jsonv_string(labels[k]));
                if (j && colkey)
                    rc |= jsonv_set(j, colkey, jsonv_string(colval));
                rc = !j || json_array_append_new(arr, j) != 0 ? -1 : rc;
                continue;
            }
            for (size_t k = 0; k < nk; k++) {
                export_csv_field(o, labels[k]);
                fputc(',', o);
            }
            if (colkey) {
                export_csv_field(o, colval);
                fputc(',', o);
            }
            fprintf(o, "%zu,", st.runs);
            csv_num(o, st.smax_mean, "%.2f");
            fputc(',', o);
            csv_num(o, st.smax_min, "%.0f");
            fputc(',', o);
            csv_num(o, st.smax_max, "%.0f");
            fprintf(o, ",%zu,", st.not_reached);
            csv_num(o, st.open_min, "%.0f");
            fputc(',', o);
            csv_num(o, st.baseline_ms, "%.1f");
            fputc(',', o);
            csv_num(o, st.kbps, "%.2f");
            fputc(',', o);
            export_csv_field(o, target);
            fputc('\n', o);
        }
    }
    if (json) {
        json_t *top = json_object();
        json_t *rk = json_array();
        for (size_t k = 0; rk && k < nk; k++)
            rc |= json_array_append_new(rk, json_string(keys[k]));
        rc |= jsonv_set(top, "rows", rk) + jsonv_set(top, "columns", colkey ? json_string(colkey) : json_null()) +
              jsonv_set(top, "cells", arr);
        char *text = rc == 0 ? jsonv_take_text(top, JSONV_REPORT, 1) : NULL;
        if (rc != 0)
            json_decref(top);
        if (!text)
            return -1;
        fputs(text, o);
        free(text);
    }
    return rc;
}

int matrix_table_write(const struct matrix_spec *s, const char *platform, const struct summary *runs, size_t n,
                       enum matrix_format fmt, FILE *out)
{
    struct layout l;
    size_t *members = malloc((n ? n : 1) * sizeof *members);
    int rc = members ? layout_build(&l, s, runs, n) : -1;
    if (rc == 0) {
        l.platform = platform;
        if (fmt == MATRIX_TEXT || fmt == MATRIX_MARKDOWN)
            rc = write_grid(&l, s, runs, n, fmt == MATRIX_MARKDOWN, out, members);
        else
            rc = write_records(&l, s, runs, n, fmt == MATRIX_JSON, out, members);
        free(l.cell_of);
    }
    free(members);
    return rc == 0 && !ferror(out) ? 0 : -1;
}

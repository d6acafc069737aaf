/* summary_copy.c -- copy timers: throughput and the copy table (see summary_copy.h). */
#include "controller/score/summary_copy.h"
#include "controller/score/summary_types.h"

#include <math.h>
#include <string.h>

#define MIB 1048576.0
#define SIZES_MAX 16

double summary_copy_mbps(uint64_t bytes, double ms)
{
    return isfinite(ms) && ms > 0 ? (double)bytes / MIB / (ms / 1000.0) : NAN;
}

void summary_copy_apply(const struct store_copy_row *rows, size_t n, struct summary *s)
{
    for (size_t i = 0; i < s->timer_count; i++) {
        struct summary_timer *t = &s->timers[i];
        for (size_t k = 0; k < n && !t->is_measure; k++) {
            if (strcmp(rows[k].name, t->name) || !rows[k].bytes)
                continue;
            t->copy_bytes = rows[k].bytes;
            t->copy_to_client = rows[k].to_client;
            t->mbps_p50 = summary_copy_mbps(t->copy_bytes, t->p50_ms);
            t->mbps_min = summary_copy_mbps(t->copy_bytes, t->max_ms);   /* the slowest copy */
            t->mbps_max = summary_copy_mbps(t->copy_bytes, t->min_ms);
        }
    }
}

void summary_copy_size_text(uint64_t bytes, char *out, size_t len)
{
    static const char *const unit[] = { "B", "KB", "MB", "GB" };
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 3) {
        v /= 1024;
        u++;
    }
    snprintf(out, len, v == floor(v) ? "%.0f %s" : "%.1f %s", v, unit[u]);
}

size_t summary_copy_sizes(const struct summary *s, uint64_t *sizes, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < s->timer_count; i++) {
        uint64_t b = s->timers[i].copy_bytes;
        size_t k = 0;
        while (k < n && sizes[k] < b)
            k++;
        if (!b || (k < n && sizes[k] == b) || n == max)
            continue;
        memmove(sizes + k + 1, sizes + k, (n - k) * sizeof *sizes);
        sizes[k] = b;
        n++;
    }
    return n;
}

const struct summary_timer *summary_copy_cell(const struct summary *s, int to_client, uint64_t bytes)
{
    for (size_t i = 0; i < s->timer_count; i++)
        if (s->timers[i].copy_bytes == bytes && s->timers[i].copy_to_client == to_client)
            return &s->timers[i];
    return NULL;
}

void summary_copy_print(FILE *o, const struct summary *s)
{
    uint64_t sizes[SIZES_MAX];
    size_t n = summary_copy_sizes(s, sizes, SIZES_MAX);
    if (!n)
        return;
    fprintf(o, "\n%-44s", "copies (median of ok samples; MB = 2^20 B)");
    for (size_t k = 0; k < n; k++) {
        char head[32];
        summary_copy_size_text(sizes[k], head, sizeof head);
        fprintf(o, "  %-22s", head);
    }
    fputc('\n', o);
    for (int dir = 0; dir < 2; dir++) {
        fprintf(o, "%-44s", dir ? "server -> client (copy out)" : "client -> server (copy in)");
        for (size_t k = 0; k < n; k++) {
            const struct summary_timer *t = summary_copy_cell(s, dir, sizes[k]);
            char cell[48] = "-";
            if (t && isfinite(t->p50_ms))
                snprintf(cell, sizeof cell, "%.2f s  %.1f MB/s", t->p50_ms / 1000.0, t->mbps_p50);
            else if (t)
                snprintf(cell, sizeof cell, "failed (%zu)", t->failed);
            fprintf(o, "  %-22s", cell);
        }
        fputc('\n', o);
    }
}

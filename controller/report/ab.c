/* ab.c -- the A/B table of two runs (ab.h). */
#include "controller/report/ab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/ydoc.h"
#include "controller/score/abstat.h"
#include "controller/score/summary_copy.h"
#include "controller/score/textesc.h"

int ab_parse_limit(const char *text, struct ab_limit *out)
{
    out->seconds = out->percent = -1;
    size_t n = text ? strlen(text) : 0;
    if (n > 1 && text[n - 1] == '%') {
        char *end;
        double v = strtod(text, &end);
        if (end != text + n - 1 || !(v >= 0))
            return -1;
        out->percent = v;
        return 0;
    }
    uint64_t us;
    if (!text || ydoc_parse_duration_us(text, &us) != 0)
        return -1;
    out->seconds = (double)us / 1e6;
    return 0;
}

/* ok, non-measure values (seconds) of timer `name` in s; returns the count. */
static size_t values(const struct store_samples *s, const char *name, double *out)
{
    size_t n = 0;
    for (size_t i = 0; i < s->count; i++) {
        const struct store_sample_row *r = &s->rows[i];
        if (r->ok == SAMPLE_OK && !r->is_measure && !strcmp(s->names[r->name_id], name))
            out[n++] = (double)r->value_us / 1e6;
    }
    return n;
}

static int is_timer(const struct store_samples *s, const char *name)
{
    for (size_t i = 0; i < s->count; i++)
        if (!s->rows[i].is_measure && !strcmp(s->names[s->rows[i].name_id], name))
            return 1;
    return 0;
}

static int over(const struct abstat_result *r, const struct ab_limit *l)
{
    if (!l || !r->significant || r->diff <= 0)
        return 0;
    return (l->seconds >= 0 && r->diff > l->seconds) ||
           (l->percent >= 0 && r->median_a > 0 && r->diff / r->median_a * 100.0 > l->percent);
}

int ab_write(const struct store_samples *a, const struct store_samples *b, int64_t run_a, int64_t run_b,
             const struct ab_limit *limit, const char *only, FILE *o)
{
    double *va = malloc((a->count ? a->count : 1) * sizeof *va), *vb = malloc((b->count ? b->count : 1) * sizeof *vb);
    int shown = 0, bad = 0;
    if (!va || !vb) {
        free(va);
        free(vb);
        return -1;
    }
    fprintf(o, "A/B: run %lld (A) vs run %lld (B); ok samples of each timer, seconds\n",
            (long long)run_a, (long long)run_b);
    fprintf(o, "%-18s %5s %5s %10s %10s %10s  %-21s %9s  %s\n", "timer", "n A", "n B", "median A",
            "median B", "B - A", "95% CI of B - A", "p", "verdict");
    for (size_t t = 0; t < a->name_count; t++) {
        const char *name = a->names[t];
        if (!is_timer(a, name) || !is_timer(b, name) || (only && strcmp(name, only)))
            continue;
        size_t na = values(a, name, va), nb = values(b, name, vb);
        struct abstat_result r;
        char verdict[160], ci[48], p[16], ename[200];
        shown++;
        if (abstat_compare(va, na, vb, nb, &r) != 0) {
            fprintf(o, "%-18s %5zu %5zu  (no ok samples on one side)\n", textesc(ename, sizeof ename, name,
                    TEXTESC_LINE), na, nb);
            continue;
        }
        abstat_verdict(&r, verdict, sizeof verdict);
        snprintf(ci, sizeof ci, "[%+.3f, %+.3f]", r.ci_lo, r.ci_hi);
        if (r.p < 0.001)
            snprintf(p, sizeof p, "<0.001");
        else
            snprintf(p, sizeof p, "%.3f", r.p);
        int o_ = over(&r, limit);
        bad += o_;
        fprintf(o, "%-18s %5zu %5zu %10.3f %10.3f %+10.3f  %-21s %9s  %s%s\n",
                textesc(ename, sizeof ename, name, TEXTESC_LINE), na, nb, r.median_a,
                r.median_b, r.diff, ci, p, verdict, o_ ? "  REGRESSION over the limit" : "");
    }
    free(va);
    free(vb);
    return shown ? bad : -1;
}

int ab_write_copies(const struct store_samples *a, const struct store_samples *b,
                    const struct store_copy_row *copies, size_t ncopies, FILE *o)
{
    double *va = malloc((a->count ? a->count : 1) * sizeof *va), *vb = malloc((b->count ? b->count : 1) * sizeof *vb);
    int shown = 0;
    if (!va || !vb) {
        free(va);
        free(vb);
        return -1;
    }
    for (size_t i = 0; i < ncopies; i++) {
        const char *name = copies[i].name;
        size_t na = values(a, name, va), nb = values(b, name, vb);
        if (!na && !nb)
            continue;
        if (!shown++)
            fprintf(o, "\ncopy timers: throughput at the medians (MB = 2^20 bytes)\n%-18s %-10s %-16s %10s %10s %8s\n",
                    "timer", "size", "direction", "MB/s A", "MB/s B", "B / A");
        char size[32], ename[200];
        summary_copy_size_text(copies[i].bytes, size, sizeof size);
        double ta = na ? abstat_median(va, na) * 1000.0 : NAN, tb = nb ? abstat_median(vb, nb) * 1000.0 : NAN;
        double ma = summary_copy_mbps(copies[i].bytes, ta), mb = summary_copy_mbps(copies[i].bytes, tb);
        fprintf(o, "%-18s %-10s %-16s %10.1f %10.1f %8.2f\n", textesc(ename, sizeof ename, name, TEXTESC_LINE),
                size,
                copies[i].to_client ? "server -> client" : "client -> server", ma, mb, mb / ma);
    }
    free(va);
    free(vb);
    return shown;
}

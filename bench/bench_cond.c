/* bench_cond.c -- cost of watching a `change` condition on a large window while the user types:
 * per-row hashes (what cond.c does: re-hash only the rows a paint touched) against hashing the
 * whole region on every paint (the naive way, workload_region_hash), plus the one-off cost of
 * reading the baseline when the condition starts. 800x500 region of a
 * 1024x768 framebuffer at 16 and 32 bpp, paints of one 16-row text line. Prints µs per paint. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/interp/cond.h"
#include "common/clock.h"
#include "common/workload_pixel.h"

#define W 1024
#define H 768
#define PAINTS 2000

static double per_paint_rows(const struct screen_view *v, const struct workload_wait *w)
{
    struct cond_state st = { 0 };
    struct rect line = { 120, 300, 600, 16 };
    cond_begin(&st, w, v, 0);
    uint64_t t0 = clock_now_us();
    for (int i = 0; i < PAINTS; i++)
        if (cond_on_paint(&st, v, &line, 1, 1))
            abort();                                     /* nothing changed: must not hold */
    double us = (double)(clock_now_us() - t0) / PAINTS;
    cond_end(&st);
    return us;
}

static double per_begin(const struct screen_view *v, const struct workload_wait *w)
{
    struct cond_state st = { 0 };
    uint64_t t0 = clock_now_us();
    for (int i = 0; i < PAINTS / 10; i++)
        cond_begin(&st, w, v, 0);
    double us = (double)(clock_now_us() - t0) / (PAINTS / 10);
    cond_end(&st);
    return us;
}

static double per_paint_full(const struct screen_view *v, struct workload_rect r)
{
    uint64_t base = workload_region_hash(v->pixels, v->stride, v->bytes_per_pixel, r, 0), x = 0;
    uint64_t t0 = clock_now_us();
    for (int i = 0; i < PAINTS / 10; i++)
        x |= workload_region_hash(v->pixels, v->stride, v->bytes_per_pixel, r, 0) != base;
    if (x)
        abort();
    return (double)(clock_now_us() - t0) / (PAINTS / 10);
}

int main(void)
{
    static uint8_t fb[W * H * 4];
    for (size_t i = 0; i < sizeof fb; i++)
        fb[i] = (uint8_t)(i * 2654435761u >> 13);
    struct workload_wait w = { .n = 1, .timeout_us = 1 };
    w.conds[0].kind = WORKLOAD_COND_CHANGE;
    w.conds[0].region = (struct workload_rect){ 112, 60, 800, 500 };
    printf("change condition on an 800x500 region, one 600x16 paint (%d paints)\n", PAINTS);
    printf("%-6s %16s %16s %8s %18s\n", "bpp", "full hash us", "row hashes us", "ratio", "baseline (once) us");
    for (uint32_t bpp = 2; bpp <= 4; bpp += 2) {
        struct screen_view v = { fb, W, H, W * bpp, bpp };
        double full = per_paint_full(&v, w.conds[0].region), rows = per_paint_rows(&v, &w);
        printf("%-6u %16.1f %16.2f %7.0fx %18.1f\n", bpp * 8, full, rows, full / (rows > 0.001 ? rows : 0.001),
               per_begin(&v, &w));
    }
    return 0;
}

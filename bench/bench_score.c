/* bench_score.c -- time to score 1,000,000 samples (target well under 1 s) and to build the
 * dashboard (index + 365 run reports) for 365 nightly runs (target under 2 s). Prints each
 * figure beside its target as a ratio (< 1.00 is inside the target). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../tests/unit/fixture_store.h"
#include "controller/report/report.h"
#include "controller/report/dashboard.h"
#include "controller/score/score.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int bench_score(void)
{
    enum { N = 1000000, REPS = 5 };
    struct score_sample *s = malloc(N * sizeof *s);
    double *idx = malloc(N * sizeof *idx), t[REPS];
    if (!s || !idx)
        return -1;
    uint32_t seed = 1;
    for (size_t i = 0; i < N; i++) {   /* a 2000-session ramp, 500 samples per session step */
        uint32_t active = 1 + (uint32_t)(i / 500);
        seed = seed * 1103515245u + 12345u;
        s[i] = (struct score_sample){ i * 1000, 800000 + (int64_t)active * 600 + (seed >> 16) % 200000, active,
                                      (seed >> 8) % 100 != 0 };
    }
    struct score_params p;
    score_params_default(&p);
    struct score_result r;
    char err[256];
    for (int k = 0; k < REPS; k++) {
        double t0 = now_s();
        if (score_compute(&p, s, N, &r, idx, err, sizeof err) < 0)
            return fprintf(stderr, "%s\n", err), -1;
        t[k] = now_s() - t0;
    }
    qsort(t, REPS, sizeof t[0], cmp);
    char smax[64];
    score_format_smax(&r, smax, sizeof smax);
    printf("score 1,000,000 samples (window up to %u): median %7.1f ms  target 1000 ms  ratio %.2f  (smax %s)\n",
           p.window_base + (uint32_t)ceil(p.window_frac * 2000), t[REPS / 2] * 1e3, t[REPS / 2], smax);
    free(s);
    free(idx);
    return 0;
}

static int bench_dashboard(void)
{
    char dir[] = "/tmp/bench_score.XXXXXX", db[64], out[64], err[256];
    if (!mkdtemp(dir))
        return -1;
    snprintf(db, sizeof db, "%s/nightly.db", dir);
    snprintf(out, sizeof out, "%s/dash", dir);
    struct store *st = store_open(db, STORE_WRITE, err, sizeof err);
    if (!st)
        return fprintf(stderr, "%s\n", err), -1;
    static const char *const groups[3][2] = { { "tcp", "lan" }, { "gateway", "wan" }, { "tcp", "wan" } };
    size_t samples = 0;
    for (uint64_t d = 0; d < 365; d++) {
        struct fixture_run f = { "nightly", groups[d % 3][0], "ws2022", groups[d % 3][1], 40,
                                 25 + (uint32_t)(d % 7), 0, 0, 3000, { "smax >= 20", NULL }, d, 0, FAIL_NONE };
        struct fixture_counts c = { 0 };
        if (fixture_write_run(st, &f, &c) < 0)
            return fprintf(stderr, "%s\n", store_errmsg(st)), -1;
        samples += c.measure_ok + c.measure_failed;
    }
    store_close(st);
    st = store_open(db, STORE_READ, err, sizeof err);
    double t0 = now_s();
    if (!st || dashboard_write(st, out, err, sizeof err) < 0)
        return fprintf(stderr, "%s\n", err), -1;
    double t = now_s() - t0;
    store_close(st);
    printf("dashboard 365 runs (%zu measure samples, 366 pages): %7.1f ms  target 2000 ms  ratio %.2f\n",
           samples, t * 1e3, t / 2.0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    printf("bench_score (%s)\n", SCORE_VERSION);
    if (bench_score() < 0 || bench_dashboard() < 0)
        return 1;
    return 0;
}

/* test_summary_samples.c -- the summary of a stored run streamed chunk by chunk in arrival order
 * (summary_load) equals the summary of the same run loaded as rows in time order
 * (store_load_samples + summary_compute), bit for bit, on a run whose samples arrive out of time
 * order, with two measure groups, failed and suspect samples and ties in time. */
#include "unit.h"
#include "fixture_db.h"

#include "controller/score/score_config.h"
#include "controller/score/summary.h"
#include "controller/score/summary_load.h"
#include "db/store.h"

#include <stdlib.h>
#include <string.h>

#define AGENTS 4
#define PER_AGENT 6
#define BATCHES 300
#define T0 1764460800000000ull

static const char *const names[] = { "app_start", "file_open", "vsi", "alt" };

/* Agents send batches; each agent's samples are in time order, the agents' batches interleave, so
 * the stored order is not time order (and agent 0 and 1 share timestamps). */
static int64_t build(struct store *st)
{
    int64_t run = begin_run(st, "stream");
    uint32_t seed = 7;
    for (int b = 0; b < BATCHES && run > 0; b++)
        for (int a = AGENTS - 1; a >= 0; a--)
            for (int k = 0; k < PER_AGENT; k++) {
                uint64_t t = T0 + (uint64_t)b * 1000000 + (uint64_t)k * 150000 + (uint64_t)(a / 2) * 7000;
                uint32_t active = 1 + (uint32_t)(b * AGENTS + a) / 40;
                seed = seed * 1103515245u + 12345u;
                int n = (int)((seed >> 16) % 4);
                struct rec_sample s = sample((uint32_t)(a * 100 + k), t, names[n],
                                             300000 + (int64_t)active * 60000 + (seed >> 8) % 150000);
                s.is_measure = n >= 2;
                s.ok = (seed >> 4) % 50 == 0 ? SAMPLE_FAILED : (seed >> 4) % 50 == 1 ? SAMPLE_SUSPECT : SAMPLE_OK;
                CU_ASSERT_EQUAL_FATAL(store_add_sample(st, run, &s, active), 0);
            }
    return run;
}

/* Counts the places where the stored order goes back in time. */
static int count_back(void *ctx, const struct store_sample_row *rows, size_t n, size_t expect,
                      const struct store_samples *names)
{
    uint64_t *c = ctx;   /* c[0]: the last t seen, c[1]: steps back */
    (void)expect;
    (void)names;
    for (size_t i = 0; i < n; i++) {
        c[1] += rows[i].t_us < c[0];
        c[0] = rows[i].t_us;
    }
    return 0;
}

#define SAME(a, b) (memcmp(&(a), &(b), sizeof(a)) == 0)

static int same_score(const struct score_result *a, const struct score_result *b)
{
    return a->status == b->status && a->samples == b->samples && a->samples_ok == b->samples_ok &&
           a->samples_failed == b->samples_failed && a->samples_needed == b->samples_needed &&
           SAME(a->baseline_ms, b->baseline_ms) && SAME(a->threshold_ms, b->threshold_ms) &&
           a->reached == b->reached && a->smax == b->smax && a->max_active == b->max_active &&
           a->cross_sample == b->cross_sample && a->cross_t_us == b->cross_t_us &&
           a->cross_active == b->cross_active && SAME(a->cross_index_ms, b->cross_index_ms) &&
           SAME(a->max_index_ms, b->max_index_ms);
}

static int same_timer(const struct summary_timer *a, const struct summary_timer *b)
{
    return !strcmp(a->name, b->name) && a->is_measure == b->is_measure && a->count == b->count &&
           a->failed == b->failed && a->suspect == b->suspect && SAME(a->min_ms, b->min_ms) &&
           SAME(a->avg_ms, b->avg_ms) && SAME(a->max_ms, b->max_ms) && SAME(a->p50_ms, b->p50_ms) &&
           SAME(a->p90_ms, b->p90_ms) && SAME(a->p95_ms, b->p95_ms) && SAME(a->p99_ms, b->p99_ms);
}

static size_t points_differ(const struct summary *a, const struct summary *b)
{
    size_t bad = 0;
    for (size_t i = 0; i < a->point_count && i < b->point_count; i++)
        bad += a->points[i].t_us != b->points[i].t_us || a->points[i].active != b->points[i].active ||
               !SAME(a->points[i].value_ms, b->points[i].value_ms) ||
               !SAME(a->points[i].index_ms, b->points[i].index_ms);
    return bad;
}

/* Streamed vs loaded, with the score over `measure`. */
static void compare(struct store *st, int64_t run, const char *measure)
{
    struct score_config cfg;
    score_config_init(&cfg);
    snprintf(cfg.params.measure, sizeof cfg.params.measure, "%s", measure);
    char err[512];
    struct summary a, b;
    struct store_run info;
    struct store_samples ss;
    CU_ASSERT_EQUAL_FATAL(summary_load(st, run, &cfg, &a, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(store_get_run(st, run, &info), 0);
    CU_ASSERT_EQUAL_FATAL(store_load_samples(st, run, &ss), 0);
    struct summary_input in = { .run = &info, .samples = &ss };
    CU_ASSERT_EQUAL_FATAL(summary_compute(&in, &cfg, &b, err, sizeof err), 0);
    CU_ASSERT_EQUAL(a.samples, (size_t)(BATCHES * AGENTS * PER_AGENT));
    CU_ASSERT_TRUE(a.samples_failed > 0 && a.samples_suspect > 0);
    CU_ASSERT_STRING_EQUAL(a.measure, b.measure);
    CU_ASSERT_STRING_EQUAL(a.note, b.note);
    CU_ASSERT_TRUE(same_score(&a.score, &b.score));
    CU_ASSERT_EQUAL(a.score.status, SCORE_OK);
    CU_ASSERT_TRUE(a.score.reached);
    CU_ASSERT_EQUAL(a.samples, b.samples);
    CU_ASSERT_EQUAL(a.samples_failed, b.samples_failed);
    CU_ASSERT_EQUAL(a.samples_suspect, b.samples_suspect);
    CU_ASSERT_TRUE(SAME(a.failed_samples_pct, b.failed_samples_pct));
    CU_ASSERT_EQUAL_FATAL(a.point_count, b.point_count);
    CU_ASSERT_TRUE(a.point_count > 1000);
    CU_ASSERT_EQUAL(points_differ(&a, &b), 0);
    CU_ASSERT_EQUAL_FATAL(a.timer_count, b.timer_count);
    CU_ASSERT_EQUAL(a.timer_count, 4);
    for (size_t k = 0; k < a.timer_count; k++)
        CU_ASSERT_TRUE(same_timer(&a.timers[k], &b.timers[k]));
    for (size_t k = 0; k < a.bucket_count && k < b.bucket_count; k++)
        CU_ASSERT_TRUE(SAME(a.buckets[k].rt_avg_ms, b.buckets[k].rt_avg_ms));
    summary_free(&a);
    summary_free(&b);
    store_free_samples(&ss);
    score_config_free(&cfg);
}

static void test_summary_samples__streamed_equals_loaded(void)
{
    struct store *st = open_ok(db_path("stream.db"), STORE_WRITE);
    int64_t run = build(st);
    CU_ASSERT_TRUE_FATAL(run > 0);
    CU_ASSERT_EQUAL_FATAL(store_run_end(st, run, "completed", T0 + BATCHES * 1000000ull, ""), 0);
    uint64_t back[2] = { 0, 0 };
    struct store_samples nm;
    CU_ASSERT_EQUAL_FATAL(store_scan_samples(st, run, count_back, back, &nm), 0);
    CU_ASSERT_EQUAL(nm.name_count, 4);
    CU_ASSERT_TRUE(back[1] >= 3 * BATCHES);   /* each agent's batch goes back in time */
    store_free_samples(&nm);
    compare(st, run, "vsi");
    compare(st, run, "alt");
    store_close(st);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_summary_samples__streamed_equals_loaded),
        UNIT_END,
    };
    return unit_run("summary_samples", tests, NULL, NULL);
}

/* test_livescore.c -- the live score on its worker thread: samples handed over by
 * livescore_update() are scored exactly as score_compute() scores them, later samples are
 * added to the earlier ones, other timers are ignored, and nothing is handed over twice. */
#include "unit.h"

#include "controller/run/livescore.h"
#include "controller/score/score.h"

#include <math.h>
#include <string.h>

static struct rec_sample vsi(uint32_t i, const char *name)
{
    struct rec_sample s = { .session = i % 7, .t_us = 1000000ull * i, .value_us = 500000 + 40000 * (int64_t)i,
                            .ok = i % 11 ? SAMPLE_OK : SAMPLE_FAILED, .is_measure = 1 };
    snprintf(s.name, sizeof s.name, "%s", name);
    return s;
}

/* The reference: score_compute over the first n samples as livescore_add() keeps them. */
static void reference(const struct score_params *p, uint32_t n, struct score_result *r, double *last)
{
    struct score_sample ss[200];
    double idx[200];
    char err[200];
    for (uint32_t i = 0; i < n; i++) {
        struct rec_sample s = vsi(i, "vsi");
        ss[i] = (struct score_sample){ s.t_us, s.value_us, 1 + i / 4, s.ok == SAMPLE_OK };
    }
    CU_ASSERT_EQUAL_FATAL(score_compute(p, ss, n, r, idx, err, sizeof err), 0);
    *last = NAN;
    for (uint32_t i = n; i-- > 0;)
        if (!isnan(idx[i])) {
            *last = idx[i];
            break;
        }
}

/** 60 then 140 more samples (with other timers between): each settled result equals the
 *  reference over everything kept so far; the interval holds a second hand-over back. */
static void test_livescore__worker_scores_what_was_added(void)
{
    struct score_params p;
    score_params_default(&p);
    struct livescore ls;
    livescore_init(&ls, &p);
    CU_ASSERT_TRUE(ls.started);
    uint64_t now = 10 * LIVESCORE_INTERVAL_US;
    for (uint32_t i = 0; i < 60; i++) {
        struct rec_sample s = vsi(i, "vsi"), other = vsi(i, "app_start");
        livescore_add(&ls, &s, 1 + i / 4);
        livescore_add(&ls, &other, 1 + i / 4);
    }
    CU_ASSERT_EQUAL(ls.nss, 60);
    livescore_update(&ls, now);
    livescore_settle(&ls);
    struct score_result want;
    double last;
    reference(&p, 60, &want, &last);
    CU_ASSERT_EQUAL(ls.runs, 1);
    CU_ASSERT_EQUAL(ls.result.status, want.status);
    CU_ASSERT_EQUAL(ls.result.samples, 60);
    CU_ASSERT_DOUBLE_EQUAL(ls.result.baseline_ms, want.baseline_ms, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(ls.index_ms, last, 1e-9);
    for (uint32_t i = 60; i < 200; i++) {
        struct rec_sample s = vsi(i, "vsi");
        livescore_add(&ls, &s, 1 + i / 4);
    }
    livescore_update(&ls, now + 1);   /* within the interval: nothing handed over */
    livescore_settle(&ls);
    CU_ASSERT_EQUAL(ls.runs, 1);
    livescore_update(&ls, now + 2 * LIVESCORE_INTERVAL_US + 60 * 1000000ull);
    livescore_settle(&ls);
    livescore_update(&ls, now + 4 * LIVESCORE_INTERVAL_US + 60 * 1000000ull);   /* nothing new */
    livescore_settle(&ls);
    reference(&p, 200, &want, &last);
    CU_ASSERT_EQUAL(ls.runs, 2);
    CU_ASSERT_EQUAL(ls.result.samples, 200);
    CU_ASSERT_EQUAL(ls.result.reached, want.reached);
    CU_ASSERT_EQUAL(ls.result.smax, want.smax);
    CU_ASSERT_DOUBLE_EQUAL(ls.result.threshold_ms, want.threshold_ms, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(ls.index_ms, last, 1e-9);
    livescore_free(&ls);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_livescore__worker_scores_what_was_added),
        UNIT_END,
    };
    return unit_run("livescore", tests, NULL, NULL);
}

/* test_demo_size.c -- `sessmax demo`'s ramp sizing (controller/cli/demo_size.h): the ramp always
 * goes at least DEMO_PAST_MIN x past the predicted knee when the cap allows, keeps the plan's rate,
 * never shrinks below the plan nor grows beyond the cap; the predictor's output is read back. */
#include "unit.h"

#include <math.h>

#include "controller/cli/demo_size.h"

#define S(x) ((uint64_t)(x) * 1000000)

static void test_demo_size__cap(void)
{
    CU_ASSERT_EQUAL(demo_size_cap(120, S(240)), 300);   /* 0.5 users/s over 600 s */
    CU_ASSERT_EQUAL(demo_size_cap(10, S(1200)), 10);    /* a longer plan is never cut */
    CU_ASSERT_EQUAL(demo_size_cap(0, S(240)), 0);
    CU_ASSERT_EQUAL(demo_size_cap(120, 0), 0);
}

/* Every knee from 1 to what the cap carries: the ramp ends at least 1.3x past it, at most 1.5x
 * past it unless the plan's own sessions already went further, at the plan's rate. */
static void test_demo_size__past_the_knee(void)
{
    const unsigned plan = 120;
    const uint64_t window = S(240);
    unsigned cap = demo_size_cap(plan, window);
    for (unsigned knee = 1; knee * DEMO_PAST <= cap; knee++) {
        struct demo_knee k = { knee, 1, 0.4 };
        struct demo_size z;
        demo_size_ramp(plan, window, &k, &z);
        CU_ASSERT_TRUE(z.sessions >= DEMO_PAST_MIN * knee);
        CU_ASSERT_TRUE(z.sessions >= plan);
        CU_ASSERT_TRUE(z.sessions <= cap);
        if (z.sessions > plan)
            CU_ASSERT_TRUE(z.sessions <= 1.5 * knee);
        CU_ASSERT_FALSE(z.capped);
        CU_ASSERT_EQUAL(z.kept, z.sessions == plan);
        /* the plan's rate: 0.5 users/s */
        CU_ASSERT_TRUE(fabs((double)z.launch_window_us / z.sessions - (double)window / plan) < 1e3);
        CU_ASSERT_DOUBLE_EQUAL(z.past, (double)z.sessions / knee, 1e-9);
    }
}

/* The two machines of the issue: a knee of 85 keeps the plan's 120 (1.41x); a knee of 119 (the
 * plan would end at it) ramps to 167 over 334 s. */
static void test_demo_size__cases(void)
{
    struct demo_size z;
    struct demo_knee here = { 85, 1, 0.43 }, fast = { 119, 1, 0.30 };
    demo_size_ramp(120, S(240), &here, &z);
    CU_ASSERT_EQUAL(z.sessions, 120);
    CU_ASSERT_EQUAL(z.launch_window_us, S(240));
    CU_ASSERT_TRUE(z.kept);
    demo_size_ramp(120, S(240), &fast, &z);
    CU_ASSERT_EQUAL(z.sessions, 167);
    CU_ASSERT_EQUAL(z.launch_window_us, S(334));
    CU_ASSERT_FALSE(z.kept);
    CU_ASSERT_FALSE(z.capped);
}

/* A knee beyond what the cap reaches, or none at all: the ramp goes to the cap and says so. */
static void test_demo_size__capped(void)
{
    struct demo_size z;
    struct demo_knee far = { 250, 1, 0.1 }, none = { 300, 0, 0.1 };
    demo_size_ramp(120, S(240), &far, &z);
    CU_ASSERT_EQUAL(z.sessions, 300);
    CU_ASSERT_EQUAL(z.launch_window_us, S(600));
    CU_ASSERT_TRUE(z.capped);
    demo_size_ramp(120, S(240), &none, &z);
    CU_ASSERT_EQUAL(z.sessions, 300);
    CU_ASSERT_TRUE(z.capped);
    CU_ASSERT_DOUBLE_EQUAL(z.past, 0, 1e-12);
    /* a plan with no launch window is left alone */
    demo_size_ramp(1, 0, &far, &z);
    CU_ASSERT_EQUAL(z.sessions, 1);
    CU_ASSERT_EQUAL(z.launch_window_us, 0);
}

static void test_demo_size__parse(void)
{
    struct demo_knee k;
    const char *out = "sessmax-simhost: cost model at work-scale 0.5 (thread CPU, this machine; ...):\n"
                      "sessmax-simhost: real session: 0.430 s of CPU per loop (2 loops ...), synthetic cost "
                      "model 0.357 s (x1.20): the prediction uses the real session's\n"
                      "sessmax-simhost: cost model: 0.430 s of CPU per loop\n"
                      "sessmax-simhost: ramp simulation, 21 seeds: smax 88 89\n"
                      "predicted smax for the plan: 88 (median of 21 seeds, range 85..94, sd 2.9 %; ...)\n";
    CU_ASSERT_EQUAL(demo_size_parse(out, &k), 0);
    CU_ASSERT_EQUAL(k.smax, 88);
    CU_ASSERT_TRUE(k.reached);
    CU_ASSERT_DOUBLE_EQUAL(k.loop_cpu_s, 0.430, 1e-9);
    CU_ASSERT_EQUAL(demo_size_parse("predicted smax for the plan: not reached (> 300) (median ...)\n", &k), 0);
    CU_ASSERT_EQUAL(k.smax, 300);
    CU_ASSERT_FALSE(k.reached);
    CU_ASSERT_DOUBLE_EQUAL(k.loop_cpu_s, 0, 1e-12);
    CU_ASSERT_EQUAL(demo_size_parse("sessmax-simhost: plan x: bad\n", &k), -1);
    CU_ASSERT_EQUAL(demo_size_parse("predicted smax for the plan: ?\n", &k), -1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_demo_size__cap),
        UNIT_TEST(test_demo_size__past_the_knee),
        UNIT_TEST(test_demo_size__cases),
        UNIT_TEST(test_demo_size__capped),
        UNIT_TEST(test_demo_size__parse),
        UNIT_END,
    };
    return unit_run("demo_size", tests, NULL, NULL);
}

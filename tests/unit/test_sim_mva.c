/* test_sim_mva.c -- the closed-queue MVA behind --predict's smax: hand-computed steps (one CPU and
 * Seidmann's two), the smax search on a case with a closed form, and its monotonicity in the CPUs
 * and the threshold offset. */
#include "unit.h"

#include "simhost/model/mva.h"

static void test_sim_mva__hand_computed_one_cpu(void)
{
    struct sim_mva m;
    sim_mva_init(&m, 1, 1, 9);
    CU_ASSERT_EQUAL(m.n, 0);
    sim_mva_step(&m);                              /* R(1) = 1, X(1) = 1/10, Q(1) = 0.1 */
    CU_ASSERT_EQUAL(m.n, 1);
    CU_ASSERT_DOUBLE_EQUAL(m.r_s, 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.x, 0.1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.q, 0.1, 1e-12);
    sim_mva_step(&m);                              /* R(2) = 1.1, X(2) = 2/10.1, Q(2) = 2.2/10.1 */
    CU_ASSERT_DOUBLE_EQUAL(m.q_seen, 0.1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.r_s, 1.1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.x, 2 / 10.1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.q, 2.2 / 10.1, 1e-12);
    sim_mva_step(&m);                              /* R(3) = 12.3/10.1, X(3) = 30.3/103.2 */
    double r3 = 12.3 / 10.1, x3 = 30.3 / 103.2;
    CU_ASSERT_DOUBLE_EQUAL(m.r_s, r3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.x, x3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.q, x3 * r3, 1e-12);
    /* a timer of 0.5 s stretches like the loop: (0.5/1)(1 + Q(2)) */
    CU_ASSERT_DOUBLE_EQUAL(sim_mva_stretch(&m, 0.5), 0.5 * r3, 1e-12);
}

static void test_sim_mva__seidmann_and_fractional_cpus(void)
{
    struct sim_mva m;
    sim_mva_init(&m, 2, 1, 9);
    sim_mva_step(&m);                              /* R(1) = 1/2 + 1/2 = 1, Q(1) = 0.1 × 0.5 */
    CU_ASSERT_DOUBLE_EQUAL(m.r_s, 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.q, 0.05, 1e-12);
    sim_mva_step(&m);                              /* R(2) = 0.5 × 1.05 + 0.5 */
    CU_ASSERT_DOUBLE_EQUAL(m.r_s, 1.025, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sim_mva_stretch(&m, 2), 2.05, 1e-12);
    /* half a CPU (a quota) is one slow CPU: no negative delay */
    sim_mva_init(&m, 0.5, 1, 9);
    sim_mva_step(&m);
    CU_ASSERT_DOUBLE_EQUAL(m.r_s, 2, 1e-12);
}

/* Z = 0, C = 1, D = 1: every user always queues, Q(n) = n, and a 1 s timer's response is n. */
static void test_sim_mva__smax_closed_form(void)
{
    struct sim_mva_timer t[] = { { 1, 1 }, { 0.5, 0 } };   /* the unweighted one adds nothing */
    struct sim_mva_smax r;
    CU_ASSERT_EQUAL_FATAL(sim_mva_smax(1, 1, 0, t, 2, 2.5, &r), 0);
    CU_ASSERT(r.reached);
    CU_ASSERT_DOUBLE_EQUAL(r.baseline_s, 1, 1e-12);
    CU_ASSERT_EQUAL(r.smax, 3);                    /* measure(4) − 1 = 3 > 2.5 */
    CU_ASSERT_DOUBLE_EQUAL(r.last_s, 4, 1e-9);
    CU_ASSERT_EQUAL_FATAL(sim_mva_smax(1, 1, 0, t, 2, 9.5, &r), 0);
    CU_ASSERT_EQUAL(r.smax, 10);
    /* nothing can push a tiny demand on 4096 CPUs a second above its baseline */
    CU_ASSERT_EQUAL_FATAL(sim_mva_smax(4096, 0.001, 30, t, 1, 1, &r), 0);
    CU_ASSERT_FALSE(r.reached);
    CU_ASSERT_EQUAL(sim_mva_smax(0, 1, 9, t, 1, 1, &r), -1);
    CU_ASSERT_EQUAL(sim_mva_smax(1, 0, 9, t, 1, 1, &r), -1);
    CU_ASSERT_EQUAL(sim_mva_smax(1, 1, -1, t, 1, 1, &r), -1);
}

/* the shipped task worker's shape: 0.65 s of CPU per 30 s loop, zip9 0.3 s, cpu 0.17 s, ... */
static const struct sim_mva_timer task[] = { { 0.068, 0.2 }, { 0.002, 0.75 }, { 0.3, 0.125 }, { 0.095, 0.2 },
                                             { 0.175, 0.75 } };

static unsigned smax_of(double cpus, double offset_s)
{
    struct sim_mva_smax r;
    CU_ASSERT_EQUAL_FATAL(sim_mva_smax(cpus, 0.65, 29.9, task, 5, offset_s, &r), 0);
    return r.reached ? r.smax : SIM_MVA_MAX_USERS;
}

static void test_sim_mva__more_cpus_never_fewer_users(void)
{
    static const double cpus[] = { 0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 16, 64 };
    unsigned prev = 0;
    for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++) {
        unsigned s = smax_of(cpus[i], 1.0);
        CU_ASSERT(s >= prev);
        prev = s;
    }
    /* one CPU lands between "idle" and the saturation point C × len / D = 47 */
    unsigned one = smax_of(1, 1.0);
    CU_ASSERT(one > 20 && one < 60);
    /* the baseline is the sum of the weighted demands whatever the CPUs */
    struct sim_mva_smax r1, r8;
    sim_mva_smax(1, 0.65, 29.9, task, 5, 1.0, &r1);
    sim_mva_smax(8, 0.65, 29.9, task, 5, 1.0, &r8);
    double base = 0.068 * 0.2 + 0.002 * 0.75 + 0.3 * 0.125 + 0.095 * 0.2 + 0.175 * 0.75;
    CU_ASSERT_DOUBLE_EQUAL(r1.baseline_s, base, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r8.baseline_s, base, 1e-12);
}

static void test_sim_mva__larger_offset_never_smaller_smax(void)
{
    for (double cpus = 0.5; cpus <= 4; cpus *= 2) {
        unsigned prev = 0;
        for (double off = 0.05; off <= 20; off *= 1.5) {
            unsigned s = smax_of(cpus, off);
            CU_ASSERT(s >= prev);
            prev = s;
        }
    }
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_mva__hand_computed_one_cpu), UNIT_TEST(test_sim_mva__seidmann_and_fractional_cpus),
        UNIT_TEST(test_sim_mva__smax_closed_form), UNIT_TEST(test_sim_mva__more_cpus_never_fewer_users),
        UNIT_TEST(test_sim_mva__larger_offset_never_smaller_smax), UNIT_END,
    };
    return unit_run("sim_mva", tests, NULL, NULL);
}

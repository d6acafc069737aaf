/* test_summary_logon.c -- a run's logon phases: nearest-rank p50/p95 per phase over the sessions
 * that measured it, sessions without phases (older agents) left out, launch to active beside;
 * `score`'s block and the summary's minimum RTT in the network line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/score/score_text.h"
#include "controller/score/summary_logon.h"
#include "controller/score/summary_net.h"
#include "unit.h"

/* Session i: active, logon (i + 1) ms, each phase i + 1 + p µs (desktop -1 for session 0, whose
 * condition held before a paint: not measured), active 300 ms after the logon. */
static void sessions(struct store_session_row *s, size_t n)
{
    memset(s, 0, n * sizeof *s);
    for (size_t i = 0; i < n; i++) {
        s[i].index = (uint32_t)i;
        snprintf(s[i].state, sizeof s[i].state, "ended");
        s[i].launch_us = 1000000;
        s[i].logon_us = (int64_t)(i + 1) * 1000;
        s[i].active_us = s[i].launch_us + (uint64_t)s[i].logon_us + 300000;
        for (int p = 0; p < LOGON__PHASES; p++)
            s[i].logon_phase_us[p] = (int64_t)((i + 1) * 1000 + (size_t)p);
    }
    s[0].logon_phase_us[LOGON_PAINT] = -1;
}

/** 20 sessions: p50 is the 10th value, p95 the 19th; a phase one session lacks counts 19. */
static void test_summary_logon__percentiles(void)
{
    struct store_session_row s[21];
    sessions(s, 20);
    struct summary_input in = { .sessions = s, .session_count = 20 };
    struct summary out;
    memset(&out, 0, sizeof out);
    CU_ASSERT_EQUAL_FATAL(summary_logon_phases(&in, &out), 0);
    CU_ASSERT_EQUAL(out.logon_phased, 20);
    CU_ASSERT_EQUAL(out.logon_phases[LOGON_TCP].count, 20);
    CU_ASSERT_DOUBLE_EQUAL(out.logon_phases[LOGON_TCP].p50_ms, 10.001, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(out.logon_phases[LOGON_TCP].p95_ms, 19.001, 1e-9);
    CU_ASSERT_EQUAL(out.logon_phases[LOGON_PAINT].count, 19);
    CU_ASSERT_DOUBLE_EQUAL(out.logon_phases[LOGON_PAINT].p50_ms, 11.004, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(out.launch_active_p50_ms, 310.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(out.launch_active_p95_ms, 319.0, 1e-9);
}

/** Sessions of an older agent (no phases) and sessions never active are left out; none at all:
 * counts 0, NaN, and `score` prints no phase block. */
static void test_summary_logon__unmeasured(void)
{
    struct store_session_row s[3];
    sessions(s, 3);
    for (int p = 0; p < LOGON__PHASES; p++)
        s[1].logon_phase_us[p] = -1;
    s[2].logon_us = -1;
    s[2].active_us = 0;
    struct summary_input in = { .sessions = s, .session_count = 3 };
    struct summary out;
    memset(&out, 0, sizeof out);
    CU_ASSERT_EQUAL_FATAL(summary_logon_phases(&in, &out), 0);
    CU_ASSERT_EQUAL(out.logon_phased, 1);
    CU_ASSERT_EQUAL(out.logon_phases[LOGON_RDP].count, 1);
    CU_ASSERT_EQUAL(out.logon_phases[LOGON_PAINT].count, 0);
    CU_ASSERT_TRUE(isnan(out.logon_phases[LOGON_PAINT].p50_ms));
    in.session_count = 0;
    CU_ASSERT_EQUAL_FATAL(summary_logon_phases(&in, &out), 0);
    CU_ASSERT_EQUAL(out.logon_phased, 0);
    CU_ASSERT_TRUE(isnan(out.launch_active_p50_ms));
}

/** Every phase has a label of its own. */
static void test_summary_logon__labels(void)
{
    for (int p = 0; p < LOGON__PHASES; p++) {
        CU_ASSERT_STRING_NOT_EQUAL(summary_logon_phase_label((enum logon_phase)p), "?");
        CU_ASSERT_PTR_NOT_NULL(logon_phase_name((enum logon_phase)p));
    }
    CU_ASSERT_STRING_EQUAL(summary_logon_phase_label(LOGON__PHASES), "?");
    CU_ASSERT_PTR_NULL(logon_phase_name(LOGON__PHASES));
}

/** The network line names the minimum RTT first and the smoothed RTT for what it is; a run
 * without minimum RTT (stored before version 11) shows only the smoothed one. */
static void test_summary_logon__rtt_line(void)
{
    struct summary s;
    memset(&s, 0, sizeof s);
    snprintf(s.run.network, sizeof s.run.network, "lan");
    s.rtt_p50_ms = 18.2;
    s.rtt_p95_ms = 20.0;
    s.min_rtt_p50_ms = 0.004;
    s.min_rtt_p95_ms = 0.03;
    s.retrans_pct = NAN;
    char line[512];
    summary_net_line(&s, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "measured min RTT p50 0.004 ms, p95 0.030 ms; kernel smoothed TCP RTT "
                                        "(includes delayed ACKs) p50 18.2 ms"));
    s.min_rtt_p50_ms = s.min_rtt_p95_ms = NAN;
    summary_net_line(&s, line, sizeof line);
    CU_ASSERT_PTR_NULL(strstr(line, "min RTT"));
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "measured kernel smoothed TCP RTT (includes delayed ACKs) p50 18.2 ms"));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_summary_logon__percentiles), UNIT_TEST(test_summary_logon__unmeasured),
        UNIT_TEST(test_summary_logon__labels), UNIT_TEST(test_summary_logon__rtt_line), UNIT_END,
    };
    return unit_run("summary_logon", tests, NULL, NULL);
}

/* test_verdict.c -- validity rules and thresholds on runs the test writes through db/store.h,
 * and the exit codes of `sessmax score`. */
#include "unit.h"

#include <jansson.h>

#include "controller/cli/cmd_score.h"
#include "controller/score/summary.h"
#include "controller/score/summary_load.h"
#include "controller/score/verdict.h"
#include "fixture_store.h"

#include <math.h>
#include <unistd.h>

static char db_path[512];
static int64_t run_pass, run_fail, run_stuck, run_cut, run_lost, run_lag, run_open, run_empty, run_auth;
/* the agent gate: small share, large share from other processes / the agent's own work / its quota /
 * cause unknown */
static int64_t run_share_ok, run_share_others, run_share_own, run_share_quota, run_share_unknown;

static int setup(void)
{
    char err[256];
    snprintf(db_path, sizeof db_path, "%s/verdict.db", unit_tmpdir());
    unlink(db_path);
    struct store *st = store_open(db_path, STORE_WRITE, err, sizeof err);
    if (!st)
        return fprintf(stderr, "%s\n", err), -1;
    struct fixture_run f = { "pass", "tcp", "sim", "lan", 60, 30, 0, 0, 3000,
                             { "smax >= 20", "p95(app_start) < 60000", "stuck_pct < 1", NULL }, 0, 0, FAIL_NONE };
    run_pass = fixture_write_run(st, &f, NULL);
    f.name = "fail";
    f.thresholds[0] = "smax >= 100";
    run_fail = fixture_write_run(st, &f, NULL);
    f.name = "stuck";
    f.stuck = 3;
    f.thresholds[0] = NULL;
    run_stuck = fixture_write_run(st, &f, NULL);
    f.name = "cut";
    f.stuck = 1;
    f.cut_short = 4;
    run_cut = fixture_write_run(st, &f, NULL);
    f.cut_short = 0;
    f.name = "lost";
    f.stuck = 0;
    f.agent_lost = 1;
    run_lost = fixture_write_run(st, &f, NULL);
    f.name = "lag";
    f.agent_lost = 0;
    f.lag_p99_us = 80000;
    run_lag = fixture_write_run(st, &f, NULL);
    f.name = "open";                   /* knee above the ramp: smax not reached */
    f.lag_p99_us = 3000;
    f.knee = 1000;
    f.thresholds[0] = "smax >= 100";
    f.thresholds[1] = NULL;
    run_open = fixture_write_run(st, &f, NULL);
    f.name = "empty";                  /* every logon failed: no sample at all */
    f.knee = 30;
    f.sessions = f.stuck = 4;
    f.thresholds[0] = "p95(app_start) < 60000";
    f.thresholds[1] = "smax >= 1";
    f.thresholds[2] = NULL;
    run_empty = fixture_write_run(st, &f, NULL);
    f.name = "auth";                   /* 2 of 60 users' logons refused, the rest ran */
    f.sessions = 60;
    f.stuck = 2;
    f.stuck_reason = FAIL_AUTH;
    f.thresholds[0] = NULL;
    run_auth = fixture_write_run(st, &f, NULL);
    struct fixture_run g = { "share", "tcp", "sim", "lan", 60, 1000, 0, 0, 80000, { NULL }, 0, 0, FAIL_NONE };
    static const struct fixture_agent agents[] = {
        { 2000, 1, 50, 300, 0 },        /* 2 ms of a ~1850 ms threshold: passes, whatever the loop lag */
        { 120000, 1, 50, 300, 0 },      /* 120 ms, the loop thread mostly waiting: other processes */
        { 120000, 1, 900, 50, 0 },      /* 120 ms, the loop thread on a CPU nearly all the time */
        { 120000, 1, 20, 700, 600 },    /* 120 ms, held back by its cgroup's quota */
        { 120000, 0, 0, 0, 0 },         /* 120 ms, no scheduler figures */
    };
    int64_t *runs[] = { &run_share_ok, &run_share_others, &run_share_own, &run_share_quota, &run_share_unknown };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        fixture_agent = agents[i];
        *runs[i] = fixture_write_run(st, &g, NULL);
    }
    memset(&fixture_agent, 0, sizeof fixture_agent);
    store_close(st);
    return run_empty > 0 && run_auth > 0 ? 0 : -1;
}

static enum verdict_kind verdict_of(int64_t run, struct summary *s, struct verdict *v)
{
    char err[512];
    struct store *st = store_open(db_path, STORE_READ, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL_FATAL(summary_load(st, run, NULL, s, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(verdict_evaluate(s, v, err, sizeof err), 0);
    store_close(st);
    return v->kind;
}

static int has_reason(const struct verdict *v, const char *text)
{
    char buf[4096];
    verdict_reasons(v, buf, sizeof buf);
    return strstr(buf, text) != NULL;
}

static void test_verdict__pass(void)
{
    struct summary s;
    struct verdict v;
    CU_ASSERT_EQUAL(verdict_of(run_pass, &s, &v), VERDICT_PASS);
    CU_ASSERT_TRUE(s.score.reached);
    CU_ASSERT_TRUE(s.score.smax >= 30 && s.score.smax <= 45);
    CU_ASSERT_EQUAL(s.launched, 60);
    CU_ASSERT_EQUAL(s.active, 60);
    CU_ASSERT_EQUAL(s.stuck, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.kbps_per_session, 120.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(s.logon_p50_ms, 2000 + 29 * 20, 1e-6);
    CU_ASSERT_EQUAL(s.timer_count, 3);
    CU_ASSERT_EQUAL(v.item_count, v.validity_count + 3);
    summary_free(&s);
}

static void test_verdict__threshold_fails(void)
{
    struct summary s;
    struct verdict v;
    CU_ASSERT_EQUAL(verdict_of(run_fail, &s, &v), VERDICT_FAIL);
    CU_ASSERT_TRUE(has_reason(&v, "smax"));
    CU_ASSERT_EQUAL(verdict_exit_code(v.kind), 1);
    summary_free(&s);
}

static void test_verdict__stuck_is_inconclusive(void)
{
    struct summary s;
    struct verdict v;
    CU_ASSERT_EQUAL(verdict_of(run_stuck, &s, &v), VERDICT_INCONCLUSIVE);
    CU_ASSERT_EQUAL(s.stuck, 3);
    CU_ASSERT_DOUBLE_EQUAL(s.stuck_pct, 5.0, 1e-9);
    CU_ASSERT_TRUE(has_reason(&v, "stuck sessions 5.00 %"));
    CU_ASSERT_EQUAL_FATAL(s.reason_count, 1);
    CU_ASSERT_STRING_EQUAL(s.reasons[0].reason, "logon_timeout");
    CU_ASSERT_EQUAL(s.reasons[0].count, 3);
    summary_free(&s);
}

/* Sessions the run itself aborted before they logged on are "cut short", not stuck: an early
 * stop a second after a launch says nothing about the host. */
static void test_verdict__cut_short_is_not_stuck(void)
{
    struct summary s;
    struct verdict v;
    verdict_of(run_cut, &s, &v);
    CU_ASSERT_EQUAL(s.launched, 60);
    CU_ASSERT_EQUAL(s.cut_short, 4);
    CU_ASSERT_EQUAL(s.stuck, 1);
    CU_ASSERT_EQUAL(s.active, 55);
    CU_ASSERT_TRUE(has_reason(&v, "stuck sessions 1.67 %"));
    summary_free(&s);
}

static void test_verdict__lost_agent_is_inconclusive(void)
{
    struct summary s;
    struct verdict v;
    CU_ASSERT_EQUAL(verdict_of(run_lost, &s, &v), VERDICT_INCONCLUSIVE);
    CU_ASSERT_TRUE(has_reason(&v, "1 of 2 agents lost"));
    summary_free(&s);
}

static void test_verdict__agent_lag_is_inconclusive(void)
{
    struct summary s;
    struct verdict v;
    CU_ASSERT_EQUAL(verdict_of(run_lag, &s, &v), VERDICT_INCONCLUSIVE);
    CU_ASSERT_TRUE(has_reason(&v, "agent loop lag p99 80.0 ms"));
    summary_free(&s);
}

static void test_verdict__not_reached_cannot_decide(void)
{
    struct summary s;
    struct verdict v;
    CU_ASSERT_EQUAL(verdict_of(run_open, &s, &v), VERDICT_INCONCLUSIVE);
    CU_ASSERT_FALSE(s.score.reached);
    CU_ASSERT_TRUE(has_reason(&v, "smax not reached at 60 active, so smax >= 59"));
    /* smax >= 50 holds for every smax > 60 */
    CU_ASSERT_EQUAL(threshold_parse("smax >= 50", &s.config.thresholds[0], (char[64]){0}, 64), 0);
    struct verdict v2;
    char err[256];
    CU_ASSERT_EQUAL(verdict_evaluate(&s, &v2, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v2.kind, VERDICT_PASS);
    CU_ASSERT_EQUAL(threshold_parse("smax < 40", &s.config.thresholds[0], (char[64]){0}, 64), 0);
    CU_ASSERT_EQUAL(verdict_evaluate(&s, &v2, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v2.kind, VERDICT_FAIL);
    /* with 60 active and no crossing the index may still cross at 60 active: smax >= 59 only */
    static const struct { const char *text; enum verdict_kind want; } edge[] = {
        { "smax >= 59", VERDICT_PASS }, { "smax >= 60", VERDICT_INCONCLUSIVE },
        { "smax >= 61", VERDICT_INCONCLUSIVE }, { "smax > 58", VERDICT_PASS }, { "smax < 59", VERDICT_FAIL },
        { "smax < 60", VERDICT_INCONCLUSIVE },
    };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        CU_ASSERT_EQUAL(threshold_parse(edge[i].text, &s.config.thresholds[0], (char[64]){0}, 64), 0);
        CU_ASSERT_EQUAL(verdict_evaluate(&s, &v2, err, sizeof err), 0);
        if (v2.kind != edge[i].want)
            fprintf(stderr, "\n    %s: got %s\n", edge[i].text, verdict_name(v2.kind));
        CU_ASSERT_EQUAL(v2.kind, edge[i].want);
    }
    CU_ASSERT_TRUE(has_reason(&v2, "smax >= 59"));
    summary_free(&s);
}

/* A threshold on a timer the run has no sample of fails with its reason; count() of it is 0. */
static void test_verdict__unknown_timer_fails(void)
{
    struct summary s;
    struct verdict v;
    verdict_of(run_pass, &s, &v);
    char err[512] = "";
    CU_ASSERT_EQUAL(threshold_parse("p95(nope) < 10", &s.config.thresholds[0], err, sizeof err), 0);
    CU_ASSERT_EQUAL(verdict_evaluate(&s, &v, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v.kind, VERDICT_FAIL);
    CU_ASSERT_EQUAL(v.items[v.validity_count].result, VERDICT_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(v.items[v.validity_count].reason, "no 'nope' sample"));
    CU_ASSERT_PTR_NOT_NULL(strstr(v.items[v.validity_count].reason, "app_start"));
    CU_ASSERT_EQUAL(threshold_parse("count(nope) == 0", &s.config.thresholds[0], err, sizeof err), 0);
    CU_ASSERT_EQUAL(verdict_evaluate(&s, &v, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v.items[v.validity_count].result, VERDICT_PASS);
    summary_free(&s);
}

/* A run without any sample still gets a verdict: inconclusive (no baseline), its timer
 * threshold failed with the reason, and its JSON names both. */
static void test_verdict__no_samples_is_a_verdict(void)
{
    struct summary s;
    struct verdict v;
    CU_ASSERT_EQUAL(verdict_of(run_empty, &s, &v), VERDICT_INCONCLUSIVE);
    CU_ASSERT_EQUAL(s.timer_count, 0);
    CU_ASSERT_EQUAL(v.item_count, v.validity_count + 2);
    CU_ASSERT_EQUAL(v.items[v.validity_count].result, VERDICT_FAIL);
    CU_ASSERT_TRUE(has_reason(&v, "no 'app_start' sample in this run"));
    CU_ASSERT_TRUE(has_reason(&v, "timers: none"));
    CU_ASSERT_TRUE(has_reason(&v, "too few samples for a baseline"));
    CU_ASSERT_TRUE(has_reason(&v, "; 4 of 4 sessions failed (logon_timeout 4)"));
    char *json = verdict_to_json(&s, &v);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"inconclusive\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "no 'app_start' sample"));
    free(json);
    summary_free(&s);
}

/** A single-user diagnosis (plan focus:, no measure group: the run recorded no measure sample)
 * is judged on its focus timer: enough ok samples of it (as many as a baseline needs) make it
 * valid, its thresholds decide pass or fail, and the reasons say it was judged so; too few, or
 * a focus timer without samples, are inconclusive. With measure samples the focus changes nothing. */
static void test_verdict__single_user_focus(void)
{
    struct summary s;
    struct verdict v;
    char err[512], reasons[2048];
    verdict_of(run_pass, &s, &v);
    CU_ASSERT_FALSE(v.focus);                          /* a measure group: scored as ever */
    snprintf(s.config.focus, sizeof s.config.focus, "app_start");
    CU_ASSERT_FALSE(verdict_judges_focus(&s));
    CU_ASSERT_EQUAL(verdict_evaluate(&s, &v, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v.kind, VERDICT_PASS);
    CU_ASSERT_FALSE(v.focus);
    s.score.status = SCORE_TOO_FEW;                    /* as a run without a measure group */
    s.score.samples = s.score.samples_ok = 0;
    s.score.reached = 0;
    CU_ASSERT_TRUE(verdict_judges_focus(&s));
    CU_ASSERT_EQUAL_FATAL(threshold_parse("p95(app_start) < 60000", &s.config.thresholds[0], err, sizeof err), 0);
    s.config.threshold_count = 1;
    CU_ASSERT_EQUAL(verdict_evaluate(&s, &v, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v.kind, VERDICT_PASS);
    CU_ASSERT_TRUE(v.focus);
    CU_ASSERT_STRING_EQUAL(v.items[0].text, "enough samples of the focus timer");
    CU_ASSERT_EQUAL(v.items[0].result, VERDICT_PASS);
    CU_ASSERT_FALSE(has_reason(&v, "too few samples for a baseline"));
    verdict_reasons(&v, reasons, sizeof reasons);
    CU_ASSERT_PTR_NOT_NULL(strstr(reasons, "single-user diagnosis, judged on its focus timer 'app_start'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(reasons, "15 needed"));
    char smax[96];
    verdict_format_smax(&s, smax, sizeof smax);        /* not "too few samples": there is no measure */
    CU_ASSERT_STRING_EQUAL(smax, "n/a (single-user diagnosis: no measure group; judged on the focus timer)");
    CU_ASSERT_EQUAL(threshold_parse("p95(app_start) < 1", &s.config.thresholds[0], err, sizeof err), 0);
    CU_ASSERT_EQUAL(verdict_evaluate(&s, &v, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v.kind, VERDICT_FAIL);             /* the plan's threshold decides */
    CU_ASSERT_EQUAL(verdict_exit_code(v.kind), EXIT_THRESHOLD_FAILED);
    s.config.threshold_count = 0;
    s.score.samples_needed = 1000000;                  /* more than the run has */
    CU_ASSERT_EQUAL(verdict_evaluate(&s, &v, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v.kind, VERDICT_INCONCLUSIVE);
    CU_ASSERT_TRUE(has_reason(&v, "too few samples of the focus timer 'app_start'"));
    s.score.samples_needed = 15;
    snprintf(s.config.focus, sizeof s.config.focus, "never_ran");
    CU_ASSERT_EQUAL(verdict_evaluate(&s, &v, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v.kind, VERDICT_INCONCLUSIVE);
    CU_ASSERT_TRUE(has_reason(&v, "'never_ran' for a single-user diagnosis: 0 ok (0 failed or suspect), 15 needed"));
    summary_free(&s);
}

static void test_verdict__measure_fallback_and_override(void)
{
    struct score_config cfg;
    struct summary s;
    char err[512];
    score_config_init(&cfg);
    snprintf(cfg.params.measure, sizeof cfg.params.measure, "task");
    struct store *st = store_open(db_path, STORE_READ, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL_FATAL(summary_load(st, run_pass, &cfg, &s, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(s.measure, "vsi");          /* the only measure group */
    CU_ASSERT_PTR_NOT_NULL(strstr(s.note, "no measure group named 'task'"));
    CU_ASSERT_EQUAL(s.score.status, SCORE_OK);
    CU_ASSERT_EQUAL(s.config.threshold_count, 0);      /* the override replaces the stored thresholds */
    summary_free(&s);
    cfg.params.min_samples = 100000;
    CU_ASSERT_EQUAL_FATAL(summary_load(st, run_pass, &cfg, &s, err, sizeof err), 0);
    struct verdict v;
    CU_ASSERT_EQUAL(verdict_evaluate(&s, &v, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v.kind, VERDICT_INCONCLUSIVE);
    CU_ASSERT_TRUE(has_reason(&v, "too few samples for a baseline"));
    summary_free(&s);
    store_close(st);
}

static int run_verb(const char *a1, const char *a2, const char *a3, const char *a4, const char *a5)
{
    char *argv[8] = { "score", (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5, NULL };
    int argc = 1;
    while (argv[argc])
        argc++;
    fflush(stdout);
    return cmd_score.run(argc, argv);
}

/* Sessions whose logon the target refused make the run exit 77 with the words, whatever else the
 * verdict says; verdict.json's exit_code and `sessmax score` agree. */
static void test_verdict__auth_failed_is_77(void)
{
    struct summary s;
    struct verdict v;
    CU_ASSERT_EQUAL(verdict_of(run_auth, &s, &v), VERDICT_INCONCLUSIVE);
    CU_ASSERT_EQUAL(v.auth_failed, 2);
    CU_ASSERT_STRING_EQUAL(v.auth_user, "user059");
    CU_ASSERT_EQUAL(verdict_code(&v), 77);
    CU_ASSERT_EQUAL(verdict_exit_code(v.kind), EXIT_INCONCLUSIVE);
    CU_ASSERT_TRUE(has_reason(&v, "authentication failed for user059 (wrong password, locked or expired account); "
                                  "2 of 60 sessions failed authentication"));
    json_t *j = verdict_json(&s, &v);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "exit_code")), 77);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "auth_failed")), 2);
    json_decref(j);
    summary_free(&s);
    CU_ASSERT_EQUAL(verdict_of(run_pass, &s, &v), VERDICT_PASS);
    CU_ASSERT_EQUAL(v.auth_failed, 0);
    CU_ASSERT_EQUAL(verdict_code(&v), 0);
    summary_free(&s);
    char id[32];
    snprintf(id, sizeof id, "%lld", (long long)run_auth);
    CU_ASSERT_EQUAL(run_verb(db_path, "--run", id, NULL, NULL), 77);
}

static void test_verdict__score_exit_codes_and_json(void)
{
    char id[32], vpath[600];
    snprintf(vpath, sizeof vpath, "%s/verdict.json", unit_tmpdir());
    snprintf(id, sizeof id, "%lld", (long long)run_pass);
    CU_ASSERT_EQUAL(run_verb(db_path, "--run", id, "--verdict", vpath), 0);
    snprintf(id, sizeof id, "%lld", (long long)run_fail);
    CU_ASSERT_EQUAL(run_verb(db_path, "--run", id, NULL, NULL), 1);
    snprintf(id, sizeof id, "%lld", (long long)run_stuck);
    CU_ASSERT_EQUAL(run_verb(db_path, "--run", id, NULL, NULL), 2);
    CU_ASSERT_EQUAL(run_verb(db_path, "--run", "x7", NULL, NULL), 64);
    CU_ASSERT_EQUAL(run_verb(db_path, "--run", "9999", NULL, NULL), 65);
    CU_ASSERT_EQUAL(run_verb("/nonexistent/x.db", NULL, NULL, NULL, NULL), 66);
    CU_ASSERT_EQUAL(run_verb(db_path, "--bogus", NULL, NULL, NULL), 64);
    /* the stored score is visible to readers */
    char err[256];
    struct store *st = store_open(db_path, STORE_READ, err, sizeof err);
    struct store_run r;
    CU_ASSERT_EQUAL(store_get_run(st, run_pass, &r), 0);
    CU_ASSERT_STRING_EQUAL(r.verdict, "pass");
    CU_ASSERT_STRING_EQUAL(r.score_version, SCORE_VERSION);
    CU_ASSERT_TRUE(r.smax_reached);
    store_close(st);
    /* verdict.json parses and says pass */
    FILE *f = fopen(vpath, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    json_error_t jerr;
    json_t *j = json_loads(buf, 0, &jerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    const char *verdict = json_string_value(json_object_get(j, "verdict"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(verdict);
    CU_ASSERT_STRING_EQUAL(verdict, "pass");
    CU_ASSERT(json_is_integer(json_object_get(j, "smax")));
    json_decref(j);
}

/* Results of an agent older than the share (none measured) keep the loop-lag rule, labelled so. */
static void test_verdict__lag_rule_only_without_share(void)
{
    struct summary s;
    struct verdict v;
    CU_ASSERT_EQUAL(verdict_of(run_lag, &s, &v), VERDICT_INCONCLUSIVE);
    CU_ASSERT_TRUE(has_reason(&v, "no agent share measured (an older agent, or an external client), so the old rule"));
    CU_ASSERT_EQUAL(s.agent_samples, 0);
    summary_free(&s);
}

/* A share well inside its limit passes, and a loop lag p99 of 80 ms (above lag_p99_max_ms) is
 * shown in the item, never the reason. */
static void test_verdict__share_small_passes(void)
{
    struct summary s;
    struct verdict v;
    CU_ASSERT_EQUAL(verdict_of(run_share_ok, &s, &v), VERDICT_PASS);
    CU_ASSERT_TRUE(s.agent_samples > 100);
    CU_ASSERT_EQUAL(s.agent_unmeasured, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.agent_mean_ms, 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.agent_p95_ms, 2.0, 1e-9);
    CU_ASSERT_EQUAL(s.agent_delayed, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.loop_delay_pct, 30.0, 1e-9);
    int found = 0;
    for (size_t i = 0; i < v.validity_count; i++)
        if (!strcmp(v.items[i].text, "agent_share <= 5 %")) {
            found = 1;
            CU_ASSERT_EQUAL(v.items[i].result, VERDICT_PASS);
            CU_ASSERT_PTR_NOT_NULL(strstr(v.items[i].reason, "loop lag p99 80.0 ms"));
        }
    CU_ASSERT_TRUE(found);
    summary_free(&s);
}

/* A share above 5 % of the threshold makes the run inconclusive, and the reason says why: the
 * loop thread waiting for a CPU it did not need much of is other processes; needing nearly a
 * whole CPU, or more than its cgroup's quota, is the agent's own work. */
static void test_verdict__share_large_names_the_cause(void)
{
    struct { int64_t *run; const char *why; } cases[] = {
        { &run_share_others, "the agent's CPU was taken by other processes: its loop thread waited for a CPU 30.0 %" },
        { &run_share_own, "the agent's own work: its loop thread needed 95 % of a CPU" },
        { &run_share_quota, "the agent's own work: it needed more CPU than its cgroup's quota allows (held back 60 %" },
        { &run_share_unknown, "cause not known (no scheduler figures from the agents)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct summary s;
        struct verdict v;
        CU_ASSERT_EQUAL(verdict_of(*cases[i].run, &s, &v), VERDICT_INCONCLUSIVE);
        CU_ASSERT_TRUE(has_reason(&v, "the agent's share could change the score: mean 120.0 ms"));
        CU_ASSERT_TRUE(has_reason(&v, cases[i].why));
        CU_ASSERT_FALSE(has_reason(&v, "loop lag"));
        summary_free(&s);
    }
}

/* With the mean allowed up to 100 % of the threshold, the samples each delayed over
 * agent_delay_max_ms still make the run inconclusive; a bound above them passes it. */
static void test_verdict__share_delayed_samples(void)
{
    char err[512];
    struct store *st = store_open(db_path, STORE_READ, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    struct score_config c;
    score_config_init(&c);
    c.params.agent_share_max_pct = 100;
    c.params.agent_delay_max_ms = 50;
    struct summary s;
    struct verdict v;
    CU_ASSERT_EQUAL_FATAL(summary_load(st, run_share_own, &c, &s, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(verdict_evaluate(&s, &v, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v.kind, VERDICT_INCONCLUSIVE);
    CU_ASSERT_EQUAL(s.agent_delayed, s.agent_samples);
    CU_ASSERT_TRUE(has_reason(&v, "samples (100.0 %, limit 5 %) took the agent over 50 ms"));
    summary_free(&s);
    c.params.agent_delay_max_ms = 120;               /* "over": 120 ms is not over 120 */
    CU_ASSERT_EQUAL_FATAL(summary_load(st, run_share_own, &c, &s, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(verdict_evaluate(&s, &v, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v.kind, VERDICT_PASS);
    CU_ASSERT_EQUAL(s.agent_delayed, 0);
    summary_free(&s);
    score_config_free(&c);
    store_close(st);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_verdict__pass),
        UNIT_TEST(test_verdict__threshold_fails),
        UNIT_TEST(test_verdict__stuck_is_inconclusive),
        UNIT_TEST(test_verdict__cut_short_is_not_stuck),
        UNIT_TEST(test_verdict__lost_agent_is_inconclusive),
        UNIT_TEST(test_verdict__agent_lag_is_inconclusive),
        UNIT_TEST(test_verdict__lag_rule_only_without_share),
        UNIT_TEST(test_verdict__share_small_passes),
        UNIT_TEST(test_verdict__share_large_names_the_cause),
        UNIT_TEST(test_verdict__share_delayed_samples),
        UNIT_TEST(test_verdict__not_reached_cannot_decide),
        UNIT_TEST(test_verdict__unknown_timer_fails),
        UNIT_TEST(test_verdict__no_samples_is_a_verdict),
        UNIT_TEST(test_verdict__single_user_focus),
        UNIT_TEST(test_verdict__measure_fallback_and_override),
        UNIT_TEST(test_verdict__auth_failed_is_77),
        UNIT_TEST(test_verdict__score_exit_codes_and_json),
        UNIT_END,
    };
    return unit_run("verdict", tests, setup, NULL);
}

/* verdict.c -- validity rules, then the plan's thresholds, into pass / fail / inconclusive. */
#include "controller/score/verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sysexits.h>
#include "common/outfile.h"
#include "controller/score/jsonv.h"
#include "controller/score/summary_metric.h"

const char *verdict_name(enum verdict_kind k)
{
    return k == VERDICT_PASS ? "pass" : k == VERDICT_FAIL ? "fail" : "inconclusive";
}

int verdict_exit_code(enum verdict_kind k)
{
    return k == VERDICT_PASS ? EXIT_PASS : k == VERDICT_FAIL ? EXIT_THRESHOLD_FAILED : EXIT_INCONCLUSIVE;
}

int verdict_code(const struct verdict *v)
{
    return v->auth_failed ? EX_NOPERM : verdict_exit_code(v->kind);
}

void verdict_auth_words(const char *user, char *buf, size_t len)
{
    snprintf(buf, len, "authentication failed for %s (wrong password, locked or expired account)",
             user && user[0] ? user : "the plan's user");
}

static void add(struct verdict *v, const char *text, double actual, enum verdict_kind r, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void add(struct verdict *v, const char *text, double actual, enum verdict_kind r, const char *fmt, ...)
{
    if (v->item_count == VERDICT_MAX_ITEMS)
        return;
    struct verdict_item *it = &v->items[v->item_count++];
    snprintf(it->text, sizeof it->text, "%s", text);
    it->actual = actual;
    it->result = r;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->reason, sizeof it->reason, fmt, ap);
    va_end(ap);
}

/* "; 2 of 2 sessions failed (auth 2)" when sessions failed, else "": why a run has no samples. */
static void failed_sessions(const struct summary *s, char *buf, size_t len)
{
    buf[0] = 0;
    if (!s->failed_sessions)
        return;
    size_t l = (size_t)snprintf(buf, len, "; %u of %u sessions failed (", s->failed_sessions, s->launched);
    for (size_t i = 0; i < s->reason_count && l < len; i++)
        l += (size_t)snprintf(buf + l, len - l, "%s%s %u", i ? ", " : "", s->reasons[i].reason, s->reasons[i].count);
    if (l < len)
        snprintf(buf + l, len - l, ")");
}

int verdict_judges_focus(const struct summary *s)
{
    return s->config.focus[0] && s->score.samples == 0;
}

void verdict_format_smax(const struct summary *s, char *buf, size_t len)
{
    if (verdict_judges_focus(s))
        snprintf(buf, len, "n/a (single-user diagnosis: no measure group; judged on the focus timer)");
    else
        score_format_smax(&s->score, buf, len);
}

/* A single-user diagnosis (verdict_judges_focus): enough ok samples of the focus timer -- as many
 * as a baseline would need -- make the run valid; its thresholds then decide. */
static void focus_validity(const struct summary *s, struct verdict *v, const char *failed)
{
    const struct summary_timer *t = NULL;
    for (size_t i = 0; i < s->timer_count; i++)
        if (!strcmp(s->timers[i].name, s->config.focus))
            t = &s->timers[i];
    size_t ok = t ? t->count - t->failed : 0, bad = t ? t->failed : 0, needed = s->score.samples_needed;
    if (ok >= needed)
        add(v, "enough samples of the focus timer", (double)ok, VERDICT_PASS, "single-user diagnosis, judged on "
            "its focus timer '%s': %zu ok samples (%zu needed); no measure group, so no baseline and no smax",
            s->config.focus, ok, needed);
    else
        add(v, "enough samples of the focus timer", (double)ok, VERDICT_INCONCLUSIVE, "too few samples of the "
            "focus timer '%s' for a single-user diagnosis: %zu ok (%zu failed or suspect), %zu needed%s",
            s->config.focus, ok, bad, needed, failed);
}

/* A session the target refused the plan's credentials: the run did not measure the plan's users
 * (verdict_code: 77), and the item names the first such user. */
static void auth_validity(const struct summary *s, struct verdict *v)
{
    for (size_t i = 0; i < s->reason_count; i++)
        if (!strcmp(s->reasons[i].reason, failure_reason_name(FAIL_AUTH)))
            v->auth_failed = s->reasons[i].count;
    for (size_t i = 0; v->auth_failed && !v->auth_user[0] && i < s->failure_count; i++)
        if (!strcmp(s->failures[i].reason, failure_reason_name(FAIL_AUTH)))
            snprintf(v->auth_user, sizeof v->auth_user, "%s", s->failures[i].user);
    char words[RESULTS_NAME_LEN + 80];
    verdict_auth_words(v->auth_user, words, sizeof words);
    if (v->auth_failed)
        add(v, "no authentication failure", v->auth_failed, VERDICT_INCONCLUSIVE,
            "%s; %u of %u sessions failed authentication (exit %d)", words, v->auth_failed, s->launched, EX_NOPERM);
    else
        add(v, "no authentication failure", 0, VERDICT_PASS, "no session failed authentication");
}

/* The samples' yardstick for the agent's share: the threshold the index is compared with
 * (baseline + threshold_offset_ms: a share is a part of it that could move the crossing, and the
 * offset keeps a run of very short actions from being judged on microseconds), or for a run
 * without one the median of the judged timer (the focus timer of a single-user diagnosis, else
 * the measure group); NaN when there is none. `what` names it. */
static double share_yardstick(const struct summary *s, char *what, size_t len)
{
    if (s->score.status == SCORE_OK && isfinite(s->score.threshold_ms)) {
        snprintf(what, len, "the threshold %.0f ms", s->score.threshold_ms);
        return s->score.threshold_ms;
    }
    const char *name = verdict_judges_focus(s) ? s->config.focus : s->measure;
    for (size_t i = 0; i < s->timer_count; i++)
        if (!strcmp(s->timers[i].name, name) && isfinite(s->timers[i].p50_ms)) {
            snprintf(what, len, "the median %.0f ms of '%s'", s->timers[i].p50_ms, name);
            return s->timers[i].p50_ms;
        }
    return NAN;
}

/* Why the agent's share grew, from its loop thread's time in the health records: the CPU it
 * needed (on a CPU plus waiting for one) near a whole CPU is the agent's own work; a real wait
 * with less needed is other processes holding its CPU; neither, its loop was blocked. */
static void share_cause(const struct summary *s, char *buf, size_t len)
{
    if (!s->sched_records) {
        snprintf(buf, len, "cause not known (no scheduler figures from the agents)");
        return;
    }
    double need = s->loop_cpu_pct + s->loop_delay_pct;
    if (s->throttled_pct >= VERDICT_RUN_DELAY_PCT)
        snprintf(buf, len, "the agent's own work: it needed more CPU than its cgroup's quota allows (held back "
                 "%.0f %% of the time; its loop thread on a CPU %.0f %%, waiting %.0f %%) for up to %u sessions; "
                 "give the agent more CPU or fewer sessions", s->throttled_pct, s->loop_cpu_pct, s->loop_delay_pct,
                 s->agent_sessions_max);
    else if (need >= VERDICT_OWN_WORK_PCT)
        snprintf(buf, len, "the agent's own work: its loop thread needed %.0f %% of a CPU (on one %.0f %%, "
                 "waiting %.0f %%) for up to %u sessions; give the agent more CPU or fewer sessions", need,
                 s->loop_cpu_pct, s->loop_delay_pct, s->agent_sessions_max);
    else if (s->loop_delay_pct >= VERDICT_RUN_DELAY_PCT)
        snprintf(buf, len, "the agent's CPU was taken by other processes: its loop thread waited for a CPU "
                 "%.1f %% of the time (run delay; on one %.0f %%); give the agent a CPU of its own",
                 s->loop_delay_pct, s->loop_cpu_pct);
    else
        snprintf(buf, len, "the agent's own work: its loop was blocked in its calls (on a CPU %.0f %%, "
                 "waiting for one %.1f %%: file I/O or sleeps on the loop)", s->loop_cpu_pct, s->loop_delay_pct);
}

/* The launcher-health gate: the agent's own share of the judged samples could change the score
 * when its mean is above agent_share_max_pct of the yardstick, or more than agent_delayed_max_pct
 * of them took over agent_delay_max_ms. Raw loop lag is shown, never the reason by itself; only
 * for results without any share measured (older agents, external clients) does the old lag rule
 * judge, and it says so. */
static void agent_gate(const struct summary *s, struct verdict *v)
{
    const struct score_params *p = &s->config.params;
    char rule[THRESHOLD_TEXT_LEN], what[96], cause[256];
    char lag[48] = "";
    if (isfinite(s->lag_p99_ms))
        snprintf(lag, sizeof lag, "; loop lag p99 %.1f ms", s->lag_p99_ms);
    if (!s->agent_samples && !s->agent_unmeasured && s->sched_seen) {
        add(v, "agent_share (nothing to judge)", NAN, VERDICT_PASS, "no ok sample to judge, so the agent's share "
            "cannot change a score%s", lag);
        return;
    }
    if (!s->agent_samples) {
        snprintf(rule, sizeof rule, "lag_p99_ms <= %g (no agent share)", p->lag_p99_max_ms);
        if (isnan(s->lag_p99_ms))
            add(v, rule, NAN, VERDICT_PASS, "no agent share measured and no agent health records: agent load "
                "not checked");
        else
            add(v, rule, s->lag_p99_ms, s->lag_p99_ms > p->lag_p99_max_ms ? VERDICT_INCONCLUSIVE : VERDICT_PASS,
                "no agent share measured (an older agent, or an external client), so the old rule: agent loop "
                "lag p99 %.1f ms (limit %g ms)%s", s->lag_p99_ms, p->lag_p99_max_ms,
                s->lag_p99_ms > p->lag_p99_max_ms ? ": a late loop may inflate response times" : "");
        return;
    }
    snprintf(rule, sizeof rule, "agent_share <= %g %%", p->agent_share_max_pct);
    double ref = share_yardstick(s, what, sizeof what);
    double limit_ms = ref * p->agent_share_max_pct / 100.0;
    double delayed_pct = 100.0 * (double)s->agent_delayed / (double)s->agent_samples;
    if (isnan(ref)) {
        add(v, rule, s->agent_mean_ms, VERDICT_PASS, "agent share of %zu samples: mean %.1f ms, p95 %.1f ms; "
            "not judged (no baseline to compare with)%s", s->agent_samples, s->agent_mean_ms, s->agent_p95_ms, lag);
        return;
    }
    int share_bad = s->agent_mean_ms > limit_ms;
    int delayed_bad = delayed_pct > p->agent_delayed_max_pct && s->agent_delayed >= VERDICT_DELAYED_MIN;
    if (!share_bad && !delayed_bad) {
        add(v, rule, s->agent_mean_ms, VERDICT_PASS, "agent share of the %zu ok samples: mean %.1f ms, p95 %.1f "
            "ms (limit %.1f ms, %g %% of %s); %.1f %% above %g ms (limit %g %%)%s", s->agent_samples,
            s->agent_mean_ms, s->agent_p95_ms, limit_ms, p->agent_share_max_pct, what, delayed_pct,
            p->agent_delay_max_ms, p->agent_delayed_max_pct, lag);
        return;
    }
    share_cause(s, cause, sizeof cause);
    if (share_bad)
        add(v, rule, s->agent_mean_ms, VERDICT_INCONCLUSIVE, "the agent's share could change the score: mean "
            "%.1f ms of each of %zu samples, above %.1f ms (%g %% of %s); %s", s->agent_mean_ms,
            s->agent_samples, limit_ms, p->agent_share_max_pct, what, cause);
    else
        add(v, rule, s->agent_mean_ms, VERDICT_INCONCLUSIVE, "the agent's share could change the score: %zu of "
            "%zu samples (%.1f %%, limit %g %%) took the agent over %g ms; %s", s->agent_delayed,
            s->agent_samples, delayed_pct, p->agent_delayed_max_pct, p->agent_delay_max_ms, cause);
}

/* Names the items added since `from` with the rule's key (verdict_item.key). */
static void keyed(struct verdict *v, size_t from, const char *key)
{
    for (size_t i = from; i < v->item_count; i++)
        v->items[i].key = key;
}

static void validity(const struct summary *s, struct verdict *v)
{
    size_t k = v->item_count;
    const struct score_params *p = &s->config.params;
    const struct score_result *r = &s->score;
    char failed[160];
    failed_sessions(s, failed, sizeof failed);
    if (verdict_judges_focus(s))
        focus_validity(s, v, failed);
    else if (r->status != SCORE_OK)
        add(v, "enough samples for a baseline", (double)r->samples_ok, VERDICT_INCONCLUSIVE,
            "too few samples for a baseline: %zu ok '%s' samples, %zu needed%s%s%s", r->samples_ok,
            s->measure, r->samples_needed, s->note[0] ? "; " : "", s->note, failed);
    else
        add(v, "enough samples for a baseline", (double)r->samples_ok, VERDICT_PASS,
            "%zu ok '%s' samples (%zu needed)", r->samples_ok, s->measure, r->samples_needed);
    keyed(v, k, "baseline");
    k = v->item_count;
    char rule[THRESHOLD_TEXT_LEN];
    snprintf(rule, sizeof rule, "stuck_pct <= %g", p->stuck_max_pct);
    add(v, rule, s->stuck_pct, s->stuck_pct > p->stuck_max_pct ? VERDICT_INCONCLUSIVE : VERDICT_PASS,
        "stuck sessions %.2f %% (%u of %u launched never became active; limit %g %%)",
        s->stuck_pct, s->stuck, s->launched, p->stuck_max_pct);
    keyed(v, k, "stuck");
    k = v->item_count;
    auth_validity(s, v);
    keyed(v, k, "auth");
    k = v->item_count;
    int lost = s->agents_lost > 0 || s->agents_lost_sessions > 0;
    add(v, "no agent lost", (double)s->agents_lost, lost ? VERDICT_INCONCLUSIVE : VERDICT_PASS,
        "%zu of %zu agents lost, %u sessions lost with their agent", s->agents_lost, s->agents,
        s->agents_lost_sessions);
    keyed(v, k, "agent_lost");
    k = v->item_count;
    agent_gate(s, v);
    keyed(v, k, "agent_share");
    k = v->item_count;
    uint32_t unconfirmed = 0;
    for (size_t i = 0; i < s->reason_count; i++)
        if (!strcmp(s->reasons[i].reason, "logoff_incomplete"))
            unconfirmed = s->reasons[i].count;
    add(v, "logoffs confirmed", unconfirmed, unconfirmed ? VERDICT_INCONCLUSIVE : VERDICT_PASS,
        unconfirmed ? "%u sessions' logoff was not confirmed by the server (logoff_incomplete): their server "
        "sessions may still run and load the host" : "every logoff the workload ran was confirmed by the server (%u "
        "not)", unconfirmed);
    keyed(v, k, "logoff");
    k = v->item_count;
    if (!strcmp(s->run.status, "aborted") || !strcmp(s->run.status, "failed"))
        add(v, "run completed", NAN, VERDICT_INCONCLUSIVE, "the run is %s", s->run.status);
    keyed(v, k, "completed");
}

void verdict_validity(const struct summary *s, struct verdict *out)
{
    memset(out, 0, sizeof *out);
    out->focus = verdict_judges_focus(s);
    validity(s, out);
    out->validity_count = out->item_count;
    out->kind = VERDICT_PASS;
    for (size_t i = 0; i < out->item_count; i++)
        if (out->items[i].result == VERDICT_INCONCLUSIVE)
            out->kind = VERDICT_INCONCLUSIVE;
}

static int holds(enum threshold_op op, double a, double b)
{
    switch (op) {
    case THR_LT: return a < b;
    case THR_LE: return a <= b;
    case THR_GT: return a > b;
    case THR_GE: return a >= b;
    case THR_EQ: return a == b;
    case THR_NE: return a != b;
    }
    return 0;
}

/* smax not reached with at most N active sessions: the index might still cross at the next
 * sample with N active, which would make smax N - 1. So only smax >= N - 1 is known. */
static enum verdict_kind open_interval(enum threshold_op op, double lo, double x)
{
    switch (op) {
    case THR_GT: case THR_GE: return holds(op, lo, x) ? VERDICT_PASS : VERDICT_INCONCLUSIVE;
    case THR_LT: case THR_LE: return holds(op, lo, x) ? VERDICT_INCONCLUSIVE : VERDICT_FAIL;
    case THR_EQ: return x < lo ? VERDICT_FAIL : VERDICT_INCONCLUSIVE;
    case THR_NE: return x < lo ? VERDICT_PASS : VERDICT_INCONCLUSIVE;
    }
    return VERDICT_INCONCLUSIVE;
}

/* A threshold on a timer with no ok sample (none ran, or every one failed): it cannot hold. */
static void no_samples(const struct summary *s, const struct threshold *t, int missing, const char *why,
                       struct verdict *v)
{
    size_t count = 0, failed = 0;
    for (size_t i = 0; i < s->timer_count; i++)
        if (!strcmp(s->timers[i].name, t->timer)) {
            count = s->timers[i].count;
            failed = s->timers[i].failed;
        }
    if (missing)
        add(v, t->text, NAN, VERDICT_FAIL, "%s: no '%s' sample in this run, so it cannot hold (%s)", t->text,
            t->timer, why);
    else
        add(v, t->text, NAN, VERDICT_FAIL, "%s: no ok '%s' sample in this run (%zu of %zu failed or suspect), so "
            "it cannot hold", t->text, t->timer, failed, count);
}

static int threshold(const struct summary *s, const struct threshold *t, struct verdict *v,
                     char *err, size_t errlen)
{
    double a;
    char why[256];
    int rc = summary_metric(s, t->metric, t->timer, &a, why, sizeof why);
    if (rc < 0) {
        snprintf(err, errlen, "threshold \"%s\": %s", t->text, why);
        return -1;
    }
    const char *op = threshold_op_name(t->op);
    if (!strcmp(t->metric, "smax") && s->score.status == SCORE_OK && !s->score.reached) {
        double lo = s->score.max_active > 0 ? s->score.max_active - 1.0 : 0;
        enum verdict_kind r = open_interval(t->op, lo, t->value);
        add(v, t->text, NAN, r, "smax not reached at %u active, so smax >= %.0f: \"smax %s %g\" %s", s->score.max_active,
            lo, op,
            t->value, r == VERDICT_PASS ? "holds" : r == VERDICT_FAIL ? "cannot hold" :
            "cannot be decided (the ramp stopped too early)");
    } else if (isnan(a) && t->timer[0]) {
        no_samples(s, t, rc == 1, why, v);
    } else if (isnan(a)) {
        add(v, t->text, NAN, VERDICT_INCONCLUSIVE, "%s: no data in this run", t->text);
    } else {
        int ok = holds(t->op, a, t->value);
        add(v, t->text, a, ok ? VERDICT_PASS : VERDICT_FAIL, "%s%s%s = %.6g, %s %s %g",
            t->metric, t->timer[0] ? "/" : "", t->timer, a, ok ? "is" : "is not", op, t->value);
    }
    return 0;
}

int verdict_evaluate(const struct summary *s, struct verdict *out, char *err, size_t errlen)
{
    verdict_validity(s, out);
    size_t nvalid = out->validity_count;
    for (size_t i = 0; i < s->config.threshold_count; i++)
        if (threshold(s, &s->config.thresholds[i], out, err, errlen) < 0)
            return -1;
    int invalid = 0, failed = 0, undecided = 0;
    for (size_t i = 0; i < out->item_count; i++) {
        enum verdict_kind r = out->items[i].result;
        invalid |= i < nvalid && r == VERDICT_INCONCLUSIVE;
        failed |= r == VERDICT_FAIL;
        undecided |= r == VERDICT_INCONCLUSIVE;
    }
    out->kind = invalid ? VERDICT_INCONCLUSIVE : failed ? VERDICT_FAIL :
                undecided ? VERDICT_INCONCLUSIVE : VERDICT_PASS;
    return 0;
}

void verdict_reasons(const struct verdict *v, char *buf, size_t len)
{
    size_t l = 0;
    buf[0] = 0;
    for (size_t i = 0; i < v->item_count && l < len; i++)
        if (v->items[i].result != VERDICT_PASS || (i == 0 && v->focus))
            l += (size_t)snprintf(buf + l, len - l, "%s%s", l ? "\n" : "", v->items[i].reason);
}

static json_t *item_json(const struct verdict_item *it)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int bad = jsonv_set(o, "check", jsonv_string(it->text));
    bad |= jsonv_set(o, "result", jsonv_string(verdict_name(it->result)));
    bad |= jsonv_set(o, "actual", jsonv_number(it->actual));
    bad |= jsonv_set(o, "reason", jsonv_string(it->reason));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *verdict_json(const struct summary *s, const struct verdict *v)
{
    json_t *o = json_object(), *items = json_array();
    int bad = !o || !items;
    for (size_t i = 0; !bad && i < v->item_count; i++)
        bad |= json_array_append_new(items, item_json(&v->items[i]));
    if (!bad) {
        bad |= jsonv_set(o, "run", json_integer(s->run.id));
        bad |= jsonv_set(o, "name", jsonv_string(s->run.name));
        bad |= jsonv_set(o, "transport", jsonv_string(s->run.transport));
        bad |= jsonv_set(o, "platform", jsonv_string(s->run.platform));
        bad |= jsonv_set(o, "network", jsonv_string(s->run.network));
        bad |= jsonv_set(o, "client", jsonv_string(s->run.client));
        bad |= jsonv_set(o, "verdict", jsonv_string(verdict_name(v->kind)));
        bad |= jsonv_set(o, "exit_code", json_integer(verdict_code(v)));
        bad |= jsonv_set(o, "auth_failed", json_integer(v->auth_failed));
        bad |= jsonv_set(o, "score_version", jsonv_string(SCORE_VERSION));
        bad |= jsonv_set(o, "measure", jsonv_string(s->measure));
        bad |= jsonv_set(o, "smax", s->score.reached ? json_integer(s->score.smax) : json_null());
        bad |= jsonv_set(o, "smax_reached", json_boolean(s->score.reached));
        bad |= jsonv_set(o, "max_active", json_integer(s->score.max_active));
        double lo;
        summary_metric(s, "smax_at_least", NULL, &lo, NULL, 0);
        bad |= jsonv_set(o, "smax_at_least", isnan(lo) ? json_null() : json_integer((json_int_t)lo));
        bad |= jsonv_set(o, "baseline_ms", jsonv_number(s->score.baseline_ms));
        bad |= jsonv_set(o, "threshold_ms", jsonv_number(s->score.threshold_ms));
        bad |= jsonv_set(o, "launched", json_integer(s->launched));
        bad |= jsonv_set(o, "active", json_integer(s->active));
        bad |= jsonv_set(o, "stuck", json_integer(s->stuck));
        bad |= jsonv_set(o, "items", items);
        items = NULL;
    }
    json_decref(items);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

char *verdict_to_json(const struct summary *s, const struct verdict *v)
{
    return jsonv_take_text(verdict_json(s, v), JSONV_REPORT, 1);
}

int verdict_write_json(const struct summary *s, const struct verdict *v, const char *path,
                       char *err, size_t errlen)
{
    char *text = verdict_to_json(s, v);
    FILE *f = text ? outfile_open(path, err, errlen) : NULL;
    int rc = -1;
    if (!text)
        snprintf(err, errlen, "%s: out of memory", path);
    else if (f && fputs(text, f) < 0)
        snprintf(err, errlen, "%s: write failed: %m", path);
    else if (f)
        rc = 0;
    if (rc == 0)
        rc = outfile_commit(f, err, errlen);
    else
        outfile_discard(f);
    free(text);
    return rc;
}

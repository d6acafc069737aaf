/* score_text.c -- the terminal rendering of one run's summary and verdict (`sessmax score`).
 * Names and reasons from the results file are escaped (textesc.h): one line stays one line. */
#include "controller/score/score_text.h"
#include "controller/score/summary_copy.h"
#include "controller/score/summary_evidence.h"
#include "controller/score/summary_logon.h"
#include "controller/score/summary_net.h"
#include "controller/score/summary_target.h"
#include "controller/score/textesc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void ms(FILE *o, const char *label, double v)
{
    if (isfinite(v))
        fprintf(o, "  %s %.0f ms", label, v);
    else
        fprintf(o, "  %s -", label);
}

/* The logon's phases, p50 and p95 each, under the logon line; nothing when no session measured
 * them (an older agent or database, an external client). */
static void print_logon_phases(FILE *o, const struct summary *s)
{
    if (!s->logon_phased)
        return;
    fprintf(o, "           phases over %zu sessions (ms; each from the end of the one before):%8s %8s\n",
            s->logon_phased, "p50", "p95");
    for (int p = 0; p < LOGON__PHASES; p++) {
        const struct summary_logon_phase *ph = &s->logon_phases[p];
        fprintf(o, "             %-43s", summary_logon_phase_label((enum logon_phase)p));
        if (ph->count)
            fprintf(o, " %8.1f %8.1f", ph->p50_ms, ph->p95_ms);
        else
            fprintf(o, " %8s %8s", "-", "-");
        if (ph->count < s->logon_phased)
            fprintf(o, "  (%zu sessions)", ph->count);
        fputc('\n', o);
    }
    if (isfinite(s->launch_active_p50_ms))
        fprintf(o, "           launch to active p50 %.0f ms, p95 %.0f ms: the logon, then the agent confirming "
                "the logon condition (a `stable` condition's quiet time)\n", s->launch_active_p50_ms,
                s->launch_active_p95_ms);
}

static void print_timers(FILE *o, const struct summary *s)
{
    fprintf(o, "\n%-24s %7s %6s %8s %8s %8s %8s %8s\n", "timer (ms)", "samples", "failed", "p50", "p95",
            "p99", "avg", "max");
    for (size_t i = 0; i < s->timer_count; i++) {
        const struct summary_timer *t = &s->timers[i];
        char name[128];
        fprintf(o, "%-24.24s %7zu %6zu %8.0f %8.0f %8.0f %8.0f %8.0f", textesc(name, sizeof name, t->name, TEXTESC_LINE),
                t->count, t->failed,
                t->p50_ms, t->p95_ms, t->p99_ms, t->avg_ms, t->max_ms);
        if (t->is_measure)
            fprintf(o, "  (measure)");
        else if (t->copy_bytes && isfinite(t->mbps_p50))
            fprintf(o, "  (copy %s, %.1f MB/s at p50)", t->copy_to_client ? "out" : "in", t->mbps_p50);
        fputc('\n', o);
    }
    summary_copy_print(o, s);
}

/* The timer a single-user diagnosis is about (the plan's focus:), in seconds. */
static void print_focus(FILE *o, const struct summary *s)
{
    const struct summary_timer *t = NULL;
    for (size_t i = 0; s->config.focus[0] && i < s->timer_count; i++)
        if (!strcmp(s->timers[i].name, s->config.focus))
            t = &s->timers[i];
    if (!s->config.focus[0])
        return;
    char name[256];
    textesc(name, sizeof name, s->config.focus, TEXTESC_LINE);
    if (!t || t->count == t->failed) {
        fprintf(o, "focus      %s: no ok sample (%zu failed or suspect)\n", name, t ? t->failed : 0);
        return;
    }
    fprintf(o, "focus      %s: %zu samples (%zu failed or suspect), median %.3f s, p95 %.3f s, min %.3f s, "
            "max %.3f s\n", name, t->count, t->failed, t->p50_ms / 1e3, t->p95_ms / 1e3, t->min_ms / 1e3,
            t->max_ms / 1e3);
}

/* External clients' costs per session and the capacity they allow: sessions per core from the
 * CPU, per GiB from the PSS (client + X server); an agent's capacity is the smaller of
 * cores x the first and GiB x the second. */
static void print_ext_costs(FILE *o, const struct summary *s)
{
    if (s->agent_sessions_max)
        fprintf(o, "agent      per session: %.1f MiB RSS at %u sessions, CPU %.2f %% of a core "
                "(the agent process's RSS and CPU over the sessions it held)\n", s->agent_rss_mib, s->agent_sessions_max,
                s->agent_cpu_pct);
    if (!s->ext_sessions_max)
        return;
    double pss = s->ext_client_pss_mib + s->ext_xserver_pss_mib;
    fprintf(o, "clients    per session: client %.1f MiB PSS (%.1f RSS), X server %.1f MiB PSS (%.1f RSS), "
            "CPU %.1f %% of a core; up to %u measured at once\n", s->ext_client_pss_mib,
            s->ext_client_rss_mib, s->ext_xserver_pss_mib, s->ext_xserver_rss_mib, s->ext_cpu_pct,
            s->ext_sessions_max);
    if (s->ext_cpu_pct > 0 && pss > 0)
        fprintf(o, "           capacity   %.0f sessions per core (CPU), %.0f per GiB (PSS): an agent carries "
                "min(cores x %.0f, GiB x %.0f)\n", 100.0 / s->ext_cpu_pct, 1024.0 / pss,
                100.0 / s->ext_cpu_pct, 1024.0 / pss);
}

void score_text_print(FILE *o, const struct summary *s, const struct verdict *v, const char *db_path)
{
    const struct score_result *r = &s->score;
    char smax[96];
    verdict_format_smax(s, smax, sizeof smax);
    char e[6][256], line[2048];
    fprintf(o, "run %lld  %s  transport=%s platform=%s network=%s client=%s  (%s)\n", (long long)s->run.id,
            textesc(line, sizeof line, s->run.name, TEXTESC_LINE), textesc(e[0], sizeof e[0], s->run.transport,
            TEXTESC_LINE), textesc(e[1], sizeof e[1], s->run.platform, TEXTESC_LINE), textesc(e[2], sizeof e[2],
            s->run.network, TEXTESC_LINE), textesc(e[3], sizeof e[3], s->run.client, TEXTESC_LINE),
            textesc(e[4], sizeof e[4], s->run.status, TEXTESC_LINE));
    fprintf(o, "score %s, measure '%s': %zu samples, %zu failed\n", SCORE_VERSION,
            textesc(e[5], sizeof e[5], s->measure, TEXTESC_LINE), r->samples, r->samples_failed);
    if (s->samples_suspect)
        fprintf(o, "suspect: %zu samples held below their timer's plausibility floor (the echo of the "
                "input, or min:): counted as not ok; fix the workload (docs/workload-language.md)\n",
                s->samples_suspect);
    if (s->note[0])
        fprintf(o, "note: %s\n", textesc(line, sizeof line, s->note, TEXTESC_LINE));
    if (r->status == SCORE_OK) {
        const struct score_params *sp = &s->config.params;
        fprintf(o, "baseline   %10.1f ms  (mean of the %u lowest samples after dropping the %u lowest: %u values)\n",
                r->baseline_ms, sp->baseline_count, sp->baseline_drop, sp->baseline_count - sp->baseline_drop);
        fprintf(o, "threshold  %10.1f ms  (baseline + %g ms)\n", r->threshold_ms,
                s->config.params.threshold_offset_ms);
    }
    fprintf(o, "smax       %s", smax);
    if (r->reached)
        fprintf(o, "  (index %.1f ms > threshold at %u active sessions)", r->cross_index_ms, r->cross_active);
    else if (r->status == SCORE_OK)
        fprintf(o, "  (highest index %.1f ms)", r->max_index_ms);
    fprintf(o, "\nsessions   launched %u, active %u, stuck %u (%.2f %%), failed %u", s->launched, s->active,
            s->stuck, s->stuck_pct, s->failed_sessions);
    if (s->cut_short)
        fprintf(o, ", cut short by the end of the run %u", s->cut_short);
    fputc('\n', o);
    for (size_t i = 0; i < s->reason_count; i++)
        fprintf(o, "%s%s %u%s", i ? ", " : "           failed by reason: ",
                textesc(line, sizeof line, s->reasons[i].reason, TEXTESC_LINE), s->reasons[i].count,
                i + 1 == s->reason_count ? "\n" : "");
    fprintf(o, "logon     ");
    ms(o, "p50", s->logon_p50_ms);
    ms(o, "p95", s->logon_p95_ms);
    ms(o, "p99", s->logon_p99_ms);
    fprintf(o, "\n           first try %u, after repaint requests %u, after logon retries %u (%u repaint requests)",
            s->logon_first_try, s->logon_repainted, s->logon_retried, s->repaint_requests);
    fputc('\n', o);
    print_logon_phases(o, s);
    fprintf(o, "bandwidth  ");
    if (isfinite(s->kbps_per_session))
        fprintf(o, "%.1f kbit/s per session\n", s->kbps_per_session);
    else
        fprintf(o, "- (no traffic records)\n");
    char net[512];
    summary_net_line(s, net, sizeof net);
    fprintf(o, "network    %s\n", textesc(line, sizeof line, net, TEXTESC_LINE));
    summary_target_line(s, net, sizeof net);
    fprintf(o, "target     %s\n", textesc(line, sizeof line, net, TEXTESC_LINE));
    for (size_t i = 0; i < s->res.nsrc; i++) {   /* target.metrics: what ran out at the knee */
        resources_line(&s->res, i, net, sizeof net);
        fprintf(o, "resources  %s\n", textesc(line, sizeof line, net, TEXTESC_LINE));
    }
    fprintf(o, "agents     %zu (%zu lost), loop lag p99 ", s->agents, s->agents_lost);
    if (isfinite(s->lag_p99_ms))
        fprintf(o, "%.1f ms, max %.1f ms, cpu max %.0f %%\n", s->lag_p99_ms, s->lag_max_ms, s->cpu_max_pct);
    else
        fprintf(o, "- (no health records)\n");
    print_ext_costs(o, s);
    print_focus(o, s);
    print_timers(o, s);
    char shots[1024] = "";
    if (db_path)
        snprintf(shots, sizeof shots, "%s.shots/run-%lld/", textesc(line, sizeof line, db_path, TEXTESC_LINE),
                 (long long)s->run.id);
    summary_evidence_print(o, s, shots);
    fprintf(o, "\nverdict    %s", verdict_name(v->kind));
    if (v->auth_failed)   /* the code says the credentials were refused, not how the host did */
        fprintf(o, " (exit %d: authentication failed)", verdict_code(v));
    fputc('\n', o);
    for (size_t i = 0; i < v->item_count; i++)
        if (v->items[i].result != VERDICT_PASS || i >= v->validity_count || (i == 0 && v->focus))
            fprintf(o, "  [%s] %s\n", verdict_name(v->items[i].result),
                    textesc(line, sizeof line, v->items[i].reason, TEXTESC_LINE));
}

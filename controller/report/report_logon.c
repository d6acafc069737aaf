/* report_logon.c -- the logon phases table of the run report (see report_logon.h). */
#include "controller/report/report_logon.h"

#include <math.h>

#include "controller/report/svg.h"
#include "controller/score/summary.h"
#include "controller/score/summary_logon.h"

static void row(FILE *o, const char *what, size_t count, double p50, double p95)
{
    fprintf(o, "<tr><td>");
    svg_escape(o, what);
    fprintf(o, "</td><td>%zu</td>", count);
    fprintf(o, isfinite(p50) ? "<td>%.1f</td>" : "<td>&ndash;</td>", p50);
    fprintf(o, isfinite(p95) ? "<td>%.1f</td>" : "<td>&ndash;</td>", p95);
    fprintf(o, "</tr>\n");
}

void report_logon_phases(FILE *o, const struct summary *s)
{
    if (!s->logon_phased) {
        fprintf(o, "<p class=\"note\">Logon phases: not measured in this run (stored before they were, "
                   "or external clients).</p>\n");
        return;
    }
    fprintf(o, "<p>Each phase runs from the end of the one before; together they make the logon "
               "(docs/scoring.md says where each boundary is measured).</p>\n"
               "<table class=\"timers\" id=\"logon-phases\"><tr><th>phase</th><th>sessions</th>"
               "<th>p50 ms</th><th>p95 ms</th></tr>\n");
    for (int p = 0; p < LOGON__PHASES; p++) {
        const struct summary_logon_phase *ph = &s->logon_phases[p];
        row(o, summary_logon_phase_label((enum logon_phase)p), ph->count, ph->p50_ms, ph->p95_ms);
    }
    row(o, "logon (launch to desktop ready)", s->logon_count, s->logon_p50_ms, s->logon_p95_ms);
    row(o, "launch to active (the logon, then its condition confirmed)", s->logon_count,
        s->launch_active_p50_ms, s->launch_active_p95_ms);
    fprintf(o, "</table>\n");
}

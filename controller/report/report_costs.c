/* report_costs.c -- per-session costs in the run report (figures from score/summary_cost.h). */
#include "controller/report/report_costs.h"

#include <math.h>

#include "controller/report/svg.h"
#include "controller/score/summary.h"

static void cell(FILE *o, double v)
{
    if (isfinite(v))
        fprintf(o, "<td>%.1f</td>", v);
    else
        fputs("<td>&ndash;</td>", o);
}

/* One row: what (escaped, then `suffix` as markup), RSS, PSS, CPU. */
static void row(FILE *o, const char *cls, const char *what, const char *suffix, double rss,
                double pss, double cpu)
{
    fprintf(o, "<tr class=\"%s\"><td>", cls);
    svg_escape(o, what);
    fputs(suffix, o);
    fputs("</td>", o);
    cell(o, rss);
    cell(o, pss);
    cell(o, cpu);
    fputs("</tr>\n", o);
}

void report_costs(FILE *o, const struct summary *s)
{
    int ext = s->ext_sessions_max > 0;
    fprintf(o, "<h2>Session costs</h2>\n<p>Client <b>");
    svg_escape(o, s->run.client);
    fprintf(o, "</b>, transport <b>");
    svg_escape(o, s->run.transport);
    fprintf(o, "</b>: per session on the agent host.</p>\n<table class=\"timers\" id=\"costs\"><tr>"
               "<th>per session</th><th>RSS MiB</th><th>PSS MiB</th><th>CPU %% of a core</th></tr>\n");
    if (ext) {
        row(o, "ext-client", s->run.client, " client", s->ext_client_rss_mib, s->ext_client_pss_mib, NAN);
        row(o, "ext-xserver", "its X server", "", s->ext_xserver_rss_mib, s->ext_xserver_pss_mib, NAN);
        row(o, "ext-both", "client + X server", "", s->ext_client_rss_mib + s->ext_xserver_rss_mib,
            s->ext_client_pss_mib + s->ext_xserver_pss_mib, s->ext_cpu_pct);
    }
    row(o, "agent", ext ? "agent process" : "agent (built-in engine)", "", s->agent_rss_mib, NAN,
        s->agent_cpu_pct);
    fprintf(o, "</table>\n<p>");
    if (ext)
        fprintf(o, "External clients: averages over the agents' health records (every 2 s), up to %u "
                   "sessions measured at once; PSS counts shared pages once and is the figure that adds "
                   "up. ", s->ext_sessions_max);
    if (s->agent_sessions_max)
        fprintf(o, "Agent: RSS divided by its sessions at the most it held (%u; its fixed part "
                   "included), CPU divided by its sessions, averaged. ", s->agent_sessions_max);
    else
        fprintf(o, "No health record with a session: no figures. ");
    fprintf(o, "See docs/clients.md.</p>\n");
}

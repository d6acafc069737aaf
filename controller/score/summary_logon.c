/* summary_logon.c -- logon phases: percentiles over the sessions (see summary_logon.h). */
#include "controller/score/summary_logon.h"

#include <math.h>
#include <stdlib.h>

#include "controller/score/summary_percentile.h"

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int summary_logon_phases(const struct summary_input *in, struct summary *out)
{
    size_t n = in->session_count;
    double *v = malloc((n ? n : 1) * sizeof *v);
    out->logon_phased = 0;
    for (int p = 0; p < LOGON__PHASES; p++)
        out->logon_phases[p] = (struct summary_logon_phase){ 0, NAN, NAN };
    if (!v)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const struct store_session_row *s = &in->sessions[i];
        int any = 0;
        for (int p = 0; p < LOGON__PHASES && s->logon_us >= 0; p++)
            any |= s->logon_phase_us[p] >= 0;
        out->logon_phased += (size_t)any;
    }
    for (int p = 0; p < LOGON__PHASES; p++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (in->sessions[i].logon_us >= 0 && in->sessions[i].logon_phase_us[p] >= 0)
                v[k++] = in->sessions[i].logon_phase_us[p] / 1000.0;
        qsort(v, k, sizeof *v, dcmp);
        out->logon_phases[p] = (struct summary_logon_phase){ k, summary_percentile(v, k, 50),
                                                             summary_percentile(v, k, 95) };
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const struct store_session_row *s = &in->sessions[i];
        if (s->logon_us >= 0 && s->launch_us && s->active_us >= s->launch_us)
            v[k++] = (double)(s->active_us - s->launch_us) / 1000.0;
    }
    qsort(v, k, sizeof *v, dcmp);
    out->launch_active_p50_ms = summary_percentile(v, k, 50);
    out->launch_active_p95_ms = summary_percentile(v, k, 95);
    free(v);
    return 0;
}

const char *summary_logon_phase_label(enum logon_phase p)
{
    switch (p) {
    case LOGON_WAIT: return "wait (connect thread, setup, name lookup)";
    case LOGON_TCP: return "TCP connect";
    case LOGON_SECURITY: return "security (X.224, TLS, NLA)";
    case LOGON_RDP: return "RDP connection sequence";
    case LOGON_PAINT: return "first paint";
    case LOGON_DESKTOP: return "desktop ready";
    case LOGON__PHASES: break;
    }
    return "?";
}

/* resources.c -- the target's resources at the knee and the one that ran out (resources.h). */
#include "controller/score/resources.h"

#include "db/store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double limits[RESOURCE__COUNT] = { RESOURCES_LIMIT_CPU, RESOURCES_LIMIT_MEMORY, RESOURCES_LIMIT_DISK,
                                                RESOURCES_LIMIT_NETWORK };

const char *resources_name(enum resource r)
{
    static const char *const names[RESOURCE__COUNT] = { "CPU", "memory", "disk", "network" };
    return r >= 0 && r < RESOURCE__COUNT ? names[r] : "?";
}

double resources_pct(const struct store_target_metrics *m, enum resource r)
{
    double v = NAN, total;
    switch (r) {
    case RESOURCE_CPU: v = m->cpu_pct; break;
    case RESOURCE_MEMORY:
        total = m->mem_used_bytes + m->mem_avail_bytes;
        v = total > 0 ? m->mem_used_bytes / total * 100 : NAN;
        break;
    case RESOURCE_DISK: v = m->disk_busy_pct; break;
    case RESOURCE_NETWORK: v = m->net_pct; break;
    default: break;
    }
    return isfinite(v) ? (v < 0 ? 0 : v > 100 ? 100 : v) : NAN;
}

static struct resources_source *source_of(struct resources *out, const char *name)
{
    for (size_t i = 0; i < out->nsrc; i++)
        if (!strcmp(out->src[i].source, name))
            return &out->src[i];
    if (out->nsrc == RESOURCES_SOURCES_MAX)
        return NULL;
    struct resources_source *s = &out->src[out->nsrc++];
    memset(s, 0, sizeof *s);
    snprintf(s->source, sizeof s->source, "%s", name);
    for (int k = 0; k < RESOURCE__COUNT; k++)
        s->at[k] = s->max[k] = NAN;
    s->sessions_at = NAN;
    s->bound = -1;
    return s;
}

/* Is row m one of the knee's? At the crossing: within the window before it. At the most sessions:
 * a row at the rows' highest active count. */
static int at_point(const struct resources *out, const struct store_target_metrics *m, uint32_t top)
{
    if (out->at_knee)
        return m->t_us <= out->t_us && m->t_us + RESOURCES_WINDOW_US >= out->t_us;
    return m->active == top;
}

/* The figures of source s at the knee: the mean of its rows there (or, when none falls in the
 * window, its row nearest in time to the crossing). */
static void knee_figures(const struct resources *out, struct resources_source *s, uint32_t top)
{
    double sum[RESOURCE__COUNT + 1] = { 0 };
    size_t cnt[RESOURCE__COUNT + 1] = { 0 }, nearest = SIZE_MAX;
    uint64_t best = UINT64_MAX;
    for (size_t i = 0; i < out->count; i++) {
        const struct store_target_metrics *m = &out->rows[i];
        if (strcmp(m->source, s->source) != 0)
            continue;
        uint64_t d = m->t_us > out->t_us ? m->t_us - out->t_us : out->t_us - m->t_us;
        if (d < best) {
            best = d;
            nearest = i;
        }
        if (!at_point(out, m, top))
            continue;
        for (int k = 0; k <= RESOURCE__COUNT; k++) {
            double v = k < RESOURCE__COUNT ? resources_pct(m, (enum resource)k) : m->sessions;
            if (isfinite(v)) {
                sum[k] += v;
                cnt[k]++;
            }
        }
    }
    int any = 0;
    for (int k = 0; k <= RESOURCE__COUNT; k++)
        any |= cnt[k] > 0;
    for (int k = 0; k <= RESOURCE__COUNT; k++) {
        double v = cnt[k] ? sum[k] / (double)cnt[k] : NAN;
        if (!any && nearest != SIZE_MAX && out->at_knee)
            v = k < RESOURCE__COUNT ? resources_pct(&out->rows[nearest], (enum resource)k) : out->rows[nearest].sessions;
        if (k < RESOURCE__COUNT)
            s->at[k] = v;
        else
            s->sessions_at = v;
    }
    double nearest_share = 0;
    for (int k = 0; k < RESOURCE__COUNT; k++)
        if (isfinite(s->at[k]) && s->at[k] >= limits[k] && s->at[k] / limits[k] > nearest_share) {
            nearest_share = s->at[k] / limits[k];
            s->bound = k;
        }
}

void resources_compute(struct store_target_metrics *rows, size_t n, const struct score_result *sc,
                       struct resources *out)
{
    memset(out, 0, sizeof *out);
    out->rows = rows;
    out->count = n;
    uint32_t top = 0;
    for (size_t i = 0; i < n; i++)
        top = rows[i].active > top ? rows[i].active : top;
    out->at_knee = sc && sc->status == SCORE_OK && sc->reached;
    out->t_us = out->at_knee ? sc->cross_t_us : 0;
    out->active = out->at_knee ? sc->cross_active : top;
    for (size_t i = 0; i < n; i++) {
        struct resources_source *s = source_of(out, rows[i].source);
        if (!s)
            continue;
        s->rows++;
        for (int k = 0; k < RESOURCE__COUNT; k++) {
            double v = resources_pct(&rows[i], (enum resource)k);
            if (isfinite(v) && !(v <= s->max[k]))
                s->max[k] = v;
        }
    }
    for (size_t i = 0; i < out->nsrc; i++)
        knee_figures(out, &out->src[i], top);
}

int resources_load(struct store *st, int64_t run, const struct score_result *sc, struct resources *out, char *err,
                   size_t errlen)
{
    struct store_target_metrics *rows = NULL;
    size_t n = 0;
    if (store_load_target_metrics(st, run, &rows, &n) < 0) {
        snprintf(err, errlen, "%s", store_errmsg(st));
        memset(out, 0, sizeof *out);
        return -1;
    }
    resources_compute(rows, n, sc, out);
    return 0;
}

void resources_free(struct resources *r)
{
    free(r->rows);
    memset(r, 0, sizeof *r);
}

void resources_line(const struct resources *r, size_t i, char *buf, size_t len)
{
    if (i >= r->nsrc) {
        snprintf(buf, len, "- (not measured: the plan has no target.metrics, or no exporter answered)");
        return;
    }
    const struct resources_source *s = &r->src[i];
    size_t off = 0;
    int first = 1;
#define PUT(...) (off += (size_t)snprintf(buf + off, off < len ? len - off : 0, __VA_ARGS__), off = off < len ? off : len)
    if (r->nsrc > 1)
        PUT("%s: ", s->source);
    if (r->at_knee)
        PUT("at the knee (%u active): ", r->active);
    else
        PUT("at the most sessions (%u active; the index never crossed): ", r->active);
    for (int k = 0; k < RESOURCE__COUNT; k++) {
        if (!isfinite(s->at[k]))
            continue;
        PUT("%s%s %.0f %%%s", first ? "" : ", ", resources_name((enum resource)k), s->at[k],
            k == RESOURCE_DISK ? " busy" : "");
        first = 0;
    }
    if (isfinite(s->sessions_at))
        PUT("%s%.0f sessions on the host", first ? "" : ", ", s->sessions_at);
    if (first && !isfinite(s->sessions_at))
        PUT("no figures there");
    if (s->bound >= 0)
        PUT(": %s-bound", resources_name((enum resource)s->bound));
    else
        PUT(": no resource ran out");
#undef PUT
}

const char *resources_bound_label(const struct resources *r)
{
    for (size_t i = 0; i < r->nsrc; i++)
        if (r->src[i].bound >= 0)
            return resources_name((enum resource)r->src[i].bound);
    return r->nsrc ? "none" : "-";
}

void resources_bound_add(char *buf, size_t len, const struct resources *r)
{
    const char *label = resources_bound_label(r);
    size_t n = strlen(label), have = strlen(buf);
    if (!strcmp(label, "-"))
        return;
    for (const char *p = buf; (p = strstr(p, label)); p += n)
        if ((p == buf || p[-1] == '/') && (p[n] == 0 || p[n] == '/'))
            return;
    if (have + n + 2 <= len)
        snprintf(buf + have, len - have, "%s%s", have ? "/" : "", label);
}

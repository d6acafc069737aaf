/* jsonl_sink.c -- JSON lines on a FILE and the standalone run's summary. */
#include "agent/front/jsonl_sink.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct timer_stats {
    char name[RESULTS_NAME_LEN];
    int64_t *ok_us;
    size_t n, cap;
    unsigned failed, suspect;
    int is_measure;
};

struct jsonl_sink {
    FILE *out;
    struct result_sink sink;
    struct timer_stats *timers;
    size_t ntimers, cap;
    unsigned launched, active, ended, failed;
    unsigned repainted, retried;        /* logons that needed a repaint request / a retry */
    unsigned failed_by[FAIL__COUNT];
    int64_t *logon_us;
    size_t nlogon, caplogon;
    uint32_t max_active;
    struct rec_health ext_peak;         /* the health record that measured most external clients */
    uint32_t ext_capacity;              /* the last capacity their costs allowed */
};

/* A JSON string of s; bytes that are not UTF-8 (a peer's text may hold any) become '?'. */
static json_t *jstr(const char *s)
{
    json_t *v = json_string(s ? s : "");
    if (v)
        return v;
    char buf[RESULTS_DETAIL_LEN + RESULTS_NAME_LEN];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 1 < sizeof buf; p++)
        buf[n++] = *p < 0x80 ? (char)*p : '?';
    buf[n] = 0;
    return json_string(buf);
}

/* Writes one record as a line and frees it. */
static void put_line(struct jsonl_sink *j, json_t *rec)
{
    if (!rec)
        return;
    if (json_dumpf(rec, j->out, JSON_COMPACT | JSON_PRESERVE_ORDER) == 0)
        fputc('\n', j->out);
    json_decref(rec);
}

static int push(int64_t **v, size_t *n, size_t *cap, int64_t x)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 64;
        int64_t *nv = realloc(*v, c * sizeof *nv);
        if (!nv)
            return -1;
        *v = nv;
        *cap = c;
    }
    (*v)[(*n)++] = x;
    return 0;
}

static struct timer_stats *timer_of(struct jsonl_sink *j, const char *name, int is_measure)
{
    for (size_t i = 0; i < j->ntimers; i++)
        if (strcmp(j->timers[i].name, name) == 0)
            return &j->timers[i];
    if (j->ntimers == j->cap) {
        size_t c = j->cap ? j->cap * 2 : 16;
        struct timer_stats *n = realloc(j->timers, c * sizeof *n);
        if (!n)
            return NULL;
        j->timers = n;
        j->cap = c;
    }
    struct timer_stats *t = &j->timers[j->ntimers++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->is_measure = is_measure;
    return t;
}

static void on_sample(void *ctx, const struct rec_sample *s)
{
    struct jsonl_sink *j = ctx;
    json_t *rec = json_pack("{s:s, s:I, s:I, s:I, s:o, s:I, s:b, s:b, s:b}", "type", "sample",
                            "t_us", (json_int_t)s->t_us, "session", (json_int_t)s->session,
                            "loop", (json_int_t)s->loop, "name", jstr(s->name),
                            "value_us", (json_int_t)s->value_us, "ok", s->ok == SAMPLE_OK,
                            "suspect", s->ok == SAMPLE_SUSPECT, "measure", s->is_measure);
    if (rec && s->has_agent)
        json_object_set_new(rec, "agent_us", json_integer((json_int_t)s->agent_us));
    put_line(j, rec);
    struct timer_stats *t = timer_of(j, s->name, s->is_measure);
    if (!t)
        return;
    if (s->ok == SAMPLE_OK)
        push(&t->ok_us, &t->n, &t->cap, s->value_us);
    else if (s->ok == SAMPLE_SUSPECT)
        t->suspect++;
    else
        t->failed++;
}

static void count_session(struct jsonl_sink *j, const struct rec_session *e)
{
    switch (e->kind) {
    case SESSION_LAUNCHED: j->launched++; break;
    case SESSION_ACTIVE: {
        unsigned repaints = 0, retries = 0;
        sscanf(e->detail, "repaint requests: %u, logon retries: %u", &repaints, &retries);
        j->repainted += repaints > 0;
        j->retried += retries > 0;
        j->active++;
        push(&j->logon_us, &j->nlogon, &j->caplogon, e->value_us);
        break;
    }
    case SESSION_ENDED: j->ended++; break;
    case SESSION_FAILED:
        j->failed++;
        if (e->reason < FAIL__COUNT)
            j->failed_by[e->reason]++;
        break;
    default: break;
    }
}

static void on_session(void *ctx, const struct rec_session *e)
{
    struct jsonl_sink *j = ctx;
    json_t *rec = json_pack("{s:s, s:I, s:I, s:s, s:o, s:I}", "type", "session",
                            "t_us", (json_int_t)e->t_us, "session", (json_int_t)e->session,
                            "event", session_event_name(e->kind), "user", jstr(e->user),
                            "value_us", (json_int_t)e->value_us);
    if (rec && e->kind == SESSION_FAILED)
        json_object_set_new(rec, "reason", json_string(failure_reason_name(e->reason)));
    if (rec && e->detail[0])
        json_object_set_new(rec, "detail", jstr(e->detail));
    put_line(j, rec);
    count_session(j, e);
}

static void on_traffic(void *ctx, const struct rec_traffic *t)
{
    struct jsonl_sink *j = ctx;
    put_line(j, json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "type", "traffic",
                          "t_us", (json_int_t)t->t_us, "session", (json_int_t)t->session,
                          "bytes_in", (json_int_t)t->bytes_in, "bytes_out", (json_int_t)t->bytes_out,
                          "wire_in", (json_int_t)t->wire_in, "wire_out", (json_int_t)t->wire_out,
                          "rtt_us", (json_int_t)t->rtt_us, "frames", (json_int_t)t->frames,
                          "data_segs_out", (json_int_t)t->data_segs_out, "retrans", (json_int_t)t->retrans,
                          "data_segs_in", (json_int_t)t->data_segs_in, "min_rtt_us", (json_int_t)t->min_rtt_us));
}

/* {"type":"logon","t_us":..,"session":..,"wait_us":..,"tcp_us":.., ...}: the phases by name */
static void on_logon(void *ctx, const struct rec_logon *l)
{
    struct jsonl_sink *j = ctx;
    json_t *rec = json_pack("{s:s, s:I, s:I}", "type", "logon", "t_us", (json_int_t)l->t_us,
                            "session", (json_int_t)l->session);
    for (int i = 0; rec && i < LOGON__PHASES; i++) {
        char key[32];
        snprintf(key, sizeof key, "%s_us", logon_phase_name((enum logon_phase)i));
        json_object_set_new(rec, key, json_integer((json_int_t)l->phase_us[i]));
    }
    put_line(j, rec);
}

static void on_health(void *ctx, const struct rec_health *h)
{
    struct jsonl_sink *j = ctx;
    json_t *rec = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "type", "health",
                          "t_us", (json_int_t)h->t_us, "sessions_active", (json_int_t)h->sessions_active,
                          "sessions_connecting", (json_int_t)h->sessions_connecting,
                          "lag_p50_us", (json_int_t)h->lag_p50_us, "lag_p99_us", (json_int_t)h->lag_p99_us,
                          "lag_max_us", (json_int_t)h->lag_max_us,
                          "cpu_permille", (json_int_t)h->cpu_permille, "rss_kb", (json_int_t)h->rss_kb);
    if (rec && h->ext.sessions)
        json_object_update_new(rec, json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
                               "ext_sessions", (json_int_t)h->ext.sessions,
                               "ext_capacity", (json_int_t)h->ext_capacity,
                               "ext_cpu_permille", (json_int_t)h->ext.cpu_permille,
                               "ext_client_rss_kb", (json_int_t)h->ext.client_rss_kb,
                               "ext_client_pss_kb", (json_int_t)h->ext.client_pss_kb,
                               "ext_xserver_rss_kb", (json_int_t)h->ext.xserver_rss_kb,
                               "ext_xserver_pss_kb", (json_int_t)h->ext.xserver_pss_kb));
    if (rec && h->has_sched)
        json_object_update_new(rec, json_pack("{s:I, s:I, s:I, s:I, s:I}",
                               "loop_cpu_permille", (json_int_t)h->loop_cpu_permille,
                               "loop_delay_permille", (json_int_t)h->loop_delay_permille,
                               "delay_permille", (json_int_t)h->delay_permille,
                               "loop_wakeups", (json_int_t)h->loop_wakeups,
                               "throttled_permille", (json_int_t)h->throttled_permille));
    put_line(j, rec);
    if (h->ext.sessions && h->ext.sessions >= j->ext_peak.ext.sessions)
        j->ext_peak = *h;
    if (h->ext_capacity)
        j->ext_capacity = h->ext_capacity;
    if (h->sessions_active > j->max_active)
        j->max_active = h->sessions_active;
    fflush(j->out);
}

struct jsonl_sink *jsonl_sink_new(FILE *out)
{
    struct jsonl_sink *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->out = out;
    j->sink = (struct result_sink){ .ctx = j, .sample = on_sample, .session = on_session,
                                    .traffic = on_traffic, .health = on_health, .logon = on_logon };
    return j;
}

const struct result_sink *jsonl_sink_result_sink(struct jsonl_sink *j)
{
    return &j->sink;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int64_t pct(int64_t *v, size_t n, unsigned p)
{
    if (!n)
        return 0;
    size_t r = (n * p + 99) / 100;
    return v[r ? r - 1 : 0];
}

unsigned jsonl_sink_summary(struct jsonl_sink *j, FILE *f, uint32_t lag_p50_us,
                            uint32_t lag_p99_us, uint32_t lag_max_us)
{
    unsigned bad = j->failed;
    fflush(j->out);
    fprintf(f, "sessions: %u launched, %u logged on, %u ended cleanly, %u failed", j->launched,
            j->active, j->ended, j->failed);
    for (int r = 1; r < FAIL__COUNT; r++)
        if (j->failed_by[r])
            fprintf(f, " [%s %u]", failure_reason_name((enum failure_reason)r), j->failed_by[r]);
    fputc('\n', f);
    if (j->nlogon) {
        qsort(j->logon_us, j->nlogon, sizeof *j->logon_us, cmp_i64);
        fprintf(f, "logon: n=%zu p50=%.1f ms p95=%.1f ms; %u needed a repaint request, %u a logon retry\n",
                j->nlogon, pct(j->logon_us, j->nlogon, 50) / 1000.0, pct(j->logon_us, j->nlogon, 95) / 1000.0,
                j->repainted, j->retried);
    }
    fprintf(f, "%-24s %8s %6s %7s %10s %10s\n", "timer", "ok", "failed", "suspect", "p50 ms", "p95 ms");
    for (size_t i = 0; i < j->ntimers; i++) {
        struct timer_stats *t = &j->timers[i];
        qsort(t->ok_us, t->n, sizeof *t->ok_us, cmp_i64);
        fprintf(f, "%-24s %8zu %6u %7u %10.1f %10.1f%s\n", t->name, t->n, t->failed, t->suspect,
                pct(t->ok_us, t->n, 50) / 1000.0, pct(t->ok_us, t->n, 95) / 1000.0,
                t->is_measure ? "  (measure)" : "");
        bad += t->failed + t->suspect;
    }
    const struct rec_health *x = &j->ext_peak;
    if (x->ext.sessions)
        fprintf(f, "external clients (%u measured): per session client RSS %.1f MiB PSS %.1f MiB, "
                "X server RSS %.1f MiB PSS %.1f MiB, CPU %.1f %% of a core; agent RSS %.1f MiB\n",
                x->ext.sessions, x->ext.client_rss_kb / 1024.0 / x->ext.sessions,
                x->ext.client_pss_kb / 1024.0 / x->ext.sessions,
                x->ext.xserver_rss_kb / 1024.0 / x->ext.sessions,
                x->ext.xserver_pss_kb / 1024.0 / x->ext.sessions,
                x->ext.cpu_permille / 10.0 / x->ext.sessions, x->rss_kb / 1024.0);
    if (j->ext_capacity)
        fprintf(f, "capacity at these costs: %u sessions on this agent\n", j->ext_capacity);
    fprintf(f, "agent loop lag: p50=%.2f ms p99=%.2f ms max=%.2f ms; peak active sessions %u\n",
            lag_p50_us / 1000.0, lag_p99_us / 1000.0, lag_max_us / 1000.0, j->max_active);
    return bad;
}

void jsonl_sink_free(struct jsonl_sink *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->ntimers; i++)
        free(j->timers[i].ok_us);
    free(j->timers);
    free(j->logon_us);
    free(j);
}

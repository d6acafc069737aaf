/* engine.c -- the session engine (stub: API only; sessions fail with FAIL_INTERNAL until the
 * implementation lands). */
#include "agent/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/log.h"

struct engine {
    struct result_sink sink;
    struct engine_counts counts;
};

void engine_config_defaults(struct engine_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->port = 3389;
    cfg->width = 1024;
    cfg->height = 768;
    cfg->bpp = 16;
    cfg->connect_threads = 4;
    cfg->connect_timeout_ms = 30000;
    cfg->max_attempts = 2;
    cfg->retry_delay_ms = 2000;
    cfg->traffic_interval_ms = 5000;
    cfg->health_interval_ms = 2000;
}

struct engine *engine_new(struct event_base *base, const struct engine_config *cfg,
                          const struct result_sink *sink)
{
    (void)base;
    (void)cfg;
    struct engine *e = calloc(1, sizeof *e);
    if (e)
        e->sink = *sink;
    return e;
}

int engine_start_session(struct engine *e, const struct engine_session_spec *spec)
{
    struct rec_session r = { .session = spec->session_index, .t_us = clock_wall_us(),
                             .kind = SESSION_FAILED, .reason = FAIL_INTERNAL };
    snprintf(r.user, sizeof r.user, "%s", spec->user);
    snprintf(r.detail, sizeof r.detail, "engine not implemented yet");
    e->counts.failed++;
    e->counts.failed_by_reason[FAIL_INTERNAL]++;
    if (e->sink.session)
        e->sink.session(e->sink.ctx, &r);
    return 0;
}

int engine_logoff_session(struct engine *e, uint32_t session_index)
{
    (void)e;
    (void)session_index;
    return -1;
}

void engine_logoff_all(struct engine *e, uint32_t deadline_ms)
{
    (void)e;
    (void)deadline_ms;
}

void engine_get_counts(const struct engine *e, struct engine_counts *out)
{
    *out = e->counts;
}

int engine_idle(const struct engine *e)
{
    (void)e;
    return 1;
}

void engine_set_idle_cb(struct engine *e, void (*cb)(void *arg), void *arg)
{
    (void)e;
    (void)cb;
    (void)arg;
}

int engine_save_png(struct engine *e, uint32_t session_index, const char *path)
{
    (void)e;
    (void)session_index;
    (void)path;
    return -1;
}

void engine_free(struct engine *e)
{
    free(e);
}

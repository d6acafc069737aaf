/* fixture_store.h -- writes synthetic runs into a results store through db/store.h, for the
 * score/report/compare/export tests (included by those test files; static functions only).
 *
 * A run ramps `sessions` sessions, one every 10 s; each becomes active after its logon time and
 * then reports a "vsi" measure sample plus "app_start" and "file_open" timers every 30 s. The
 * response time is flat (800 ms + jitter) until `knee` sessions are active, then grows by
 * 120 ms per extra session, so smax lands near knee + 8. `stuck` sessions never become active. */
#ifndef SESSMAX_FIXTURE_STORE_H
#define SESSMAX_FIXTURE_STORE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/score/score_config.h"
#include "db/store.h"

struct fixture_run {
    const char *name, *transport, *platform, *network;
    uint32_t sessions, knee, stuck;
    int agent_lost;                 /* mark agent 2 lost */
    uint32_t lag_p99_us;            /* agent loop lag reported */
    const char *thresholds[4];      /* NULL-terminated (at most 3) */
    uint64_t day;                   /* shifts start time by days */
    uint32_t cut_short;             /* sessions before the stuck ones aborted by the run's end */
    enum failure_reason stuck_reason; /* why the stuck ones failed; FAIL_NONE: logon_timeout */
};

struct fixture_counts { size_t measure_ok, measure_failed; };

/* What the agents of the runs fixture_write_run writes measured of themselves: the agent's share
 * of every ok vsi sample (share_us 0: none, as an older agent) and, with sched, the health
 * records' scheduler figures (per mille). Zero: the results of an agent older than both. */
static struct fixture_agent { uint32_t share_us; int sched; uint32_t loop_cpu, loop_delay, throttled; } fixture_agent;

static uint32_t fixture_rand(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffff;
}

static int fixture_sample(struct store *st, int64_t run, uint32_t sess, uint32_t loop, uint64_t t,
                          const char *name, int64_t us, int ok, int measure, uint32_t active)
{
    struct rec_sample s = { .session = sess, .loop = loop, .t_us = t, .value_us = us, .ok = (uint8_t)ok,
                            .is_measure = (uint8_t)measure };
    snprintf(s.name, sizeof s.name, "%s", name);
    return store_add_sample(st, run, &s, active);
}

/* A vsi sample, with fixture_agent's share when it is ok. */
static int fixture_measure(struct store *st, int64_t run, uint32_t sess, uint32_t loop, uint64_t t, int64_t us,
                           int ok, uint32_t active)
{
    struct rec_sample s = { .session = sess, .loop = loop, .t_us = t, .value_us = us, .ok = (uint8_t)ok,
                            .is_measure = 1, .has_agent = ok && fixture_agent.share_us,
                            .agent_us = ok ? fixture_agent.share_us : 0 };
    snprintf(s.name, sizeof s.name, "vsi");
    return store_add_sample(st, run, &s, active);
}

/* Samples are generated per 30 s tick over all active sessions (so they arrive in time order). */
static int fixture_samples(struct store *st, int64_t run, const struct fixture_run *f, uint64_t t0,
                           const uint64_t *active_at, struct fixture_counts *cnt)
{
    uint32_t seed = 42 + f->sessions;
    uint64_t end = t0 + (uint64_t)f->sessions * 10000000ull + 120000000ull;
    for (uint64_t t = t0 + 30000000ull; t < end; t += 30000000ull) {
        uint32_t active = 0;
        for (uint32_t i = 0; i < f->sessions; i++)
            active += active_at[i] && active_at[i] <= t;
        for (uint32_t i = 0, k = 0; i < f->sessions; i++) {
            if (!active_at[i] || active_at[i] > t)
                continue;
            uint64_t ts = t + (k++) * 1000;   /* distinct timestamps, in order */
            double load = active > f->knee ? (active - f->knee) * 120.0 : 0;
            int64_t app = (int64_t)((500 + fixture_rand(&seed) % 100 + load * 0.6) * 1000);
            int64_t open = (int64_t)((300 + fixture_rand(&seed) % 50 + load * 0.4) * 1000);
            int ok = fixture_rand(&seed) % 97 != 0;
            uint32_t loop = (uint32_t)((t - active_at[i]) / 30000000ull);
            if (fixture_sample(st, run, i, loop, ts, "app_start", app, 1, 0, active) < 0 ||
                fixture_sample(st, run, i, loop, ts, "file_open", open, 1, 0, active) < 0 ||
                fixture_measure(st, run, i, loop, ts, ok ? app + open : 30000000, ok, active) < 0)
                return -1;
            if (ok)
                cnt->measure_ok++;
            else
                cnt->measure_failed++;
        }
    }
    return 0;
}

static int fixture_sessions(struct store *st, int64_t run, const struct fixture_run *f, int64_t agents[2],
                            uint64_t t0, uint64_t *active_at)
{
    for (uint32_t i = 0; i < f->sessions; i++) {
        uint64_t launch = t0 + (uint64_t)i * 10000000ull;
        char user[32];
        snprintf(user, sizeof user, "user%03u", i + 1);
        if (store_session_launch(st, run, i, agents[i % 2], user, launch) < 0)
            return -1;
        struct rec_session ev = { .session = i, .kind = SESSION_ACTIVE };
        snprintf(ev.user, sizeof ev.user, "%s", user);
        if (i >= f->sessions - f->stuck) {
            ev.kind = SESSION_FAILED;
            ev.reason = f->stuck_reason ? f->stuck_reason : FAIL_LOGON_TIMEOUT;
            ev.t_us = launch + 60000000ull;
            snprintf(ev.detail, sizeof ev.detail, "%s", f->stuck_reason ? "refused" : "desktop never ready");
            active_at[i] = 0;
        } else if (i >= f->sessions - f->stuck - f->cut_short) {
            ev.kind = SESSION_FAILED;
            ev.reason = FAIL_ABORTED;
            ev.t_us = launch + 1000000ull;
            snprintf(ev.detail, sizeof ev.detail, "the run stopped");
            active_at[i] = 0;
        } else {
            ev.value_us = 2000000 + (int64_t)i * 20000;
            ev.t_us = launch + (uint64_t)ev.value_us;
            active_at[i] = ev.t_us;
        }
        if (store_session_event(st, run, &ev) < 0)
            return -1;
    }
    return 0;
}

static int fixture_traffic_health(struct store *st, int64_t run, const struct fixture_run *f, int64_t agents[2],
                                  uint64_t t0, const uint64_t *active_at)
{
    uint64_t end = t0 + (uint64_t)f->sessions * 10000000ull + 120000000ull;
    for (uint64_t t = t0 + 10000000ull; t < end; t += 10000000ull) {
        for (uint32_t i = 0; i < f->sessions; i++) {
            if (!active_at[i] || active_at[i] > t)
                continue;
            uint64_t secs = (t - active_at[i]) / 1000000ull;
            struct rec_traffic tr = { .session = i, .t_us = t + i, .bytes_in = secs * 12500, .bytes_out = secs * 2500,
                                      .wire_in = secs * 13000, .wire_out = secs * 3000, .rtt_us = 300,
                                      .data_segs_out = (uint32_t)secs * 10, .retrans = (uint32_t)secs / 10 };
            /* 15000 B/s = 120 kbit/s per session; 1 % of data segments retransmitted */
            if (store_add_traffic(st, run, &tr) < 0)
                return -1;
        }
        for (int a = 0; a < 2; a++) {
            struct rec_health h = { .t_us = t, .sessions_active = fixture_agent.sched ? f->sessions / 2 : 0,
                                    .lag_p50_us = 200, .lag_p99_us = f->lag_p99_us,
                                    .lag_max_us = f->lag_p99_us * 2, .cpu_permille = 100 + (uint32_t)((t - t0) / 10000000ull) % 300,
                                    .rss_kb = 50000, .has_sched = (uint8_t)fixture_agent.sched,
                                    .loop_cpu_permille = fixture_agent.loop_cpu,
                                    .loop_delay_permille = fixture_agent.loop_delay,
                                    .throttled_permille = fixture_agent.throttled };
            if (store_add_health(st, run, agents[a], &h) < 0)
                return -1;
        }
    }
    return 0;
}

/* Writes one run; returns its id or -1. */
static int64_t fixture_write_run(struct store *st, const struct fixture_run *f, struct fixture_counts *cnt)
{
    struct score_config cfg;
    score_config_init(&cfg);
    char err[256];
    for (size_t i = 0; f->thresholds[i]; i++) {
        struct threshold t;
        if (threshold_parse(f->thresholds[i], &t, err, sizeof err) < 0)
            return -1;
        cfg.thresholds = realloc(cfg.thresholds, (i + 1) * sizeof t);
        cfg.thresholds[cfg.threshold_count++] = t;
    }
    char *params = score_config_to_json(&cfg);
    score_config_free(&cfg);
    uint64_t t0 = 1764460800000000ull + f->day * 86400000000ull;
    struct store_run_info info = { f->name, f->transport, f->platform, f->network, "127.0.0.1:3389",
                                   "simhost-task-worker", "0123abcd", "name: fixture\n", params,
                                   f->sessions, t0, NULL, NULL, 0, NULL };
    int64_t run = store_run_begin(st, &info);
    free(params);
    int64_t agents[2] = { store_add_agent(st, run, "local-1", "127.0.0.1", 100),
                          store_add_agent(st, run, "local-2", "127.0.0.1", 100) };
    uint64_t *active_at = calloc(f->sessions, sizeof *active_at);
    struct fixture_counts dummy = { 0 };
    if (run < 0 || agents[0] < 0 || agents[1] < 0 || !active_at ||
        store_agent_status(st, agents[0], "done", "") < 0 ||
        store_agent_status(st, agents[1], f->agent_lost ? "lost" : "done", f->agent_lost ? "silent 30 s" : "") < 0 ||
        fixture_sessions(st, run, f, agents, t0, active_at) < 0 ||
        fixture_samples(st, run, f, t0, active_at, cnt ? cnt : &dummy) < 0 ||
        fixture_traffic_health(st, run, f, agents, t0, active_at) < 0 ||
        store_run_end(st, run, "completed", t0 + (uint64_t)f->sessions * 10000000ull + 120000000ull, "") < 0)
        run = -1;
    free(active_at);
    return run;
}

#endif

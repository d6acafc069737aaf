/* live.h -- what a running test looks like right now, for the live web page and /metrics: the
 * session counts and phase, the index against its baseline and threshold over time, per-timer
 * response-time histograms, each agent's health, the target's CPU and the traffic of the run's
 * network profile. The run (controller/run) feeds it on the loop thread; the web server reads it
 * on the same thread, so nothing here locks. Every array is bounded: a long run or many agents
 * cannot grow it without limit. */
#ifndef SESSMAX_WEB_LIVE_H
#define SESSMAX_WEB_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include "controller/web/live_alarms.h"
#include "controller/web/live_failures.h"
#include "controller/web/live_smax.h"

#define WEB_LIVE_MAX_TIMERS 64
#define WEB_LIVE_MAX_AGENTS 256
#define WEB_LIVE_MAX_POINTS 2048
#define WEB_LIVE_FINE_BUCKETS 320   /* 5 % wide, from 0.1 ms up: percentiles within 2.5 % */
#define WEB_LIVE_PROM_BUCKETS 15    /* Prometheus histogram bounds (seconds, 1 ms .. 60 s), +Inf apart */

extern const double web_live_prom_bounds_s[WEB_LIVE_PROM_BUCKETS];

struct web_live_counts {
    const char *phase;              /* "waiting for agents", "ramp", "steady", "logoff", "end" */
    uint32_t sessions, launched, active, failed, ended, stuck;
    uint32_t agents, agents_expected;
    double index_ms, baseline_ms, threshold_ms;   /* NaN when not known yet */
    int crossed;
    double left_s;                  /* < 0 unknown */
    uint64_t samples;
};

struct web_live_timer {
    char name[64];
    int is_measure;
    uint64_t count, failed;
    double sum_s;
    uint32_t fine[WEB_LIVE_FINE_BUCKETS];
    uint64_t prom[WEB_LIVE_PROM_BUCKETS + 1];     /* per bucket (not cumulative); last: +Inf */
};

struct web_live_agent {
    char name[64];
    double lag_p99_ms, cpu_pct, rss_mb;
    uint32_t sessions_active;
    int lost;
};

/* One chart point: time since the start, the index, the sessions active, logging on, failed, the
 * target's CPU (%, NaN not sampled) and the worst agent loop lag p99 (ms, NaN no health yet). */
struct web_live_point { float t_s, index_ms; uint32_t active, logging_on, failed; float cpu_pct, lag_ms; };

#define WEB_LIVE_MAX_SOURCES 8
/* The newest figures of one of the target's exporters (plan target.metrics); NaN: not reported. */
struct web_live_resources {
    char source[96];
    uint32_t active;                /* sessions active at the scrape */
    double cpu_pct, mem_pct, disk_busy_pct, net_pct;
    double disk_bytes_s, net_bytes_s, sessions;
};

struct web_live {
    char run_name[128], platform[64], transport[32], network[64];
    char client[128];               /* the plan's client label ("builtin", an X11 client's); "" builtin */
    int64_t run_id;
    uint64_t t0_us;                 /* clock_now_us at start: the chart's time 0 */
    struct web_live_counts c;
    struct web_live_smax smax;      /* the live score (live_smax.c) */
    struct web_live_alarms alarms;  /* why it can no longer pass, failures by reason (live_alarms.c) */
    struct web_live_failures failures;   /* the latest failed sessions and their screens (live_failures.c) */
    struct web_live_timer timers[WEB_LIVE_MAX_TIMERS];
    size_t ntimers;
    struct web_live_agent agents[WEB_LIVE_MAX_AGENTS];
    size_t nagents;
    struct web_live_point points[WEB_LIVE_MAX_POINTS];
    size_t npoints;
    uint64_t point_every_us, next_point_us;
    /* target CPU (target.local), -1 when not sampled */
    double target_cpu_pct, target_others_pct;
    /* the target's resources from its exporters, newest per source (live_resources.c) */
    struct web_live_resources res[WEB_LIVE_MAX_SOURCES];
    size_t nres;
    /* traffic: bytes of every session, RTT of each session's newest record */
    uint32_t nsess;
    uint64_t *sess_bytes;           /* newest cumulative bytes per session */
    uint32_t *sess_rtt_us;          /* 0: no record yet */
    uint64_t bytes_total;           /* sum of every session's newest cumulative bytes (a counter) */
    uint64_t rate_t_us, rate_bytes; /* the last rate sample */
    double kbit_s_total;            /* over the last rate interval */
};

/* Sets up for a run of `sessions` sessions; 0, or -1 on allocation failure. */
int web_live_init(struct web_live *w, uint32_t sessions, uint64_t now_us);
void web_live_free(struct web_live *w);
void web_live_labels(struct web_live *w, int64_t run, const char *name, const char *platform,
                     const char *transport, const char *network);
/* The counts of this tick; also adds a chart point at most every point_every_us. */
void web_live_counts(struct web_live *w, const struct web_live_counts *c, uint64_t now_us);
/* One sample of timer or measure `name`; ok 0: failed (not in the histograms). */
void web_live_sample(struct web_live *w, const char *name, int is_measure, int ok, int64_t value_us);
void web_live_health(struct web_live *w, const char *agent, double lag_p99_ms, double cpu_pct, double rss_mb,
                     uint32_t sessions_active);
void web_live_agent_lost(struct web_live *w, const char *agent);
void web_live_traffic(struct web_live *w, uint32_t session, uint64_t t_us, uint64_t bytes, uint32_t rtt_us);
void web_live_target(struct web_live *w, double cpu_pct, double others_pct);

/* The q-quantile (0..1) of a timer's successful samples in ms; NaN when it has none. */
double web_live_quantile_ms(const struct web_live_timer *t, double q);
/* Median RTT over the sessions with a traffic record, in ms; NaN when none. */
double web_live_rtt_p50_ms(const struct web_live *w);
/* kbit/s per active session over the last rate interval; NaN when not known. */
double web_live_kbit_per_session(const struct web_live *w);

#endif

/* summary_types.h -- the figures of one run as `score`, `compare`, `report` and `export` read
 * them (struct summary and its parts) and the raw inputs they are computed from (struct
 * summary_input). Types only: summary.h computes them, and the summary_*.c parts that fill a share
 * of the figures include this header, never summary.h, so the dependencies run one way. */
#ifndef SESSMAX_SUMMARY_TYPES_H
#define SESSMAX_SUMMARY_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "controller/score/score.h"
#include "controller/score/score_config.h"
#include "controller/score/resources.h"
#include "db/store.h"

struct summary_timer {
    char name[RESULTS_NAME_LEN];
    int is_measure;
    size_t count, failed;          /* failed: not ok (timed out, failed or suspect) */
    size_t suspect;                /* held below the timer's plausibility floor (ok = 2) */
    double min_ms, avg_ms, max_ms, p50_ms, p90_ms, p95_ms, p99_ms;   /* over ok samples */
    /* Copy timers (summary_copy.h): bytes per sample (0: not a copy timer), the direction, and
     * MB/s at the median, slowest and fastest time (NaN without ok samples). */
    uint64_t copy_bytes;
    int copy_to_client;
    double mbps_p50, mbps_min, mbps_max;
};

/* One point of the measure curve (ok samples only), in time order. */
struct summary_point {
    uint64_t t_us;
    uint32_t active;
    double value_ms, index_ms;
};

/* Per-interval aggregates for the charts (index over time buckets of equal width). */
struct summary_bucket {
    uint64_t t_us;                 /* bucket start */
    uint32_t active;               /* last active count seen in the bucket */
    double rt_min_ms, rt_avg_ms, rt_max_ms;   /* measure samples; NaN when none */
    double kbps_per_session;       /* NaN when no traffic */
    double lag_p99_ms, cpu_pct;    /* worst agent in the bucket; NaN when none */
    double target_cpu_pct;         /* the target's CPU (target.local), highest in the bucket; NaN none */
};

struct summary_logon { uint32_t session; uint64_t launch_us; double logon_ms; };
/* One logon phase (enum logon_phase) over the sessions that measured it (summary_logon.h). */
struct summary_logon_phase { size_t count; double p50_ms, p95_ms; };

/* Failed sessions counted by failure reason ("logon_timeout", "lost", ...). */
struct summary_reason { char reason[24]; uint32_t count; };

/* A failed or stuck session with its evidence (summary_evidence.h). */
struct summary_failure {
    uint32_t session;
    char user[RESULTS_NAME_LEN], reason[24], detail[RESULTS_DETAIL_LEN];
    char screen[RESULTS_NAME_LEN + 16];   /* PNG file in the run's shots directory; "" none */
    uint64_t t_us;                 /* when it failed, or its launch when it never ended */
    int stuck;                     /* never became active */
};

struct summary {
    struct store_run run;          /* labels as stored */
    struct score_config config;    /* as used (from runs.score_params, then overrides) */
    char measure[RESULTS_NAME_LEN];/* the measure group actually scored */
    char note[256];                /* e.g. measure fallback; "" when none */
    struct score_result score;
    uint32_t launched, active, stuck, failed_sessions, ended;
    /* Sessions the run itself stopped before they could log on (reason "aborted", never active):
     * an early stop or Ctrl-C a second after a launch says nothing about the host, so they are
     * reported but not counted as stuck. stuck = launched - active - cut_short. */
    uint32_t cut_short;
    double stuck_pct;
    size_t agents, agents_lost;    /* agents with status "lost" or "failed" */
    uint32_t agents_lost_sessions; /* sessions failed with reason "lost" (their agent vanished) */
    double lag_p99_ms, lag_max_ms, cpu_max_pct;   /* worst over all health records; NaN none */
    /* External clients (client: x11), per session, averaged over the health records that
     * measured any (ext_sessions > 0): MiB of the client and of its X server, CPU in % of a core.
     * ext_sessions_max: the most measured at once; 0 (figures NaN) for the built-in engine. */
    uint32_t ext_sessions_max;
    double ext_client_rss_mib, ext_client_pss_mib, ext_xserver_rss_mib, ext_xserver_pss_mib, ext_cpu_pct;
    /* The agent process per session (summary_cost.h): RSS at the most sessions an agent held
     * (agent_sessions_max), CPU in % of a core averaged over the records with sessions; NaN none. */
    uint32_t agent_sessions_max;
    double agent_rss_mib, agent_cpu_pct;
    double kbps_per_session;       /* payload bytes in+out * 8 / 1000 / session-seconds active */
    double rtt_p50_ms, rtt_p95_ms; /* TCP smoothed RTT over every traffic record; NaN: none */
    double min_rtt_p50_ms, min_rtt_p95_ms; /* the kernel's minimum RTT (schema 11+); NaN: none */
    double retrans_pct;            /* client segments retransmitted / data segments sent; NaN: none */
    uint64_t data_segs_out;        /* data segments the clients sent (the rate's denominator) */
    double logon_p50_ms, logon_p95_ms, logon_p99_ms, logon_avg_ms;
    struct summary_logon_phase logon_phases[LOGON__PHASES];
    size_t logon_phased;           /* active sessions with their logon's phases (0: none measured) */
    /* launch -> the active record, over the sessions with both: the logon, then the time the agent
     * took to confirm its condition (a `stable` condition's quiet time); NaN none */
    double launch_active_p50_ms, launch_active_p95_ms;
    size_t samples, samples_failed;
    size_t samples_suspect;        /* of samples_failed: suspect (ok = 2), never scored as ok */
    double failed_samples_pct;
    struct summary_timer *timers;  size_t timer_count;
    struct summary_point *points;  size_t point_count;
    struct summary_bucket *buckets; size_t bucket_count;
    struct summary_logon *logons;  size_t logon_count;
    struct summary_reason reasons[FAIL__COUNT]; size_t reason_count;
    struct summary_failure *failures; size_t failure_count;
    /* Logons: first try, after repaint requests only, after logon retries; repaint requests sent. */
    uint32_t logon_first_try, logon_repainted, logon_retried, repaint_requests;
    /* A target on the controller's machine (plan target.local, summary_target.h): its CPU use and
     * that of the other processes on its CPUs, in % of those CPUs; NaN without samples. */
    size_t target_samples;
    uint32_t target_cpus;
    double target_cpu_pct, target_cpu_max_pct, others_cpu_pct, others_cpu_max_pct;
    int target_shared;             /* the others used SUMMARY_TARGET_SHARED_PCT or more on average */
    /* The target's resources from its exporters (plan target.metrics) and the one that ran out at
     * the knee (resources.h); filled by summary_load, count 0 when not measured. */
    struct resources res;
};

struct summary_samples;

/* summary_input.flags: no curve, i.e. no points and no chart buckets (point_count and
 * bucket_count 0). The index is still computed for smax and its maximum; `sessmax score` prints
 * neither the curve nor the charts, and a million points are 32 MB to fill. */
#define SUMMARY_NO_CURVE 1u

/* Raw inputs of summary_compute (the store's reader rows). */
struct summary_input {
    const struct store_run *run;
    const struct store_samples *samples;      /* in time order; not read when acc is set */
    const struct store_session_row *sessions; size_t session_count;
    const struct store_traffic_row *traffic;  size_t traffic_count;
    const struct store_health_row *health;    size_t health_count;
    const struct store_agent_row *agents;     size_t agent_count;
    const struct store_copy_row *copies;      size_t copy_count;
    const struct store_target_load *target_load; size_t target_load_count;
    /* The samples already gathered (summary_samples.h, finished), used up by summary_compute;
     * NULL: taken from `samples`. */
    struct summary_samples *acc;
    unsigned flags;                            /* SUMMARY_NO_CURVE or 0 */
};

#endif

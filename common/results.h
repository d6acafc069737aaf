/* results.h -- the records an agent produces and the sink it hands them to.
 *
 * The session engine never knows where results go: standalone mode prints them as JSON lines,
 * the controller link streams them over the wire, and the controller stores them with db/.
 * Timestamps are wall-clock µs (so records from several agents share one timeline); every
 * duration is measured on CLOCK_MONOTONIC and named *_us. Sinks are called on the agent's loop
 * thread only, and must not block it. */
#ifndef SESSMAX_RESULTS_H
#define SESSMAX_RESULTS_H

#include <stdint.h>

#define RESULTS_NAME_LEN 48     /* timer, region and user names */
#define RESULTS_DETAIL_LEN 160  /* one-line failure detail; never a secret */

/* Why a session or a sample failed. The strings (failure_reason_name) are what SQLite stores. */
enum failure_reason {
    FAIL_NONE = 0,
    FAIL_AUTH,             /* the server refused the credentials */
    FAIL_TLS,              /* TLS handshake or certificate (pin mismatch) */
    FAIL_CONNECT,          /* TCP refused/unreachable, or protocol negotiation failed */
    FAIL_CONNECT_TIMEOUT,  /* the connect watchdog fired: the server stopped answering */
    FAIL_LOGON_TIMEOUT,    /* connected but the desktop-ready condition never held */
    FAIL_DISCONNECT,       /* the server or the network dropped an active session */
    FAIL_WAIT_TIMEOUT,     /* a wait/until condition did not hold within its timeout */
    FAIL_REFUSED,          /* the server refused the session (capacity, policy) */
    FAIL_REPLACED,         /* another logon of the same user took the session over */
    FAIL_PROTOCOL,         /* malformed or unexpected data from the server */
    FAIL_LOST,             /* the agent hosting the session died or went silent */
    FAIL_ABORTED,          /* the run was stopped (Ctrl-C) before the session ended */
    FAIL_INTERNAL,         /* a bug or resource exhaustion in sessmax itself */
    FAIL_CLIENT_EXIT,      /* an external client (client: x11) exited on its own */
    FAIL_CLIENT_TIMEOUT,   /* an external client showed no window in time */
    FAIL_XSERVER,          /* the X server of an external client died */
    FAIL_LOGOFF_INCOMPLETE,/* the logoff steps ran but the server did not end the session */
    FAIL__COUNT
};
const char *failure_reason_name(enum failure_reason r);
/* Inverse of failure_reason_name; FAIL_INTERNAL for unknown text. */
enum failure_reason failure_reason_parse(const char *name);

/* rec_sample.ok. SUSPECT: the condition held, but sooner than the timer's plausibility floor
 * (`min:` in the workload, by default the session's fastest recent input echo), so the sample may
 * time the echo of its input rather than the response: stored and shown, never scored as ok. */
enum sample_status { SAMPLE_FAILED = 0, SAMPLE_OK = 1, SAMPLE_SUSPECT = 2 };

/* One timed action (a `timer`), or one weighted `measure` group (is_measure = 1). */
struct rec_sample {
    uint32_t session;                  /* run-wide session index (0-based) */
    uint32_t loop;                     /* workload loop iteration, 0-based */
    uint64_t t_us;                     /* wall clock when the condition was met (or timed out) */
    int64_t value_us;                  /* elapsed µs; on failure, the time waited */
    uint8_t ok;                        /* enum sample_status */
    uint8_t is_measure;
    char name[RESULTS_NAME_LEN];
};

enum session_event_kind {
    SESSION_LAUNCHED,   /* connect started */
    SESSION_ACTIVE,     /* logon condition met: value_us = logon time */
    SESSION_FAILED,     /* reason + detail; terminal */
    SESSION_LOGOFF,     /* logoff started */
    SESSION_ENDED,      /* clean end; terminal */
};
const char *session_event_name(enum session_event_kind k);

struct rec_session {
    uint32_t session;
    uint64_t t_us;
    enum session_event_kind kind;
    int64_t value_us;                  /* logon time for SESSION_ACTIVE, else 0 */
    enum failure_reason reason;        /* SESSION_FAILED only */
    char user[RESULTS_NAME_LEN];
    char detail[RESULTS_DETAIL_LEN];
};

/* A session's logon in phases, sent once, when its desktop is ready (SESSION_ACTIVE). Each phase
 * runs from the end of the one before to its own end, so they add up to the logon time
 * (SESSION_ACTIVE's value_us): session start (START received, connect queued) -> desktop ready.
 * Where each boundary is measured: docs/scoring.md. -1: not measured (e.g. an external client). */
enum logon_phase {
    LOGON_WAIT,       /* start -> FreeRDP's TCP connect(): a connect thread, instance, name lookup,
                       * earlier attempts */
    LOGON_TCP,        /* connect() -> the socket is connected */
    LOGON_SECURITY,   /* -> X.224 negotiation, TLS handshake and NLA done (MCS Connect Initial sent) */
    LOGON_RDP,        /* -> the RDP connection sequence done: the session is active */
    LOGON_PAINT,      /* -> the first paint after activation */
    LOGON_DESKTOP,    /* -> the workload's logon condition (desktop ready) held */
    LOGON__PHASES
};
/* "wait", "tcp", "security", "rdp", "paint", "desktop" (column and JSON names); NULL if out of range. */
const char *logon_phase_name(enum logon_phase p);

struct rec_logon {
    uint32_t session;
    uint64_t t_us;                     /* wall clock when the desktop was ready */
    int64_t phase_us[LOGON__PHASES];   /* enum logon_phase; -1 not measured */
};

/* Cumulative counters of one session, sampled every few seconds. */
struct rec_traffic {
    uint32_t session;
    uint64_t t_us;
    uint64_t bytes_in, bytes_out;      /* RDP payload above TLS (freerdp_get_stats) */
    uint64_t wire_in, wire_out;        /* TCP bytes (TCP_INFO bytes_received / bytes_acked) */
    uint32_t rtt_us;                   /* kernel smoothed RTT (tcpi_rtt: includes delayed ACKs) */
    uint32_t frames;                   /* paints received so far */
    /* TCP_INFO counters of the client's socket: data segments sent, segments retransmitted, data
     * segments received (retransmission rate = retrans / data_segs_out; pure ACKs not counted) */
    uint32_t data_segs_out, retrans, data_segs_in;
    uint32_t min_rtt_us;               /* kernel minimum RTT seen (tcpi_min_rtt); 0 not known */
};

/* External clients (client: x11): sessions whose processes were measured, and the sums over
 * their client and X server processes (/proc/PID/smaps_rollup, /proc/PID/stat). Sent on the agent
 * link (health_ext) only when the controller asks for them (docs/protocol.md). */
struct rec_ext_costs {
    uint32_t sessions;
    uint32_t cpu_permille;
    uint64_t client_rss_kb, client_pss_kb, xserver_rss_kb, xserver_pss_kb;
};

/* The agent's own health, every few seconds: a saturated agent must never silently inflate
 * response times, so the score checks these. */
struct rec_health {
    uint64_t t_us;
    uint32_t sessions_active;
    uint32_t sessions_connecting;
    uint32_t lag_p50_us, lag_p99_us, lag_max_us;   /* timer lateness since the last record */
    uint32_t cpu_permille;                          /* process CPU, 1000 = one core */
    uint64_t rss_kb;
    struct rec_ext_costs ext;   /* external clients' costs; all 0 with the built-in engine */
    uint32_t ext_capacity;      /* sessions the agent can carry at these costs (0: not known yet) */
};

struct result_sink {
    void *ctx;
    void (*sample)(void *ctx, const struct rec_sample *s);
    void (*session)(void *ctx, const struct rec_session *e);
    void (*traffic)(void *ctx, const struct rec_traffic *t);
    void (*health)(void *ctx, const struct rec_health *h);
    void (*logon)(void *ctx, const struct rec_logon *l);      /* may be NULL */
};

#endif

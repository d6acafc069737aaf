/* engine.h -- the session engine: many FreeRDP sessions of one agent process on one libevent loop.
 *
 * Callers (standalone main.c, the controller link) create one engine on their event_base, start
 * sessions one by one (ramp pacing is the caller's business), and ask for an orderly logoff at the
 * end. The engine connects on a small pool of connect threads under a watchdog, then drives every
 * connected session from the loop thread; every result (session events, samples, traffic, health)
 * goes to the result_sink given at creation, on the loop thread. The engine never knows where
 * results go and never exits the process.
 *
 * Threading: every function here must be called on the thread running the event_base's loop
 * (or before the loop runs). Internally only connect/teardown of FreeRDP instances runs on the
 * connect threads.
 *
 * The event_base must use precise timers (EVENT_BASE_FLAG_PRECISE_TIMER, or EVENT_PRECISE_TIMER=1
 * in the environment before it is created, as sessmax-agent's main() does): libevent's default
 * coarse monotonic clock has a 4 ms tick here, which would add up to 4 ms to every timed wait. */
#ifndef SESSMAX_ENGINE_H
#define SESSMAX_ENGINE_H

#include <stdint.h>

#include "common/results.h"

struct event_base;
struct workload;
struct engine;
struct screen_view;

/* Everything about the target and the engine's own mechanics. Strings are copied by
 * engine_new(); the struct may be discarded afterwards. Start from engine_config_defaults(). */
/* Security layer the client offers. NEGOTIATE lets the server pick among NLA, TLS and standard
 * RDP security; the others offer only that layer, so a server that cannot do it refuses. */
enum engine_security { ENGINE_SEC_NEGOTIATE = 0, ENGINE_SEC_TLS, ENGINE_SEC_NLA, ENGINE_SEC_RDP };

/* "negotiate", "tls", "nla", "rdp" -> *out; returns -1 for anything else. */
int engine_security_parse(const char *name, enum engine_security *out);

struct engine_config {
    const char *host;                /* target host name or address (required) */
    uint16_t port;                   /* default 3389 */
    const char *domain;              /* NULL: none */
    /* Certificate: exactly one of fingerprint ("sha256:AA:BB:...", comma-separated list allowed)
     * or no_verify = 1. With neither, a TLS session fails with FAIL_TLS (never prompts, never
     * writes known_hosts). */
    const char *fingerprint;
    int no_verify;
    enum engine_security security;   /* default ENGINE_SEC_NEGOTIATE */
    uint32_t width, height;          /* desktop size; default 1024x768 */
    uint32_t bpp;                    /* 16 (default; framebuffer in RGB16) or 32 (BGRX32) */
    /* Private FreeRDP ConfigPath (certificate store dirs are created in it). NULL: the engine
     * makes a fresh directory under $TMPDIR (or /tmp) and removes it in engine_free(). */
    const char *config_dir;
    const char *shot_dir;            /* PNGs of timed-out waits; NULL: none */
    int shot_timers;                 /* with shot_dir: also a PNG at the end of every timer of
                                        each session's first loop (`--shots all`) */
    unsigned connect_threads;        /* connect pool size; default 4 */
    uint32_t connect_timeout_ms;     /* watchdog per connect attempt; default 30000 */
    /* Retry policy. Attempts per session for connect failures and watchdog expiries
     * (FAIL_CONNECT, FAIL_CONNECT_TIMEOUT); default 2. Auth, TLS and refused are never retried.
     * One attempt is one freerdp_connect() call (FreeRDP may open a second TCP connection inside
     * it: nego fallback or its own reconnect on transport failure). */
    uint32_t max_attempts;
    uint32_t retry_delay_ms;         /* pause before a retry; default 2000 */
    /* Logons that timed out (the desktop-ready condition never held, even after repaint
     * requests) may start over with a fresh connection this many times; default 0. The
     * SESSION_ACTIVE record's detail says "logon retries: N" when one was needed. */
    uint32_t logon_retries;
    uint32_t traffic_interval_ms;    /* rec_traffic per session; default 5000; 0: never */
    uint32_t health_interval_ms;     /* rec_health; default 2000; 0: never */
    /* Log a running session off once its workload completed this many loops; 0: never (run
     * until engine_logoff_session/engine_logoff_all). */
    uint32_t max_loops;
};

/* Fills defaults (host NULL: the caller must set it). */
void engine_config_defaults(struct engine_config *cfg);

/* One session to start. */
struct engine_session_spec {
    uint32_t session_index;          /* run-wide index (0-based); must be unique in this engine */
    const char *user;                /* copied */
    /* Borrowed for the duration of engine_start_session() only: the engine keeps a private copy
     * which it wipes (explicit_bzero) once the session's connect attempts are over. Never
     * logged, never put in a record. */
    const char *password;
    /* Borrowed; must outlive the session (i.e. the engine). NULL: no workload -- the session is
     * active as soon as it is connected (logon time = connect time) and idles until logoff
     * (used by `sessmax-agent shot`). */
    const struct workload *workload;
    uint64_t seed;                   /* per-session seed for think times */
};

/* Session counts by state (see session.h for the states). */
struct engine_counts {
    uint32_t connecting;             /* queued, connecting, or waiting for a retry */
    uint32_t logon;                  /* connected, waiting for the desktop-ready condition */
    uint32_t running;
    uint32_t logoff;                 /* running the workload's logoff steps */
    uint32_t done;                   /* ended cleanly */
    uint32_t failed;                 /* ended with a failure reason */
    uint32_t failed_by_reason[FAIL__COUNT];
};

/* Creates the engine and starts its connect threads and health timer. The sink is copied (its
 * ctx is borrowed and must outlive the engine). Returns NULL with a logged reason on failure. */
struct engine *engine_new(struct event_base *base, const struct engine_config *cfg,
                          const struct result_sink *sink);

/* Queues a session for connecting; emits SESSION_LAUNCHED when its connect starts. Returns 0, or
 * -1 (logged) if the index is already used, the engine is logging off, or memory ran out. */
int engine_start_session(struct engine *e, const struct engine_session_spec *spec);

/* Asks one session to log off (workload logoff steps, then disconnect). -1: no such session. */
int engine_logoff_session(struct engine *e, uint32_t session_index);

/* Asks every session to log off: queued ones are cancelled (SESSION_FAILED, FAIL_ABORTED),
 * connecting ones are aborted, running ones run their logoff steps. Sessions still not ended
 * after deadline_ms are disconnected and recorded as FAIL_ABORTED. New sessions are refused
 * afterwards. The idle callback fires once nothing is left. */
void engine_logoff_all(struct engine *e, uint32_t deadline_ms);

void engine_get_counts(const struct engine *e, struct engine_counts *out);

/* 1 when no session is queued, connecting or alive (every started session ended). */
int engine_idle(const struct engine *e);

/* Called (on the loop thread) each time the engine becomes idle after having had sessions. */
void engine_set_idle_cb(struct engine *e, void (*cb)(void *arg), void *arg);

/* Saves the current screen of a running session as PNG; 0 on success, -1 otherwise (logged). */
int engine_save_png(struct engine *e, uint32_t session_index, const char *path);

/* The current screen of a running session (borrowed until return to the loop); -1 otherwise. */
int engine_screen(struct engine *e, uint32_t session_index, struct screen_view *out);

/* Loop-lag percentiles over the engine's whole life (for summaries). */
uint32_t engine_lag_total(const struct engine *e, uint32_t *p50_us, uint32_t *p99_us,
                          uint32_t *max_us);

/* Disconnects whatever is left (without records), joins the connect threads, frees everything.
 * Blocks for at most one connect watchdog period. Accepts NULL. */
void engine_free(struct engine *e);

#endif

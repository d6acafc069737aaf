/* engine_config.h -- what the session engine is told: the target and the engine's own mechanics
 * (engine_config), and each session it is asked to start (engine_session_spec). Plain data, so
 * the FreeRDP settings writer and the session can read it without depending on the engine. */
#ifndef SESSMAX_ENGINE_CONFIG_H
#define SESSMAX_ENGINE_CONFIG_H

#include <stdint.h>

struct workload;
struct netem;
struct x11_client;
struct session_ops;

/* Security layer the client offers. NEGOTIATE lets the server pick among NLA, TLS and standard
 * RDP security; the others offer only that layer, so a server that cannot do it refuses. */
enum engine_security { ENGINE_SEC_NEGOTIATE = 0, ENGINE_SEC_TLS, ENGINE_SEC_NLA, ENGINE_SEC_RDP };

/* "negotiate", "tls", "nla", "rdp" -> *out; returns -1 for anything else. */
int engine_security_parse(const char *name, enum engine_security *out);

/* Everything about the target and the engine's own mechanics. Strings are copied by
 * engine_new(); the struct may be discarded afterwards. Start from engine_config_defaults(). */
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
    /* Log a running session off right at the end of its loop number max_loops (no step of the
     * next loop runs); 0: never (run until engine_logoff_session/engine_logoff_all). */
    uint32_t max_loops;
    /* Network emulator (agent/netem/netem.h), borrowed: connect threads enter its namespace before
     * freerdp_connect(), so the sessions' sockets take the shaped link. NULL: the host's network. */
    const struct netem *netem;
    /* RDP connection type announced to the server (MS-RDPBCGR connectionType, 1..7, with the
     * performance flags FreeRDP sets for it); 0: FreeRDP's default (none announced). */
    uint32_t connection_type;
    /* External client (common/x11_preset.h): each session runs this X11 client on its own Xvfb
     * instead of a FreeRDP instance (agent/x11/session.h). Copied by engine_new(); NULL: none.
     * The x11 kind needs it. */
    const struct x11_client *client;
    /* The kind of every session of the engine (agent/engine/session_ops.h): rdp_session_ops
     * (agent/rdp/kind.h) or x11_session_ops (agent/x11/kind.h). Required. */
    const struct session_ops *kind;
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

#endif

/* session_ops.h -- what the engine needs of a kind of session, as a table of functions (as wrk's
 * struct sock in src/net.h): the engine starts, counts, logs off and frees sessions through it
 * and never knows what drives them. Two kinds exist: agent/rdp/ (a FreeRDP instance per user)
 * and agent/x11/ (an external client on its own X server); whoever fills the engine_config picks
 * one (engine_config.kind). A new kind is a folder beside those two with its own table.
 *
 * Every kind embeds a struct session_life (session_life.h): the states below, the records and
 * the interpreter are the same for all of them, so the engine reads a session's identity and
 * state through `life` and nothing else. Everything here runs on the loop thread unless a
 * function says otherwise. */
#ifndef SESSMAX_SESSION_OPS_H
#define SESSMAX_SESSION_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "agent/engine/engine_config.h"
#include "common/results.h"

struct event_base;
struct connector;
struct driver_ops;
struct rect;
struct screen_view;
struct session_life;

/* A session's state (the diagram is agent/rdp/session.h's; external clients' is the same). */
enum session_state {
    SESSION_ST_NEW = 0,
    SESSION_ST_CONNECTING,
    SESSION_ST_LOGON,
    SESSION_ST_RUNNING,
    SESSION_ST_LOGOFF,
    SESSION_ST_DONE,
    SESSION_ST_FAILED,
};

/* What every session shares, owned by the engine (borrowed by sessions). */
struct session_host {
    struct event_base *base;
    const struct engine_config *cfg;     /* config_dir resolved */
    const struct result_sink *sink;
    struct connector *conn;
    void (*on_terminal)(void *arg);      /* after a session's DONE/FAILED was recorded */
    /* Optional: 1 + index of a live session of l's user launched after l, or 0 (used to tell
     * a session taken over by a newer logon of its user, reason `replaced`). */
    uint32_t (*relogged_by)(void *arg, const struct session_life *l);
    void *arg;
    /* Optional (engine_set_paint_tap): every paint of a live session, after its interpreter had
     * it, with the session's index (the studio's view of its one session). */
    void (*paint_tap)(void *tap_arg, uint32_t index, const struct rect *rects, size_t n);
    void *tap_arg;
};

struct session_ops {
    const char *name;
    /* Once per engine, before its first session: the kind's engine-wide part (*kind may stay
     * NULL). 0, or -1 (logged). */
    int (*kind_init)(const struct session_host *h, void **kind);
    /* Optional: adds the kind's own figures to a health record; sessions[0..n-1] are the
     * engine's sessions, all of this kind. */
    void (*kind_health)(void *kind, struct rec_health *rec, void *const *sessions, size_t n);
    /* After every session of the engine was freed (and the connector with them). */
    void (*kind_free)(void *kind);

    /* A new session (NEW); NULL when it cannot be made (logged, with the session's index). */
    void *(*create)(void *kind, const struct session_host *h, const struct engine_session_spec *spec);
    /* NEW -> CONNECTING: emits SESSION_LAUNCHED and starts connecting. */
    void (*start)(void *s);
    /* Orderly logoff; safe in any state, more than once. */
    void (*logoff)(void *s);
    /* Immediate end with a reason (e.g. the logoff deadline). */
    void (*kill)(void *s, enum failure_reason reason, const char *detail);
    /* Identity, state and final reason. */
    const struct session_life *(*life)(const void *s);
    /* The current screen (borrowed until return to the loop); -1 when there is none. */
    int (*screen)(void *s, struct screen_view *out);
    /* PNG of the current screen; 0 or -1 (logged). */
    int (*save_png)(void *s, const char *path);
    /* Optional, any thread, before the connector is freed: a start running on a connector
     * worker gives up at its next wait. */
    void (*abort_start)(void *s);
    /* Releases everything without records; only after the connector was freed. */
    void (*free)(void *s);
    /* Optional: the kind's driver (driver.h), whose `sess` is the session itself, for a caller
     * that drives a session without a workload (engine_session_driver). NULL: none. */
    const struct driver_ops *driver;
};

#endif

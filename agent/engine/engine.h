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

#include <stddef.h>
#include <stdint.h>

#include "agent/engine/engine_config.h"
#include "common/results.h"

struct event_base;
struct engine;
struct driver_ops;
struct rect;
struct screen_view;

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

/* Creates the engine and starts its connect threads and health timer; call it on the thread that
 * runs base (its run delay is the loop's in the health records). The sink is copied (its
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
 * afterwards. The idle callback fires once nothing is left. The logoffs start 0.5 ms apart (a
 * session's logoff steps then never come due in the same pass as a thousand others'). */
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

/* Every paint of a running session also goes to tap(arg, session index, rectangles) after its
 * interpreter had it; NULL removes it. For a caller that drives a session itself (the studio). */
void engine_set_paint_tap(struct engine *e,
                          void (*tap)(void *arg, uint32_t index, const struct rect *rects, size_t n),
                          void *arg);

/* The driver (input, screen) of a running session and the pointer its ops take, for a caller
 * that drives the session itself; meant for sessions started without a workload (nothing else
 * sends input). 0, or -1 when the session is not running or its kind has no driver. */
int engine_session_driver(struct engine *e, uint32_t session_index, const struct driver_ops **ops,
                          void **sess);

/* Loop-lag percentiles over the engine's whole life (for summaries). */
uint32_t engine_lag_total(const struct engine *e, uint32_t *p50_us, uint32_t *p99_us,
                          uint32_t *max_us);

/* Disconnects whatever is left (without records), joins the connect threads, frees everything.
 * Blocks for at most one connect watchdog period. Accepts NULL. */
void engine_free(struct engine *e);

#endif

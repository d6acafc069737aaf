/* state.h -- one interpreter's state (struct interp), shared by interp.c (the workload's steps,
 * conditions and samples) and interp_logon.c (the logon phase and its repaint requests). Nothing
 * outside agent/interp/ includes this; the public contract is interp.h. It includes neither of
 * those files' headers, so both depend on it and interp_logon.c never calls back into interp.c. */
#ifndef SESSMAX_INTERP_STATE_H
#define SESSMAX_INTERP_STATE_H

#include <event2/event.h>
#include <stddef.h>
#include <stdint.h>

#include "agent/interp/cond.h"
#include "agent/interp/host.h"
#include "agent/interp/think.h"
#include "common/results.h"

struct measure_track;
struct workload;
struct workload_step;

#define FRAMES_MAX 40
#define ECHO_RING 16                     /* input echoes kept for the session's echo floor */
#define LOGON_REPAINTS_MAX 3             /* repaint requests per logon */

enum phase { PH_IDLE, PH_LOGON, PH_RUN, PH_LOGOFF, PH_DONE, PH_DEAD };
enum blocked { BL_NONE, BL_WAIT, BL_UNTIL };
/* the wait step (or logon), the running timer's until, and its `fail` conditions */
enum { CS_WAIT, CS_TIMER, CS_FAIL, CS_COUNT };

struct frame {
    const struct workload_step *steps;
    size_t n, i;
    uint32_t rep_left;                   /* repeat: passes left after this one */
    const struct workload_step *timer;   /* set when the frame holds a timer's steps */
};

struct interp {
    const struct workload *wl;
    struct interp_host host;
    enum phase phase;
    enum blocked blocked;
    struct event *ev_step, *ev_tick, *ev_timeout, *ev_quiet;
    uint64_t t0_us;
    struct think_rng rng;
    struct measure_track *measures;
    struct frame stack[FRAMES_MAX];
    size_t depth;
    char *typed;                         /* expanded text of the type step in progress */
    const char *type_pos;
    struct cond_state cs[CS_COUNT];
    int cs_active[CS_COUNT];
    const struct workload_step *wait_step;
    const struct workload_step *prearmed;  /* wait step armed at the input before it */
    const struct workload_step *timer;   /* running timer, or NULL */
    uint64_t timer_start_us, timer_input_us;
    int logon_met;
    int loops_done;                      /* max_loops reached: idle until interp_logoff */
    uint64_t logon_paint_us;             /* logon: last paint the logon condition watched */
    uint32_t repaints;                   /* logon: repaint requests sent */
    uint64_t echo_probe_us;              /* an input waiting for its first paint; 0: none */
    uint64_t echo[ECHO_RING];
    uint32_t necho;
    enum failure_reason finish_reason;
    char finish_detail[RESULTS_DETAIL_LEN];
    uint32_t loops;
};

/* (Re)arms a one-shot timer delay_us from now. */
static inline void interp_arm(struct event *ev, uint64_t delay_us)
{
    struct timeval tv = { (time_t)(delay_us / 1000000u), (suseconds_t)(delay_us % 1000000u) };
    evtimer_add(ev, &tv);
}

/* The driver's current screen in *buf, or NULL when it has none. */
static inline const struct screen_view *interp_view(struct interp *in, struct screen_view *buf)
{
    if (!in->host.ops->screen || in->host.ops->screen(in->host.sess, buf) != 0)
        return NULL;
    return buf;
}

#endif

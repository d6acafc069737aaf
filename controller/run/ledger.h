/* ledger.h -- the session ledger of a run: the state of every session (new, launched, active,
 * ended, failed), which agent slot has it, the counts shown live, and the streak of failures
 * that tells a target that is gone. Pure bookkeeping: the run writes the same events to the
 * store, so the counts shown live match the database. */
#ifndef SESSMAX_LEDGER_H
#define SESSMAX_LEDGER_H

#include <stddef.h>
#include <stdint.h>

#include "common/results.h"
#include "controller/run/run_limits.h"
#include "controller/run/timeline.h"

enum ledger_state { LEDGER_NEW, LEDGER_LAUNCHED, LEDGER_ACTIVE, LEDGER_ENDED, LEDGER_FAILED };

struct ledger_session {
    uint8_t state;      /* enum ledger_state */
    int16_t agent;      /* slot, -1 none */
};

struct ledger {
    struct ledger_session *sess;
    uint32_t sessions;
    uint32_t assigned[RUN_MAX_AGENTS];   /* sessions given to each agent slot */
    uint32_t launched, active, failed, ended;
    uint32_t fail_streak;                /* failures since the last session became active */
    uint32_t streak_reasons[FAIL__COUNT];
    struct timeline active_at;           /* `active` over time (controller clock) */
};

/* 0, or -1 when out of memory. */
int ledger_init(struct ledger *l, uint32_t sessions);
void ledger_free(struct ledger *l);

/* Session `index` was given to agent `slot`. */
void ledger_launched(struct ledger *l, uint32_t index, int slot);
/* Session `index` could not be given to any agent (counts as launched and failed). */
void ledger_launch_failed(struct ledger *l, uint32_t index, enum failure_reason reason);
/* An event an agent reported for a session it owns (SESSION_ACTIVE / FAILED / ENDED), taken at
 * t_us on the controller's clock (the agent's time corrected by its clock offset). */
void ledger_event(struct ledger *l, uint32_t index, enum session_event_kind kind, enum failure_reason reason,
                  uint64_t t_us);
/* Sessions active at t_us (controller clock), as far as the events received so far tell. */
uint32_t ledger_active_at(const struct ledger *l, uint64_t t_us);
/* 1 when `session` exists and was given to agent `slot`. */
int ledger_owns(const struct ledger *l, int slot, uint32_t session);
/* Every live session of agent `slot` failed with FAIL_LOST at t_us; an agent fault is not a
 * target fault, so they leave the failure streak. Returns how many. */
uint32_t ledger_agent_lost(struct ledger *l, int slot, uint64_t t_us);
/* 1 when a session is launched and not yet active or over. */
int ledger_in_flight(const struct ledger *l);
/* 1 when the failure streak is not empty and every failure in it is connect or connect_timeout:
 * the target cannot be reached (as opposed to refusing the logons). */
int ledger_streak_unreachable(const struct ledger *l);
/* 1 when the failure streak is not empty and every failure in it is `reason`. */
int ledger_streak_only(const struct ledger *l, enum failure_reason reason);
/* "auth x3, timeout x2" from the failure streak. */
void ledger_streak_text(const struct ledger *l, char *buf, size_t len);

#endif

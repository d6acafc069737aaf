/* ledger.c -- the session ledger: per-session state, per-agent assignment, live counts. */
#include "controller/run/ledger.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ledger_init(struct ledger *l, uint32_t sessions)
{
    memset(l, 0, sizeof *l);
    l->sess = calloc(sessions ? sessions : 1, sizeof *l->sess);
    if (!l->sess)
        return -1;
    l->sessions = sessions;
    timeline_init(&l->active_at);
    for (uint32_t i = 0; i < sessions; i++)
        l->sess[i].agent = -1;
    return 0;
}

void ledger_free(struct ledger *l)
{
    free(l->sess);
    l->sess = NULL;
    timeline_free(&l->active_at);
}

static void streak_add(struct ledger *l, enum failure_reason reason)
{
    if (reason == FAIL_LOGOFF_INCOMPLETE)   /* it logged on and worked: the target is there */
        return;
    l->fail_streak++;
    l->streak_reasons[reason < FAIL__COUNT ? reason : FAIL_INTERNAL]++;
}

void ledger_launched(struct ledger *l, uint32_t index, int slot)
{
    l->launched++;
    l->sess[index] = (struct ledger_session){ LEDGER_LAUNCHED, (int16_t)slot };
    if (slot >= 0 && slot < RUN_MAX_AGENTS)
        l->assigned[slot]++;
}

void ledger_launch_failed(struct ledger *l, uint32_t index, enum failure_reason reason)
{
    l->launched++;
    l->sess[index].state = LEDGER_FAILED;
    l->failed++;
    streak_add(l, reason);
}

/* One session stops being active at t_us. */
static void inactive(struct ledger *l, uint64_t t_us)
{
    l->active--;
    timeline_add(&l->active_at, t_us, -1);
}

static void session_failed(struct ledger *l, uint32_t i, enum failure_reason reason, uint64_t t_us)
{
    if (l->sess[i].state == LEDGER_ACTIVE)
        inactive(l, t_us);
    l->sess[i].state = LEDGER_FAILED;
    l->failed++;
    streak_add(l, reason);
}

void ledger_event(struct ledger *l, uint32_t index, enum session_event_kind kind, enum failure_reason reason,
                  uint64_t t_us)
{
    struct ledger_session *s = &l->sess[index];
    int live = s->state == LEDGER_LAUNCHED || s->state == LEDGER_ACTIVE;
    switch (kind) {
    case SESSION_ACTIVE:
        if (s->state == LEDGER_LAUNCHED) {
            s->state = LEDGER_ACTIVE;
            l->active++;
            timeline_add(&l->active_at, t_us, +1);
            l->fail_streak = 0;
            memset(l->streak_reasons, 0, sizeof l->streak_reasons);
        }
        break;
    case SESSION_FAILED:
        if (live)
            session_failed(l, index, reason, t_us);
        break;
    case SESSION_ENDED:
        if (live) {
            if (s->state == LEDGER_ACTIVE)
                inactive(l, t_us);
            s->state = LEDGER_ENDED;
            l->ended++;
        }
        break;
    default:
        break;
    }
}

int ledger_owns(const struct ledger *l, int slot, uint32_t session)
{
    return session < l->sessions && l->sess[session].agent == (int16_t)slot;
}

uint32_t ledger_active_at(const struct ledger *l, uint64_t t_us)
{
    return timeline_active_at(&l->active_at, t_us);
}

uint32_t ledger_agent_lost(struct ledger *l, int slot, uint64_t t_us)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < l->sessions; i++)
        if (l->sess[i].agent == (int16_t)slot &&
            (l->sess[i].state == LEDGER_LAUNCHED || l->sess[i].state == LEDGER_ACTIVE)) {
            session_failed(l, i, FAIL_LOST, t_us);
            n++;
        }
    l->fail_streak -= n < l->fail_streak ? n : l->fail_streak;
    l->streak_reasons[FAIL_LOST] = 0;
    return n;
}

int ledger_in_flight(const struct ledger *l)
{
    for (uint32_t i = 0; i < l->sessions; i++)
        if (l->sess[i].state == LEDGER_LAUNCHED)
            return 1;
    return 0;
}

int ledger_streak_unreachable(const struct ledger *l)
{
    uint32_t unreachable = l->streak_reasons[FAIL_CONNECT] + l->streak_reasons[FAIL_CONNECT_TIMEOUT], all = 0;
    for (int i = 0; i < FAIL__COUNT; i++)
        all += l->streak_reasons[i];
    return all > 0 && unreachable == all;
}

int ledger_streak_only(const struct ledger *l, enum failure_reason reason)
{
    uint32_t all = 0;
    for (int i = 0; i < FAIL__COUNT; i++)
        all += l->streak_reasons[i];
    return all > 0 && l->streak_reasons[reason] == all;
}

void ledger_streak_text(const struct ledger *l, char *buf, size_t len)
{
    buf[0] = 0;
    for (int i = 1; i < FAIL__COUNT; i++)
        if (l->streak_reasons[i])
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s x%u", buf[0] ? ", " : "",
                     failure_reason_name((enum failure_reason)i), l->streak_reasons[i]);
}

/* live_alarms.h -- why the running test can no longer pass, for the live page's banner and
 * sessmax_live_valid{reason}: the verdict's own validity items (controller/score/verdict.c) that
 * already failed while the run goes on, as controller/run/livevalid.c judged them, and the
 * sessions failed so far by reason (the failures table, sessmax_live_session_failures_total). */
#ifndef SESSMAX_WEB_LIVE_ALARMS_H
#define SESSMAX_WEB_LIVE_ALARMS_H

#include <stddef.h>
#include <stdint.h>

#include "common/results.h"

#define WEB_LIVE_MAX_ALARMS 8

struct web_live_alarm {
    char key[16];                   /* the verdict rule's key: "auth", "agent_share", ... */
    char rule[128];                 /* the rule, e.g. "no agent lost" */
    char reason[448];               /* the words the verdict will give */
};

struct web_live_alarms {
    int judged;                     /* 1 once judged at least once */
    struct web_live_alarm a[WEB_LIVE_MAX_ALARMS];
    size_t n;
    uint32_t failed[FAIL__COUNT];   /* sessions failed so far, by reason */
};


/* Replaces the alarms with `n` of them (more than WEB_LIVE_MAX_ALARMS: the first ones kept). */
void web_live_alarms_set(struct web_live_alarms *x, const struct web_live_alarm *a, size_t n);
/* The sessions failed so far by reason (FAIL__COUNT counts). */
void web_live_failures(struct web_live_alarms *x, const uint32_t *failed);

#endif

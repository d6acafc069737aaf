/* eventlog.h -- the optional server-side event log (--event-log FILE): one line per action,
 *   session=<id> user=<name> action=<edit|zip9|...> seq=<n> input_us=<t> work_start_us=<t> work_end_us=<t> frame_sent_us=<t> write_wait_us=<d> ok=<0|1>
 * times are CLOCK_MONOTONIC microseconds (common/clock.h), comparable with the agent's on the same
 * host; input_us is when simhost read the input that triggered the action; write_wait_us (a
 * duration) is how long, between work_end_us and frame_sent_us, the frame waited for the client
 * to read (socket full) (docs/simhost.md). Thread-safe: one locked, flushed write per line. */
#ifndef SIM_EVENTLOG_H
#define SIM_EVENTLOG_H

#include <stdint.h>
#include <stdio.h>

struct sim_eventlog;

struct sim_event {
    unsigned session;
    const char *user;
    const char *action;
    unsigned seq;
    uint64_t input_us;           /* the triggering input was read (0: none, e.g. a command from a test) */
    uint64_t work_start_us, work_end_us, frame_sent_us;
    uint64_t write_wait_us;      /* duration: the paint waited for the client to read */
    int ok;
};

/* Opens (appends to) path; NULL with errno set on failure. */
struct sim_eventlog *sim_eventlog_open(const char *path);
void sim_eventlog_close(struct sim_eventlog *l);
/* No-op when l is NULL. */
void sim_eventlog_write(struct sim_eventlog *l, const struct sim_event *e);
/* Appends one preformatted line (ending in '\n'), as one write; no-op when l is NULL. Used by
 * the input log (--input-log, peer.c). */
void sim_eventlog_write_line(struct sim_eventlog *l, const char *line, size_t n);
/* Formats e as one line (with '\n') into buf; returns its length. */
int sim_eventlog_format(const struct sim_event *e, char *buf, size_t len);

#endif

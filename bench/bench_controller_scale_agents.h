/* bench_controller_scale_agents.h -- the synthetic agents of bench_controller_scale: every agent
 * link in one event-driven process, cheap enough to leave a CPU to the controller. */
#ifndef SESSMAX_BENCH_CONTROLLER_SCALE_AGENTS_H
#define SESSMAX_BENCH_CONTROLLER_SCALE_AGENTS_H

#include <stdint.h>

#ifndef AGENTS
#define AGENTS 200
#endif
#ifndef PER_AGENT
#define PER_AGENT 500
#endif
#ifndef LAUNCH_S
#define LAUNCH_S 100            /* launch window: 1,000 sessions/s */
#endif
#ifndef STEADY_S
#define STEADY_S 60
#endif
#ifndef BURST_AT_S
#define BURST_AT_S 20           /* into the steady state */
#endif
#ifndef BURST_S
#define BURST_S 15
#endif
#ifndef BURST_BATCH
#define BURST_BATCH 500u        /* samples in one burst batch */
#endif
#ifndef WINDOW
#define WINDOW 4u               /* burst batches unacknowledged per agent */
#endif
/* An ACK is late when it reaches the agent more than LATE_US after its batch left: one heartbeat
 * interval of the link (wire.h), four of the controller's 250 ms commits. It is dropped when the
 * link closes first (a link silent for 15 s, the heartbeat timeout, is closed). */
#define LATE_US 1000000ull
#define HIST_MS 5000

/* What the agents report to the controller side when they are finished. */
struct scale_report {
    uint32_t agents_ready, agents_lost, sessions;
    uint64_t samples, records, batches, acked, late, dropped;
    uint64_t burst_batches, burst_late;
    uint64_t burst_samples, burst_t0, burst_t1;   /* acked burst samples; first sent, last acked (wall µs) */
    uint64_t first_start;                         /* wall µs of the first START */
    uint64_t last_close;                          /* wall µs the last link closed */
    uint64_t stop_at;                             /* wall µs of the first STOP */
    uint64_t late_first, late_last;               /* wall µs the first and last late batch left */
    uint64_t cpu_us;                              /* CPU time of the agents' process */
    uint32_t hist[HIST_MS + 1];                   /* regular batch -> ACK latency, ms buckets (last: more) */
    uint32_t bhist[HIST_MS + 1];                  /* the same for burst batches */
};

/* The agents' process: reads "ADDR PIN\n" from pin_fd (nothing: the controller did not start),
 * connects AGENTS links, answers the controller until every link is done, writes its
 * scale_report to rep_fd. Returns an exit code. */
int scale_agents_main(int pin_fd, int rep_fd);

#endif

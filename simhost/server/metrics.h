/* metrics.h -- `--metrics-listen HOST:PORT`: simhost's own resources in node_exporter's names on
 * GET /metrics (the Prometheus text format), so a plan's target.metrics can point at the
 * embedded target as at a real host (`sessmax demo` does). It is the process, not the machine:
 * node_cpu_seconds_total for each CPU of its budget (the CPUs it may run on), user and system
 * its own time spread over them, idle the rest of the budget; node_memory_MemTotal_bytes the
 * machine's memory and node_memory_MemAvailable_bytes that less simhost's resident set;
 * node_logind_sessions its logged-on sessions. Served by a thread of its own (libevent's evhttp). */
#ifndef SIM_METRICS_H
#define SIM_METRICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sim_server;
struct sim_metrics;

/* The figures one reply reports. */
struct sim_metrics_figures {
    int cpus;                      /* the budget's CPUs (>= 1) */
    double user_s, system_s;       /* the process's CPU time */
    double wall_s;                 /* since the metrics started */
    double mem_total, rss;         /* bytes */
    int sessions;
};

/* Starts serving on `listen` ("HOST:PORT"). NULL after logging why. */
struct sim_metrics *sim_metrics_start(struct sim_server *srv, const char *listen);
/* Stops and joins the thread (NULL accepted). */
void sim_metrics_stop(struct sim_metrics *m);
/* Writes the reply for f; `idle_floor` (per CPU, in and out) keeps idle from going back when the
 * process briefly ran above its budget. */
void sim_metrics_write(FILE *o, const struct sim_metrics_figures *f, double *idle_floor);

#endif

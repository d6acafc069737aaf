/* hostmetrics.h -- what one scrape of a host's exporter says about its resources, and the rates
 * between two scrapes. Reads the exporters' documented metric names:
 *   node_exporter:    node_cpu_seconds_total{cpu,mode}, node_memory_MemTotal_bytes,
 *                     node_memory_MemAvailable_bytes, node_disk_read_bytes_total,
 *                     node_disk_written_bytes_total, node_disk_io_time_seconds_total{device},
 *                     node_network_receive_bytes_total, node_network_transmit_bytes_total,
 *                     node_network_speed_bytes{device}, node_logind_sessions (sessions)
 *   windows_exporter: windows_cpu_time_total{core,mode}, windows_memory_available_bytes,
 *                     windows_cs_physical_memory_bytes or windows_memory_physical_total_bytes,
 *                     windows_logical_disk_read_bytes_total, _write_bytes_total,
 *                     _idle_seconds_total{volume}, windows_net_bytes_received_total,
 *                     windows_net_bytes_sent_total, windows_net_current_bandwidth_bytes{nic},
 *                     windows_terminal_services_sessions{session_state="active"} (sessions)
 * CPU busy is every mode but idle and iowait; a disk's busy % is its I/O time (node) or 100 less
 * its idle time (windows) per second; loopback interfaces, partitions' device-mapper twins and
 * RAM/loop devices are left out so nothing is counted twice. Samples with their own timestamps (a
 * Prometheus server's /federate) are timed by them, others by the scrape's arrival. Pure. */
#ifndef SESSMAX_HOSTMETRICS_H
#define SESSMAX_HOSTMETRICS_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "controller/run/promtext.h"
#include "db/store_metrics.h"

#define HOSTMETRICS_DEVS 32        /* disks and interfaces each; more are ignored */

enum hostmetrics_kind { HOSTMETRICS_NONE, HOSTMETRICS_NODE, HOSTMETRICS_WINDOWS };

struct hostmetrics_dev {
    char name[64];
    double a, b;                   /* disk: bytes read, written; interface: bytes received, sent */
    double busy_s;                 /* disk: node I/O seconds or windows idle seconds; NaN none */
    double speed;                  /* interface: link speed in bytes/s; NaN or 0 unknown */
};

struct hostmetrics_reading {
    enum hostmetrics_kind kind;    /* NONE: no metric of either exporter in the scrape */
    double t_s;                    /* when: the samples' newest own timestamp, else the scrape's */
    int own_time;                  /* t_s came from the samples' timestamps */
    double cpu_total_s, cpu_idle_s;   /* summed over CPUs and modes; total 0: no CPU metric */
    double mem_total, mem_avail;   /* bytes; NaN when not reported */
    double sessions;               /* NaN when not reported */
    struct hostmetrics_dev disk[HOSTMETRICS_DEVS], nic[HOSTMETRICS_DEVS];
    size_t ndisk, nnic;
    size_t samples;                /* samples of the names above */
    const cpu_set_t *cpus;         /* count only these CPUs (node's cpu label, windows' core "G,N"); NULL: all */
};

/* Starts an empty reading taken at t_s (seconds, any monotonic origin). */
void hostmetrics_begin(struct hostmetrics_reading *r, double t_s);
/* Adds one parsed sample (any metric; unknown names are ignored). */
void hostmetrics_add(struct hostmetrics_reading *r, const struct promtext_sample *s);
/* Parses an exporter's whole reply into a reading taken at t_s, counting only `cpus` (NULL: every
 * CPU); *stats as promtext_parse's. */
void hostmetrics_read(struct hostmetrics_reading *r, const char *text, size_t len, double t_s, const cpu_set_t *cpus,
                      struct promtext_stats *stats);

/* The figures between `prev` and `cur` (same source, cur later) into *out (its t_us, source and
 * active left alone; figures that cannot be had NaN). Memory and sessions come from cur alone.
 * Returns 1 when time passed between the two (rates were computed), 0 when not (the same
 * Prometheus samples again: nothing new to store). */
int hostmetrics_rates(const struct hostmetrics_reading *prev, const struct hostmetrics_reading *cur,
                      struct store_target_metrics *out);

#endif

/* store_metrics.h -- the target's resources as the controller scraped them from the exporters a
 * plan's target.metrics names (table target_metrics, schema version 12): one row per scrape and
 * source, rates since the source's previous scrape. NaN is a figure the source does not report
 * (NULL in the table). Rows ride in the writer's batch like samples. */
#ifndef SESSMAX_STORE_METRICS_H
#define SESSMAX_STORE_METRICS_H

#include <stddef.h>
#include <stdint.h>

struct store;

#define STORE_METRICS_SOURCE_LEN 96

struct store_target_metrics {
    uint64_t t_us;                          /* controller wall clock of the scrape */
    char source[STORE_METRICS_SOURCE_LEN];  /* "HOST:PORT" or the Prometheus instance label */
    uint32_t active;                        /* sessions active at the scrape */
    double cpu_pct;                         /* busy % of every CPU of the host */
    double mem_used_bytes, mem_avail_bytes;
    double disk_read_bps, disk_write_bps;   /* bytes/s over the disks */
    double disk_busy_pct;                   /* the busiest disk */
    double net_rx_bps, net_tx_bps;          /* bytes/s over the interfaces, loopback excluded */
    double net_pct;                         /* the busiest interface's share of its link speed */
    double sessions;                        /* sessions the host reports */
};

/* A row with every figure NaN (not reported). */
void store_target_metrics_clear(struct store_target_metrics *m);
/* Appends one row of run `run`. 0, or -1 with the store's error. */
int store_add_target_metrics(struct store *st, int64_t run, const struct store_target_metrics *m);
/* The run's rows in time order (*out malloc'd, NULL when none). 0, or -1 with the store's error. */
int store_load_target_metrics(struct store *st, int64_t run, struct store_target_metrics **out, size_t *count);

#endif

/* metrics.h -- the live state of a run (live.h) in the Prometheus text exposition format
 * (version 0.0.4), for `/metrics` of `sessmax run --web`: gauges for sessions, index, baseline,
 * threshold, agents, target CPU, bandwidth and RTT; a histogram per timer and measure. Every
 * series carries the run's labels (run, name, platform, transport, network), escaped. The names
 * are listed in docs/web.md; the Grafana dashboard under deploy/grafana/ uses only these and the
 * OpenMetrics export's. */
#ifndef SESSMAX_WEB_METRICS_H
#define SESSMAX_WEB_METRICS_H

#include <stdio.h>

#include "controller/web/live.h"

void web_metrics_write(FILE *o, const struct web_live *w);

#endif

/* jsonl_sink.h -- standalone output: one JSON object per line for every record (sample, session
 * event, traffic, health) and the end-of-run summary (sessions by outcome, samples per timer
 * with p50/p95, loop lag). JSON is written by libjansson. Loop thread only. */
#ifndef SESSMAX_JSONL_SINK_H
#define SESSMAX_JSONL_SINK_H

#include <stdio.h>

#include "common/results.h"

struct jsonl_sink;

/* out is borrowed (e.g. stdout). NULL on allocation failure. */
struct jsonl_sink *jsonl_sink_new(FILE *out);
/* The sink to hand to the engine (valid while the jsonl_sink lives). */
const struct result_sink *jsonl_sink_result_sink(struct jsonl_sink *j);
/* Prints the summary (several lines) to f; lag figures come from the engine. Returns the number
 * of failed sessions plus failed samples (0: everything went well). */
unsigned jsonl_sink_summary(struct jsonl_sink *j, FILE *f, uint32_t lag_p50_us,
                            uint32_t lag_p99_us, uint32_t lag_max_us);
void jsonl_sink_free(struct jsonl_sink *j);

#endif

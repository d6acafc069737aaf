/* store_samples.h -- a run's samples as the reader hands them to score, report, compare and
 * export (part of the reader API, store_read.h). How they are stored: store_chunk.h. */
#ifndef SESSMAX_STORE_SAMPLES_H
#define SESSMAX_STORE_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

struct store;

struct store_sample_row {
    uint32_t session;
    uint32_t loop;
    uint32_t active;
    uint8_t ok, is_measure;
    uint64_t t_us;
    int64_t value_us;
    int64_t agent_us;             /* the agent's share of value_us; -1: not measured */
    int name_id;                  /* index into the names array returned alongside */
};
/* All samples of a run ordered by t_us (then insertion). names[] holds the distinct timer
 * names; every array is malloc'd and owned by the caller (store_free_samples). */
struct store_samples {
    struct store_sample_row *rows;
    size_t count;
    char **names;
    size_t name_count;
};
int store_load_samples(struct store *st, int64_t run, struct store_samples *out);

/* Streams the samples of a run in the order they were stored (arrival, not time order), one
 * stored chunk (up to 1,024 rows) at a time, without holding the run: fn gets the rows, the
 * number of samples the run held when the scan began (`expect`; a writer may add more) and
 * `names`, which holds every timer name met so far (name_id indexes it). A nonzero return from
 * fn stops the scan and is returned. Returns 0 with *names holding the run's names (the caller
 * frees them with store_free_samples), or -1 (store_errmsg) with *names empty. */
typedef int (*store_sample_fn)(void *ctx, const struct store_sample_row *rows, size_t n, size_t expect,
                               const struct store_samples *names);
int store_scan_samples(struct store *st, int64_t run, store_sample_fn fn, void *ctx, struct store_samples *names);
void store_free_samples(struct store_samples *s);

#endif

/* summary_samples.h -- what a summary keeps of a run's samples, fed a stored chunk at a time.
 *
 * A controller run at 100,000 sessions holds tens of millions of samples; loading them as reader
 * rows (40 bytes each, plus a merge buffer to put them in time order) took 1.8 GB at its closing
 * score. The figures need less: per timer its counts and its ok values (8 bytes each), and the
 * measure samples in time order as the score reads them (24 bytes each). Only the measure samples
 * are put in time order: each measure group by a stable merge on t_us, which gives the very
 * sequence that ordering every row by time and then picking the group's rows gives, so the
 * figures are the same whether the samples come streamed in arrival order or as a loaded run. */
#ifndef SESSMAX_SUMMARY_SAMPLES_H
#define SESSMAX_SUMMARY_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "controller/score/score.h"
#include "db/store_samples.h"

struct summary;

/* One timer name's samples. */
struct summary_name {
    size_t count, failed, suspect;
    int is_measure;                     /* OR of its rows' is_measure */
    int64_t *ok;                        /* ok values of its rows that are not measure samples */
    size_t nok, okcap, okmapped, okhint;
    struct score_sample *m;             /* its measure rows (arrival order until finished) */
    size_t nm, mcap, mmapped, mhint;    /* mapped: elements whose pages are mapped; hint: capacity */
    size_t nm_ok;                       /* of the measure rows, the ok ones */
    int64_t m_last;                     /* t_us of the last measure row added */
    int m_back;                         /* a measure row came earlier in time than the one before */
    uint32_t *share;                    /* the agent's share (µs) of its ok rows that have one */
    size_t nshare, sharecap, sharemapped;
};

struct summary_samples {
    struct summary_name *by_name;       /* indexed by the rows' name_id */
    size_t name_count, name_cap;
    char *const *names;                 /* borrowed; set by summary_samples_finish */
    size_t total, failed, suspect;
    size_t expect;                      /* samples expected in all (0: unknown) */
};

void summary_samples_init(struct summary_samples *a);
/* The number of samples about to be added, when known: the first rows added then size each
 * name's arrays for its share of them (as address space; pages are mapped as they fill). */
void summary_samples_expect(struct summary_samples *a, size_t expect);
/* Adds n rows whose name_id is below name_count. 0, or -1 when out of memory. */
int summary_samples_add(struct summary_samples *a, const struct store_sample_row *rows, size_t n,
                        size_t name_count);
/* Borrows the names (they must outlive a) and puts each measure group in time order; 0 or -1 (memory). */
int summary_samples_finish(struct summary_samples *a, char *const *names, size_t name_count);
/* The sample figures of out (measure, note, score, points unless curve is 0, sample counts, timers)
 * from a finished a, whose arrays are used up (free it after). 0, or -1 with err (allocation, a
 * value the score refuses). */
int summary_samples_figures(struct summary_samples *a, struct summary *out, int curve, char *err, size_t errlen);
void summary_samples_free(struct summary_samples *a);

#endif

/* resources.h -- why the knee came: the target's resources (the rows the run scraped from its
 * exporters, plan target.metrics, db/store_metrics.h) at the knee -- the index's crossing, or the
 * most sessions of a run that never crossed -- and the resource that ran out there. A resource
 * "ran out" when it stood at or above its limit (RESOURCES_LIMIT_* in % of its capacity); when
 * several did, the one nearest its capacity is named. Pure over the rows and the score, except
 * resources_load(). Does not include summary_types.h (which holds a struct resources). */
#ifndef SESSMAX_RESOURCES_H
#define SESSMAX_RESOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "common/score_rule.h"
#include "db/store_metrics.h"

struct store;

enum resource { RESOURCE_CPU, RESOURCE_MEMORY, RESOURCE_DISK, RESOURCE_NETWORK, RESOURCE__COUNT };

#define RESOURCES_LIMIT_CPU 85.0       /* % busy of every CPU */
#define RESOURCES_LIMIT_MEMORY 90.0    /* % of physical memory in use */
#define RESOURCES_LIMIT_DISK 80.0      /* % busy of the busiest disk */
#define RESOURCES_LIMIT_NETWORK 80.0   /* % of the busiest link */
#define RESOURCES_WINDOW_US 10000000ull   /* the knee's figures: the mean over this long before it */
#define RESOURCES_SOURCES_MAX 8

struct resources_source {
    char source[STORE_METRICS_SOURCE_LEN];
    size_t rows;
    double at[RESOURCE__COUNT];    /* % at the knee; NaN: not reported there */
    double max[RESOURCE__COUNT];   /* highest % over the run; NaN: never reported */
    double sessions_at;            /* sessions the host reported at the knee; NaN none */
    int bound;                     /* enum resource that ran out at the knee; -1 none */
};

struct resources {
    struct store_target_metrics *rows;   /* owned; in time order */
    size_t count;
    int at_knee;                   /* 1: at the index's crossing; 0: at the most sessions (not reached) */
    uint32_t active;               /* sessions active there (from the score, or the rows) */
    uint64_t t_us;                 /* when (the crossing; 0 when at the most sessions) */
    struct resources_source src[RESOURCES_SOURCES_MAX];
    size_t nsrc;
};

/* "CPU", "memory", "disk", "network". */
const char *resources_name(enum resource r);
/* The % of resource `r` in one row (memory: used / (used + available)); NaN when not reported. */
double resources_pct(const struct store_target_metrics *m, enum resource r);

/* Computes the figures of `rows` (taken over: freed by resources_free) against the score `sc`. */
void resources_compute(struct store_target_metrics *rows, size_t n, const struct score_result *sc,
                       struct resources *out);
/* Reads run `run`'s rows and computes. 0 (no rows: count 0), or -1 with err. */
int resources_load(struct store *st, int64_t run, const struct score_result *sc, struct resources *out, char *err,
                   size_t errlen);
void resources_free(struct resources *r);

/* The summary line of source i: "at the knee (84 active): CPU 97 %, memory 41 %, disk 12 % busy,
 * network 3 %: CPU-bound", or "... : no resource ran out"; "- (not measured: ...)" without rows. */
void resources_line(const struct resources *r, size_t i, char *buf, size_t len);
/* "CPU" (the bound resource of the first source that has one), "none" (measured, nothing ran
 * out) or "-" (not measured): compare and matrix cells. */
const char *resources_bound_label(const struct resources *r);
/* For a cell of several runs: adds r's label to buf ("" to start) unless it is there or "-"; the
 * cell reads "CPU", "CPU/memory", "none"; still "" after every run: not measured ("-"). */
void resources_bound_add(char *buf, size_t len, const struct resources *r);

#endif

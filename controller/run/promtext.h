/* promtext.h -- a parser of the Prometheus text exposition format (version 0.0.4, which
 * node_exporter, windows_exporter and a Prometheus server's /federate write; OpenMetrics' "# EOF"
 * is accepted too). One line is one sample: NAME{LABEL="VALUE",...} VALUE [TIMESTAMP_MS].
 * Comments (# HELP, # TYPE) and blank lines are skipped; a malformed line is counted and skipped,
 * never fatal: an exporter's one odd line must not lose the scrape. Input comes from the network:
 * every length is bounded, nothing is trusted. Pure: no I/O, no allocation. */
#ifndef SESSMAX_PROMTEXT_H
#define SESSMAX_PROMTEXT_H

#include <stddef.h>
#include <stdint.h>

#define PROMTEXT_NAME_MAX 128      /* metric and label names (longer: the line is malformed) */
#define PROMTEXT_VALUE_MAX 128     /* label values, unescaped (longer: the line is malformed) */
#define PROMTEXT_LABELS_MAX 12     /* labels per sample (more: the line is malformed) */

struct promtext_label {
    char name[PROMTEXT_NAME_MAX];
    char value[PROMTEXT_VALUE_MAX];
};

struct promtext_sample {
    char name[PROMTEXT_NAME_MAX];
    struct promtext_label labels[PROMTEXT_LABELS_MAX];
    size_t nlabels;
    double value;                  /* may be NaN or +-Inf as the format allows */
    int has_ts;
    int64_t ts_ms;                 /* the sample's own timestamp (ms since the epoch) when has_ts */
};

/* Called for each sample; returning non-zero stops the parse. */
typedef int (*promtext_cb)(void *ctx, const struct promtext_sample *s);

struct promtext_stats {
    size_t lines, samples, malformed;
    size_t first_bad_line;         /* 1-based; 0 when every line parsed */
};

/* Parses `len` bytes of `text` (need not be NUL-terminated). Returns 0 when the whole text was
 * read, 1 when the callback stopped it; *stats (may be NULL) says how many lines were bad. */
int promtext_parse(const char *text, size_t len, promtext_cb cb, void *ctx, struct promtext_stats *stats);

/* The value of label `name` of s, NULL when it has none. */
const char *promtext_label(const struct promtext_sample *s, const char *name);

#endif

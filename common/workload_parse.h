/* workload_parse.h -- private to common/workload*.c: the parse context shared by the top-level
 * parser (workload.c), the step/condition parser (workload_step.c) and the drives parser
 * (workload_drives.c), and the small parsers all of them use. Builds on workload_model.h only. */
#ifndef SESSMAX_WORKLOAD_PARSE_H
#define SESSMAX_WORKLOAD_PARSE_H

#include <stddef.h>

#include "common/workload_model.h"
#include "common/ydoc.h"

struct workload_parse {
    const struct ydoc *doc;
    struct workload *wl;
    char *err;
    size_t errlen;
};

/* Puts "file:line:col: message" for node `at` (printf-style) into p->err; returns -1. The
 * parsers alias it as ERR. */
#define WORKLOAD_PARSE_ERR(p, at, ...) ydoc_error((p)->doc, (at), (p)->err, (p)->errlen, __VA_ARGS__)

/* Copies a name of at most RESULTS_NAME_LEN-1 chars of [A-Za-z0-9_.-]. */
int workload_parse_name(struct workload_parse *p, const struct ydoc_node *n, const char *what,
                        char out[RESULTS_NAME_LEN]);

#endif

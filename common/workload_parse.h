/* workload_parse.h -- private to common/workload*.c: the parse context shared by the top-level
 * parser (workload.c), the step/condition parser (workload_step.c) and the drives parser
 * (workload_drives.c). */
#ifndef SESSMAX_WORKLOAD_PARSE_H
#define SESSMAX_WORKLOAD_PARSE_H

#include "common/workload.h"
#include "common/ydoc.h"

struct workload_parse {
    const struct ydoc *doc;
    struct workload *wl;
    char *err;
    size_t errlen;
};

#endif

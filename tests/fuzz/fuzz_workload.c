/* fuzz_workload.c -- libFuzzer harness for the workload loader (common/workload.c and
 * workload_step.c over the YAML layer): any bytes either load or give a one-line
 * "file:line:col: ..." error; nothing may crash, leak, hang or read out of bounds. What loads is
 * checked as the agent uses it: the flattened size is computed (linear) and {user} expansion of
 * every typed text fits the length it announces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/workload.h"

static int check_step(void *ctx, const struct workload_step *s, const char *timer)
{
    (void)ctx;
    (void)timer;
    if (s->kind == WORKLOAD_STEP_TYPE) {
        char buf[64];
        size_t need = workload_expand(s->text, "user\"<>'{n}", buf, sizeof buf);
        if (strlen(buf) != (need < sizeof buf ? need : sizeof buf - 1))
            abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[WORKLOAD_ERR_LEN];
    err[0] = '\0';
    struct workload *wl = workload_load_string("fuzz.yaml", (const char *)data, size, err, sizeof err);
    if (!wl) {
        if (!err[0] || strchr(err, '\n')) {     /* an error is always one non-empty line */
            fprintf(stderr, "not one line: '%s'\n", err);
            abort();
        }
        return 0;
    }
    /* walk only what is small enough to walk: the flattened size is the walk's cost */
    if (workload_flat_steps(wl, WORKLOAD_PART_LOOP) < 4096)
        workload_walk(wl, WORKLOAD_PART_LOOP, check_step, NULL);
    if (workload_flat_steps(wl, WORKLOAD_PART_LOGOFF) < 4096)
        workload_walk(wl, WORKLOAD_PART_LOGOFF, check_step, NULL);
    workload_free(wl);
    return 0;
}

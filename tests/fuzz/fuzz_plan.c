/* fuzz_plan.c -- libFuzzer harness for the plan loader (controller/run/plan.c over the YAML
 * layer): any bytes either load or give a one-line "file:line:col: ..." error; nothing may
 * crash, leak, hang or read out of bounds. The loader reads no other file (the workload a plan
 * names is loaded later, by the plan check). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/run/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    err[0] = '\0';
    struct plan *p = plan_load_string("/nonexistent/fuzz-plan.yaml", (const char *)data, size, err,
                                      sizeof err);
    if (!p) {
        if (!err[0] || strchr(err, '\n')) {
            fprintf(stderr, "not one line: '%s'\n", err);
            abort();
        }
        return 0;
    }
    char user[256];
    plan_user_name(p, 0, user, sizeof user);
    plan_user_name(p, UINT32_MAX, user, sizeof user);
    plan_free(p);
    return 0;
}

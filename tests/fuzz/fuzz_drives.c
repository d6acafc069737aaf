/* fuzz_drives.c -- libFuzzer harness for the plan's drives as the agent receives them in a
 * CONFIG (`drives`, one YAML flow map {NAME: {files: {FILE: SIZE}}}) and adds them to the
 * workload with workload_add_drives_text (common/workload_drives.c). Any text is added or
 * refused with one non-empty line; nothing may crash, leak or read out of bounds. What is added
 * must survive a round trip: workload_drives_text, added to a fresh workload, gives the same text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/workload.h"
#include "common/workload_drives.h"

/* A workload without drives whose copy timer names a plan drive, as a plan with drives sends. */
static const char base[] =
    "version: 1\nname: fuzz\nregions: {r: [0, 0, 8, 8]}\nlogon: {change: r, timeout: 5s}\nloop:\n"
    "  - timer: t\n    copy: {to: server, size: share/f}\n    steps: [{key: enter}]\n"
    "    until: {change: r, timeout: 1s}\n";

static struct workload *fresh(void)
{
    char err[WORKLOAD_ERR_LEN];
    struct workload *wl = workload_load_string("fuzz.yaml", base, sizeof base - 1, err, sizeof err);
    if (!wl) {
        fprintf(stderr, "base workload: %s\n", err);
        abort();
    }
    return wl;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), err[WORKLOAD_ERR_LEN];
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct workload *wl = fresh();
    err[0] = '\0';
    if (workload_add_drives_text(wl, "the plan's drives", text, err, sizeof err) != 0) {
        if (!err[0] || strchr(err, '\n')) {
            fprintf(stderr, "not one line: '%s'\n", err);
            abort();
        }
    } else {
        (void)workload_resolve_copies(wl, 1, err, sizeof err);
        char *out = workload_drives_text(wl->drives, wl->ndrives);
        struct workload *wl2 = fresh();
        if (out && workload_add_drives_text(wl2, "again", out, err, sizeof err) != 0) {
            fprintf(stderr, "'%s' does not load back: %s\n", out, err);
            abort();
        }
        char *out2 = out ? workload_drives_text(wl2->drives, wl2->ndrives) : NULL;
        if (out2 && strcmp(out, out2)) {
            fprintf(stderr, "round trip changed '%s' into '%s'\n", out, out2);
            abort();
        }
        free(out);
        free(out2);
        workload_free(wl2);
    }
    workload_free(wl);
    free(text);
    return 0;
}

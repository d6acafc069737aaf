/* cmd_validate.c -- `sessmax validate PLAN`: checks a plan, its workload and its score section
 * without connecting to anything, and says what a run would do. */
#include "controller/cmd.h"

#include "common/workload.h"
#include "controller/plan.h"
#include "controller/plan_check.h"

#include <stdio.h>
#include <string.h>

static int validate(int argc, char **argv)
{
    const char *path = NULL;
    int quiet = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet"))
            quiet = 1;
        else if (argv[i][0] == '-' || path)
            return cmd_usage_error(&cmd_validate, "unexpected argument '%s'", argv[i]);
        else
            path = argv[i];
    }
    if (!path)
        return cmd_usage_error(&cmd_validate, "missing PLAN");
    struct plan_checked pc;
    char err[PLAN_ERR_LEN];
    int rc = plan_check_load(path, &pc, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "%s\n", err);
        return rc;
    }
    if (!quiet)
        plan_check_describe(&pc, stdout);
    plan_check_free(&pc);
    return 0;
}

const struct cmd cmd_validate = {
    "validate", "check a test plan and its workload without running it",
    "usage: sessmax validate [-q] PLAN\n\n"
    "Loads PLAN (YAML, see docs/plan-reference.md), the workload it names and its score and\n"
    "thresholds sections, and reports the first problem as FILE:LINE:COL: message. Nothing is\n"
    "connected, started or written. The password source is checked for existence (and a\n"
    "password file for mode 0600) but never read into output.\n\n"
    "Exit: 0 valid, 65 invalid plan or workload, 66 missing file, 78 bad credentials source.\n",
    validate,
};

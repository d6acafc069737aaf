/* cmd_validate.c -- `sessmax validate PLAN`: checks a plan, its workload and its score section
 * without connecting to anything, and says what a run would do. */
#include "controller/cli/cmd_validate.h"

#include "common/workload.h"
#include "controller/run/plan.h"
#include "controller/run/plan_check.h"

#include <getopt.h>
#include <stdio.h>

static int validate(int argc, char **argv)
{
    static const struct option opts[] = { { "quiet", no_argument, NULL, 'q' }, { NULL, 0, NULL, 0 } };
    int quiet = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "q", opts, NULL)) != -1) {
        if (c != 'q')
            return cmd_usage_error(&cmd_validate, "unknown option '%s'", argv[optind - 1]);
        quiet = 1;
    }
    if (optind == argc)
        return cmd_usage_error(&cmd_validate, "missing PLAN");
    if (optind != argc - 1)
        return cmd_usage_error(&cmd_validate, "unexpected argument '%s'", argv[optind + 1]);
    const char *path = argv[optind];
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

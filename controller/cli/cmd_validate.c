/* cmd_validate.c -- `sessmax validate FILE`: checks a plan (with its workload and score section,
 * and how many samples it can yield) or a workload, without connecting to anything. */
#include "controller/cli/cmd_validate.h"

#include "common/names.h"
#include "common/workload.h"
#include "common/workload_drives.h"
#include "controller/run/plan.h"
#include "controller/run/plan_check.h"

#include "common/ydoc.h"
#include "controller/run/plan_estimate.h"
#include "controller/score/textesc.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

/* A workload has logon:/loop:, a plan target:/workload:; anything else is checked as a plan. */
static int looks_like_workload(const char *path)
{
    char err[512];
    struct ydoc *doc = ydoc_load_file(path, err, sizeof err);
    if (!doc)
        return 0;
    const struct ydoc_node *r = doc->root;
    int wl = r && r->kind == YDOC_MAP && (ydoc_get(r, "loop") || ydoc_get(r, "logon")) &&
             !ydoc_get(r, "target") && !ydoc_get(r, "workload");
    ydoc_free(doc);
    return wl;
}

static int validate_workload(const char *path, int quiet)
{
    char err[WORKLOAD_ERR_LEN];
    struct workload *wl = workload_load_file(path, err, sizeof err);
    if (!wl) {
        fprintf(stderr, "%s\n", err);
        return EX_DATAERR;
    }
    char esc[512];
    if (!name_is_safe(wl->name)) {   /* the label of every run of it: the timer names' character set */
        fprintf(stderr, "%s: workload name '%s': use %s (1 to %d characters)\n", textesc(esc, sizeof esc, path,
                TEXTESC_LINE), textesc(err, sizeof err, wl->name, TEXTESC_LINE), NAMES_CHARSET_TEXT, RESULTS_NAME_LEN - 1);
        workload_free(wl);
        return EX_DATAERR;
    }
    if (!quiet) {
        printf("%s: valid workload '%s' (sha256 %.12s...)\n  desktop    %ux%u, %u bpp\n  timers     %zu%s",
               textesc(esc, sizeof esc, path, TEXTESC_LINE), wl->name, wl->hash, wl->width, wl->height, wl->bpp, wl->ntimers, wl->ntimers ? ":" : "");
        /* "timers 2: a b", "measures 0" (no colon before an empty list) */
        for (size_t i = 0; i < wl->ntimers; i++)
            printf(" %s%s", wl->timers[i], workload_copy(wl, wl->timers[i]) ? " (copy)" : "");
        printf("\n  measures   %zu%s", wl->nmeasures, wl->nmeasures ? ":" : "");
        for (size_t i = 0; i < wl->nmeasures; i++)
            printf(" %s", wl->measures[i].name);
        printf("\n  drives     %zu\n", wl->ndrives);
    }
    workload_free(wl);
    return 0;
}

/* A valid plan whose run certainly cannot collect the samples its score needs is inconclusive
 * already: one line on stderr (with -q too) and EXIT_INCONCLUSIVE; else 0. */
static int cannot_score(const char *path, const struct plan_checked *pc)
{
    struct plan_estimate e;
    plan_estimate(pc, &e);
    if (e.enough)
        return 0;
    char esc[512];
    fprintf(stderr, "sessmax validate: %s: valid, but its run cannot collect the samples a score needs (", textesc(esc,
            sizeof esc, path, TEXTESC_LINE));
    if (e.measure[0])
        fprintf(stderr, "at most %llu '%s' samples, a baseline needs %u", (unsigned long long)e.samples_max, e.measure,
                e.needed);
    else if (e.focus_judged)
        fprintf(stderr, "at most %llu samples of the focus timer, the verdict needs %u",
                (unsigned long long)e.focus_max, e.needed);
    else
        fprintf(stderr, "no measure group '%s' and no focus: timer", pc->score.params.measure);
    fprintf(stderr, "): it would end inconclusive\n");
    return EXIT_INCONCLUSIVE;
}

static int validate(int argc, char **argv)
{
    static const struct option opts[] = { { "quiet", no_argument, NULL, 'q' },
                                          { "workload", no_argument, NULL, 'w' }, { NULL, 0, NULL, 0 } };
    int quiet = 0, workload = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "q", opts, NULL)) != -1) {
        if (c == 'q')
            quiet = 1;
        else if (c == 'w')
            workload = 1;
        else
            return cmd_usage_error(&cmd_validate, "unknown option '%s'", argv[optind - 1]);
    }
    if (optind == argc)
        return cmd_usage_error(&cmd_validate, "missing FILE");
    if (optind != argc - 1)
        return cmd_usage_error(&cmd_validate, "unexpected argument '%s'", argv[optind + 1]);
    const char *path = argv[optind];
    if (workload || looks_like_workload(path))
        return validate_workload(path, quiet);
    struct plan_checked pc;
    char err[PLAN_ERR_LEN];
    int rc = plan_check_load_runnable(path, NULL, 0, 1, &pc, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "%s\n", err);
        return rc;
    }
    if (!quiet) {
        plan_check_describe(&pc, stdout);
        plan_estimate_print(&pc, stdout);
    }
    rc = cannot_score(path, &pc);
    plan_check_free(&pc);
    return rc;
}

const struct cmd cmd_validate = {
    "validate", "check a test plan and its workload without running it",
    "usage: sessmax validate [-q] [--workload] FILE\n\n"
    "FILE is a plan or a workload, told apart by its content (logon:/loop: make a workload;\n"
    "--workload says so). A plan is loaded with the workload it names and its score and\n"
    "thresholds sections; the first problem is reported as FILE:LINE:COL: message. Nothing is\n"
    "connected, started or written. The password source is checked for existence (and a\n"
    "password file for mode 0600) but never read into output. For a plan it also estimates\n"
    "whether the run can yield the samples a score needs (a baseline's, or with focus: the focus\n"
    "timer's) and says why not: a valid plan that cannot is inconclusive, -q or not.\n",
    validate,
};

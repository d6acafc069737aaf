/* main.c -- sessmax entry point: dispatches to a verb, prints help and the version. */
#include "controller/cli/cmd_agents.h"
#include "controller/cli/cmd_compare.h"
#include "controller/cli/cmd_dashboard.h"
#include "controller/cli/cmd_db.h"
#include "controller/cli/cmd_demo.h"
#include "controller/cli/cmd_export.h"
#include "controller/cli/cmd_matrix.h"
#include "controller/cli/cmd_report.h"
#include "controller/cli/cmd_run.h"
#include "controller/cli/cmd_score.h"
#include "controller/cli/cmd_serve.h"
#include "controller/cli/cmd_trend.h"
#include "controller/cli/cmd_validate.h"
#include "controller/cli/exit_codes.h"

#include "common/log.h"
#include "common/nodump.h"

#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cmd *const verbs[] = {
    &cmd_run, &cmd_matrix, &cmd_validate, &cmd_score, &cmd_compare, &cmd_trend, &cmd_report, &cmd_dashboard,
    &cmd_serve, &cmd_export, &cmd_demo, &cmd_agents, &cmd_db, NULL,
};

static const struct cmd *find_verb(const char *name)
{
    for (int i = 0; verbs[i]; i++)
        if (strcmp(verbs[i]->name, name) == 0)
            return verbs[i];
    return NULL;
}

static void print_overview(FILE *out)
{
    fprintf(out, "usage: sessmax VERB [options]   (sessmax help VERB for details)\n\n"
                 "How many users can this RDP host carry? Verbs:\n");
    for (int i = 0; verbs[i]; i++)
        fprintf(out, "  %-10s %s\n", verbs[i]->name, verbs[i]->summary);
    fprintf(out, "  %-10s %s\n", "help", "show this overview, or the usage of one verb");
    fputc('\n', out);
    exit_codes_print(out);
}

/* `sessmax help VERB` and `sessmax VERB --help`: the usage, then the one list of exit codes. */
static void print_verb_help(const struct cmd *c)
{
    printf("sessmax %s -- %s\n\n%s\n", c->name, c->summary, c->usage);
    exit_codes_print(stdout);
}

static int help(int argc, char **argv)
{
    if (argc < 2) {
        print_overview(stdout);
        return 0;
    }
    const struct cmd *c = find_verb(argv[1]);
    if (!c) {
        fprintf(stderr, "sessmax help: unknown verb '%s'\n", argv[1]);
        return EX_USAGE;
    }
    print_verb_help(c);
    return 0;
}

/* The analysis verbs load whole runs (a million samples is over 100 MB of arrays) that grow by
 * doubling and are freed and taken again between phases. Served from the heap with some slack
 * instead of a fresh mmap (and its page faults) each time, `sessmax score` of 1,000,000 samples
 * takes about 15 % less CPU for about 15 MB more peak memory. Freed memory stays with the
 * process (they are short-lived), so a later phase reuses pages an earlier one touched. */
static void malloc_for_analysis(const char *verb)
{
    static const char *const analysis[] = { "score", "report", "compare", "export", "dashboard", "trend", NULL };
    for (int i = 0; analysis[i]; i++)
        if (!strcmp(verb, analysis[i])) {
            mallopt(M_MMAP_THRESHOLD, 32 << 20);
            mallopt(M_TOP_PAD, 16 << 20);
            mallopt(M_TRIM_THRESHOLD, 1 << 30);
            return;
        }
}

int main(int argc, char **argv)
{
    log_init("sessmax", LOG_INFO);
    nodump_apply();   /* run, serve and demo hold tokens and passwords */
    signal(SIGPIPE, SIG_IGN);
    const char *lvl = getenv("SESSMAX_LOG");
    if (lvl && log_parse_level(lvl) >= 0)
        log_set_level((enum log_level)log_parse_level(lvl));
    if (argc < 2) {
        print_overview(stderr);
        return EX_USAGE;
    }
    const char *verb = argv[1];
    malloc_for_analysis(verb);
    if (!strcmp(verb, "--version") || !strcmp(verb, "version")) {
        printf("sessmax %s\n", SESSMAX_VERSION);
        return 0;
    }
    if (!strcmp(verb, "help") || !strcmp(verb, "--help") || !strcmp(verb, "-h"))
        return help(argc - 1, argv + 1);
    const struct cmd *c = find_verb(verb);
    if (!c) {
        fprintf(stderr, "sessmax: unknown verb '%s' (try: sessmax help)\n", verb);
        return EX_USAGE;
    }
    if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
        print_verb_help(c);
        return 0;
    }
    return c->run(argc - 1, argv + 1);
}

/* cmd_matrix.c -- `sessmax matrix PLAN --vary KEY=V1,V2 [--vary ...] [--repeat N]`: every cell of
 * the product run into one database (controller/run/matrix.c), then the table. */
#include "controller/cli/cmd_matrix.h"

#include "controller/run/matrix.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int matrix(int argc, char **argv)
{
    static const struct option opts[] = {
        { "vary", required_argument, NULL, 'V' }, { "repeat", required_argument, NULL, 'n' },
        { "db", required_argument, NULL, 'd' }, { "format", required_argument, NULL, 'f' },
        { "resume", no_argument, NULL, 'R' }, { "output", required_argument, NULL, 'o' },
        { "agent-log", required_argument, NULL, 'l' }, { "plain", no_argument, NULL, 'p' },
        { NULL, 0, NULL, 0 },
    };
    struct matrix_spec spec;
    struct matrix_options o = { .spec = &spec, .format = MATRIX_TEXT, .tty = -1 };
    const char *table_path = NULL;
    char err[512], *end;
    long n;
    int c, fmt;
    matrix_spec_init(&spec);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 'V':
            if (matrix_spec_add_vary(&spec, optarg, err, sizeof err) < 0)
                return cmd_usage_error(&cmd_matrix, "%s", err);
            break;
        case 'n':
            errno = 0;
            n = strtol(optarg, &end, 10);
            if (errno || *end || n < 1 || n > MATRIX_MAX_REPEAT)
                return cmd_usage_error(&cmd_matrix, "--repeat '%s': a number of runs per cell, 1-%d", optarg,
                                       MATRIX_MAX_REPEAT);
            spec.repeat = (unsigned)n;
            break;
        case 'f':
            if ((fmt = matrix_format_parse(optarg)) < 0)
                return cmd_usage_error(&cmd_matrix, "--format '%s': use text, csv, json or markdown", optarg);
            o.format = (enum matrix_format)fmt;
            break;
        case 'd': o.db_path = optarg; break;
        case 'R': o.resume = 1; break;
        case 'o': table_path = optarg; break;
        case 'l': o.agent_log = optarg; break;
        case 'p': o.tty = 0; break;
        default: return cmd_usage_error(&cmd_matrix, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind == argc)
        return cmd_usage_error(&cmd_matrix, "missing PLAN");
    if (optind != argc - 1)
        return cmd_usage_error(&cmd_matrix, "unexpected argument '%s'", argv[optind + 1]);
    if (spec.naxes == 0)
        return cmd_usage_error(&cmd_matrix, "nothing to vary: give at least one --vary KEY=V1,V2");
    o.plan_path = argv[optind];
    /* a machine-readable table on stdout keeps the runs' progress off it */
    if (!table_path && (o.format == MATRIX_CSV || o.format == MATRIX_JSON))
        o.out = stderr;
    if (table_path && !(o.table = fopen(table_path, "w"))) {
        fprintf(stderr, "sessmax matrix: %s: cannot write: %s\n", table_path, strerror(errno));
        return EX_CANTCREAT;
    }
    int rc = matrix_execute(&o);
    if (o.table && fclose(o.table) != 0 && rc < 64) {
        fprintf(stderr, "sessmax matrix: %s: cannot write: %s\n", table_path, strerror(errno));
        rc = EX_IOERR;
    }
    return rc;
}

const struct cmd cmd_matrix = {
    "matrix", "run a plan once per cell of --vary axes into one database and print the comparison table",
    "usage: sessmax matrix PLAN --vary KEY=V1,V2 [--vary KEY=...] [--repeat N] [--resume] [--db FILE]\n"
    "                      [--format text|csv|json|markdown] [-o FILE] [--agent-log FILE] [--plain]\n\n"
    "Runs PLAN once per cell of the product of the --vary axes (the last --vary changes fastest),\n"
    "--repeat N times each (default 1), one after the other, into one results database (the plan's\n"
    "`results:`, or --db). Every run is an ordinary run, stored with its matrix and its cell tag\n"
    "(e.g. \"platform=ws2022,network=wan-100ms\"). Keys:\n"
    "  platform=LABEL[@HOST[:PORT]],...   the platform label; with @HOST[:PORT] the cell's target\n"
    "                                     is there (a second server, or a simhost with another codec)\n"
    "  transport=tcp,gateway   client=builtin,PRESET   network=lan,wan-100ms,...   sessions=N,M\n"
    "Every cell's plan is checked before the first run starts.\n\n"
    "Then prints the table: one row per platform (and per value of the other varied keys but one),\n"
    "one column per value of the first varied key that is not platform; each cell holds smax (mean\n"
    "and min-max over repeats), baseline and kbit/s per session. csv and json print one record per\n"
    "cell (on stdout; the runs' progress then goes to stderr); -o writes the table to FILE.\n\n"
    "--resume continues the newest matrix of the same plan text, --vary axes and --repeat in the\n"
    "database: cells whose runs completed are not run again; an interrupted (Ctrl-C, killed) run is.\n"
    "Ctrl-C logs the current run's sessions off and stops the matrix after it. The matrix passes\n"
    "when every run completed, whatever their verdicts; it is inconclusive when it was interrupted\n"
    "or a run did not complete.\n",
    matrix,
};

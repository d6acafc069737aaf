/* cmd_db.c -- `sessmax db check FILE`: is a results file a healthy sessmax database?
 * Prints the store's report (schema version, integrity, what it holds) on stdout when healthy,
 * the finding on stderr otherwise. */
#include "controller/cli/cmd_db.h"

#include "db/store.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: sessmax db check FILE\n"
    "\n"
    "Checks a results database: that it is a sessmax file, its schema version (older versions\n"
    "are migrated the next time sessmax writes to them; newer ones need a newer sessmax), SQLite's\n"
    "integrity check, and how many runs, sessions and samples it holds. The file is opened\n"
    "read-only and never changed.\n"
    "\n"
    "Exit codes: 0 healthy; 65 not a sessmax database, corrupt, or a newer schema;\n"
    "66 FILE missing or unreadable; 64 usage error.\n"
    "\n"
    "Example:\n"
    "  sessmax db check results/campaign.db\n";

static int check(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "sessmax db: %s: %s\n", path, strerror(errno));
        return EX_NOINPUT;
    }
    if (!S_ISREG(sb.st_mode)) {
        fprintf(stderr, "sessmax db: %s: not a regular file\n", path);
        return EX_NOINPUT;
    }
    char report[4096];
    if (store_check(path, report, sizeof report) == 0) {
        fputs(report, stdout);
        return 0;
    }
    for (char *line = strtok(report, "\n"); line; line = strtok(NULL, "\n"))
        fprintf(stderr, "sessmax db: %s\n", line);
    return EX_DATAERR;
}

static int db(int argc, char **argv)
{
    static const struct option opts[] = { { NULL, 0, NULL, 0 } };
    optind = 1;
    opterr = 0;
    if (getopt_long(argc, argv, "", opts, NULL) != -1)
        return cmd_usage_error(&cmd_db, "unknown option '%s'", argv[optind - 1]);
    argc -= optind - 1;
    argv += optind - 1;
    if (argc < 2)
        return cmd_usage_error(&cmd_db, "missing subcommand (check)");
    if (strcmp(argv[1], "check") != 0)
        return cmd_usage_error(&cmd_db, "unknown subcommand '%s' (known: check)", argv[1]);
    if (argc != 3)
        return cmd_usage_error(&cmd_db, "check takes exactly one FILE");
    return check(argv[2]);
}

const struct cmd cmd_db = { "db", "check a results database (integrity, schema version)", usage, db };

/* cmd_db.c -- `sessmax db check FILE`: is a results file a healthy sessmax database?
 * Prints the store's report (schema version, integrity, what it holds) on stdout when healthy,
 * the finding on stderr otherwise. Beyond the store's own check, every run's stored score
 * parameters are read as score, report, export and dashboard read them: what they would refuse
 * is a finding here too. */
#include "controller/cli/cmd_db.h"

#include "controller/score/score_config.h"
#include "controller/score/textesc.h"
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
    "integrity check, how many runs, sessions and samples it holds, and that every run's stored\n"
    "score parameters (runs.score_params) are what score, report, export and dashboard accept.\n"
    "The file is opened read-only and never changed. Not a sessmax database, corrupt, a newer\n"
    "schema, or a run's score parameters unreadable: bad data.\n"
    "\n"
    "Example:\n"
    "  sessmax db check results/campaign.db\n";

struct params_check { const char *path; size_t bad; };

/* One run's score parameters as the scoring verbs read them; a refusal is named on stderr. */
static void check_params(void *ctx, int64_t run, const char *params)
{
    struct params_check *c = ctx;
    char err[512], esc[1024];
    struct score_config cfg;
    score_config_init(&cfg);
    if (score_config_from_json(params, &cfg, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax db: %s: run %lld: stored score parameters (runs.score_params) that score, "
                "report and export refuse: %s\n", c->path, (long long)run, textesc(esc, sizeof esc, err, TEXTESC_LINE));
        c->bad++;
    }
    score_config_free(&cfg);
}

/* Every run's score parameters; 0, or -1 after naming each bad run. */
static int check_score_params(const char *path)
{
    char err[512];
    struct params_check c = { path, 0 };
    if (store_check_params(path, check_params, &c, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax db: %s\n", err);
        return -1;
    }
    return c.bad ? -1 : 0;
}

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
        if (check_score_params(path) != 0)
            return EX_DATAERR;
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

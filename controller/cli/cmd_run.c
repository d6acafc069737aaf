/* cmd_run.c -- `sessmax run PLAN`: validate the plan, run it (controller/run/run.c), print the
 * summary and exit with the verdict. */
#include "controller/cli/cmd_run.h"

#include "controller/run/plan.h"
#include "controller/run/plan_check.h"
#include "controller/run/run.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#define WEB_DEFAULT_ADDR "127.0.0.1:5665"

/* `--web`, `--web=ADDR:PORT` or `--web ADDR:PORT`: the next word is the address when it is
 * HOST:PORT (a plan is a file name, never ending in ":digits"). */
static const char *web_address(const char *optarg_value, int argc, char **argv)
{
    if (optarg_value)
        return optarg_value;
    if (optind < argc) {
        const char *w = argv[optind], *colon = strrchr(w, ':');
        if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1) && !strchr(w, '/'))
            return argv[optind++];
    }
    return WEB_DEFAULT_ADDR;
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {
        { "db", required_argument, NULL, 'd' }, { "report", required_argument, NULL, 'r' },
        { "verdict", required_argument, NULL, 'v' }, { "agent-log", required_argument, NULL, 'l' },
        { "plain", no_argument, NULL, 'p' }, { "shots", required_argument, NULL, 's' },
        { "web", optional_argument, NULL, 'w' }, { "web-token-file", required_argument, NULL, 't' },
        { "no-preflight", no_argument, NULL, 'n' }, { NULL, 0, NULL, 0 },
    };
    struct run_options o = { .tty = -1 };
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'd': o.db_path = optarg; break;
        case 'r': o.report_path = optarg; break;
        case 'v': o.verdict_path = optarg; break;
        case 'l': o.agent_log = optarg; break;
        case 'p': o.tty = 0; break;
        case 's':
            if (strcmp(optarg, "all") && strcmp(optarg, "failures"))
                return cmd_usage_error(&cmd_run, "--shots '%s': use all or failures", optarg);
            o.shots_all = !strcmp(optarg, "all");
            break;
        case 'w': o.web_addr = web_address(optarg, argc, argv); break;
        case 't': o.web_token_file = optarg; break;
        case 'n': o.no_preflight = 1; break;
        default: return cmd_usage_error(&cmd_run, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (o.web_token_file && !o.web_addr)
        o.web_addr = WEB_DEFAULT_ADDR;
    if (optind == argc)
        return cmd_usage_error(&cmd_run, "missing PLAN");
    if (optind != argc - 1)
        return cmd_usage_error(&cmd_run, "unexpected argument '%s'", argv[optind + 1]);
    const char *path = argv[optind];
    struct plan_checked pc;
    char err[PLAN_ERR_LEN];
    int rc = plan_check_load_runnable(path, NULL, 0, 0, &pc, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "%s\n", err);
        return rc;
    }
    struct run_outcome out;
    rc = run_execute(&pc, &o, &out);
    plan_check_free(&pc);
    return rc;
}

const struct cmd cmd_run = {
    "run", "run a test plan: ramp up sessions on agents, record everything, score it",
    "usage: sessmax run PLAN [--db FILE] [--report FILE.html] [--verdict FILE.json] [--agent-log FILE] [--plain]\n"
    "                        [--shots all|failures] [--web [ADDR:PORT]] [--web-token-file FILE] [--no-preflight]\n\n"
    "Validates PLAN (as `sessmax validate` does), starts or waits for the agents it names, starts the\n"
    "sessions evenly across the launch window, keeps them for the steady state, logs them off, and\n"
    "records every session, sample, traffic and agent-health record in the results database (the\n"
    "plan's `results:`, default results.db; --db overrides). On a terminal a live line shows\n"
    "launched / active / failed sessions, the current index against the threshold and the time left;\n"
    "--plain (or a non-terminal stdout) prints a line every 10 s instead.\n\n"
    "Pre-flight: the first session logs on alone before the ramp (same agent, target, pin, network\n"
    "and credentials as the rest) and the ramp starts once its logon condition held; when it fails,\n"
    "the run stops at once with one line: the target cannot be reached, its TLS does not match the\n"
    "plan, or authentication failed for the user. --no-preflight (or the plan's `preflight: false`)\n"
    "starts the ramp at once.\n\n"
    "--web serves the live view on ADDR:PORT (default 127.0.0.1:5665; :0 picks a free port) and\n"
    "prints its URL with a random token (or the token in --web-token-file, mode 0600): sessions,\n"
    "the response time against active sessions with baseline and threshold, timers, agents, target\n"
    "CPU, bandwidth and RTT, updated every 2 s; /metrics is the same in Prometheus text format.\n\n"
    "Screenshots go to DB.shots/run-ID/ with an index.html contact sheet: the screen of every failure\n"
    "(a timeout, a failed session) and, with --shots all, the end of every timer of each session's\n"
    "first loop, named USER-loopK-TIMER.png (debug a new workload with it).\n\n"
    "Ctrl-C logs every session off and marks the run aborted; a second Ctrl-C stops at once.\n"
    "The password comes from the plan's password_env or password_file (mode 0600), never argv.\n"
    "Remote agents (agents: {expect: N}) need SESSMAX_TOKEN set here and on every agent; see\n"
    "`sessmax help agents`.\n"
    "Exits with the verdict's code; a run in which no session could reach the target is unavailable,\n"
    "one whose sessions failed authentication says so with its own code.\n",
    run,
};

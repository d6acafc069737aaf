/* cmd_agents.c -- `sessmax agents`: how to run remote agents, and a fresh token for them. */
#include "controller/cli/cmd_agents.h"

#include "common/proto_auth.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char *guide =
    "Remote agents (plan: agents: {expect: N, listen: ADDR:PORT, tls: true})\n\n"
    "1. Make a shared token and give it to the controller and to every agent through the\n"
    "   environment (never the command line):\n"
    "     export SESSMAX_TOKEN=$(sessmax agents token)\n"
    "2. Start the run; it listens on `listen` (default 127.0.0.1:7400 -- use 0.0.0.0:PORT to accept\n"
    "   other hosts) and prints the TLS certificate fingerprint agents must pin:\n"
    "     sessmax run plan.yaml\n"
    "3. On each agent host (Slurm array task, Kubernetes pod, or by hand):\n"
    "     SESSMAX_TOKEN=... sessmax-agent connect CONTROLLER:PORT --tls-pin sha256:... \\\n"
    "         --capacity 100 --name $(hostname)\n"
    "   (--tls-insecure skips the pin; the token exchange is bound to the TLS session either way.)\n"
    "   An agent that may start first waits with --controller-wait 5m (retries, then exits 69).\n"
    "   For a pin that stays the same from run to run, give the controller a certificate\n"
    "   (agents: {tls_cert: FILE, tls_key: FILE}, the key 0600) and pin it with --tls-pin-cert FILE.\n\n"
    "Agents authenticate with an HMAC challenge-response over the token (it never crosses the\n"
    "wire). Each declares its capacity; sessions are spread so that none exceeds it. The run\n"
    "starts when all N agents are connected (agents.wait, default 5 m). An agent that dies or goes\n"
    "silent (agents.heartbeat_timeout, default 15 s) has its sessions marked lost and the run goes\n"
    "on. Without TLS (tls: false), session passwords cross the network in clear text: keep plain\n"
    "links on loopback or a private network.\n\n"
    "Local agents (agents: {local: N, cpus: \"1\"}) need none of this: the run spawns them on\n"
    "loopback with a fresh token, optionally pinned to the CPU list.\n";

static int agents(int argc, char **argv)
{
    static const struct option opts[] = { { NULL, 0, NULL, 0 } };
    optind = 1;
    opterr = 0;
    if (getopt_long(argc, argv, "", opts, NULL) != -1)
        return cmd_usage_error(&cmd_agents, "unknown option '%s'", argv[optind - 1]);
    argc -= optind - 1;
    argv += optind - 1;
    if (argc >= 2 && !strcmp(argv[1], "token")) {
        char t[65];
        if (proto_new_token(t) < 0) {
            fprintf(stderr, "sessmax agents: no randomness available\n");
            return EX_SOFTWARE;
        }
        printf("%s\n", t);
        return 0;
    }
    if (argc >= 2)
        return cmd_usage_error(&cmd_agents, "unknown subcommand '%s'", argv[1]);
    fputs(guide, stdout);
    return 0;
}

const struct cmd cmd_agents = {
    "agents", "how to run remote agents; `agents token` prints a fresh shared token",
    "usage: sessmax agents          explain how to start remote agents\n"
    "       sessmax agents token    print a fresh random token for SESSMAX_TOKEN\n",
    agents,
};

/* standalone_opts.c -- the options of `sessmax-agent run` and `shot` (see standalone_opts.h):
 * usage texts, getopt_long parsing into an engine_config, defaults and the checks both share. */
#include "agent/front/standalone_opts.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "agent/rdp/kind.h"
#include "agent/x11/kind.h"
#include "common/hostport.h"
#include "common/log.h"
#include "common/numarg.h"
#include "common/netprofile.h"


/* ---------------------------------------------------------------- helpers */

int64_t standalone_parse_duration_ms(const char *text)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || v < 0)
        return -1;
    double mul = 1000;
    if (!strcmp(end, "ms"))
        mul = 1;
    else if (!strcmp(end, "s") || !*end)
        mul = 1000;
    else if (!strcmp(end, "m"))
        mul = 60000;
    else if (!strcmp(end, "h"))
        mul = 3600000;
    else
        return -1;
    return (int64_t)(v * mul);
}

int standalone_expand_user(const char *pattern, unsigned n, char *out, size_t outlen)
{
    size_t o = 0;
    for (const char *p = pattern; *p; ) {
        char buf[32];
        const char *src = NULL;
        if (!strncmp(p, "{n}", 3)) {
            snprintf(buf, sizeof buf, "%u", n);
            src = buf;
            p += 3;
        } else if (!strncmp(p, "{n:0", 4) && p[4] >= '1' && p[4] <= '9' && p[5] == '}') {
            snprintf(buf, sizeof buf, "%0*u", p[4] - '0', n);
            src = buf;
            p += 6;
        } else if (*p == '{') {
            return -1;
        } else {
            buf[0] = *p++;
            buf[1] = 0;
            src = buf;
        }
        size_t l = strlen(src);
        if (o + l >= outlen)
            return -1;
        memcpy(out + o, src, l);
        o += l;
    }
    out[o] = 0;
    return 0;
}

static int parse_target(const char *t, struct engine_config *cfg, char *host, size_t hostlen)
{
    uint16_t port;
    if (hostport_split(t, 3389, host, hostlen, &port) != 0 || port == 0)
        return -1;
    cfg->host = host;
    cfg->port = port;
    return 0;
}

const char STANDALONE_RUN_USAGE[] =
    "usage: sessmax-agent run --target HOST:PORT --users PATTERN --sessions N --workload FILE\n"
    "                         --duration 60s [--ramp 10s] [--fingerprint sha256:..|--no-verify]\n"
    "                         [--shots DIR] [--connect-threads K] [options]\n"
    "Runs N sessions of the workload and prints one JSON object per line on stdout (samples,\n"
    "session events, traffic, health) and a summary on stderr. The password is read from\n"
    "SESSMAX_PASSWORD (never from the command line). PATTERN expands {n} or {n:03} with the\n"
    "1-based session number, e.g. 'simuser{n:03}'.\n"
    "options:\n"
    "  --target HOST:PORT       RDP server (port 3389 by default)\n"
    "  --users PATTERN          user names\n"
    "  --sessions N             number of sessions (default 1)\n"
    "  --workload FILE          workload YAML\n"
    "  --duration D             run time from the first launch (e.g. 60s, 5m), then log off\n"
    "  --ramp D                 spread the launches evenly over D (default 0: all at once)\n"
    "  --first N                number of the first user (default 1): --first 5 --sessions 2\n"
    "                           runs users 5 and 6 of PATTERN\n"
    "  --loops N                log each session off right after its Nth workload loop (the\n"
    "                           run ends when all did, or at --duration, whichever is first)\n"
    "  --fingerprint LIST       accept only these certificate fingerprints (sha256:AA:BB:..)\n"
    "  --no-verify              accept any certificate\n"
    "  --security LAYER         negotiate (default), tls, nla or rdp\n"
    "  --network PROFILE        shape the RDP traffic: a built-in profile (wan-250ms-1pct, ...) or\n"
    "                           its JSON object; needs CAP_NET_ADMIN (docs/network.md)\n"
    "  --shots DIR              save a PNG there when a wait or the logon times out\n"
    "  --shot-timers            with --shots: also one at the end of every timer of each\n"
    "                           session's first loop, and an index.html contact sheet\n"
    "  --logon-retries N        start a logon over with a fresh connection up to N times\n"
    "                           when the desktop never got ready (default 0)\n"
    "  --connect-threads K      connect thread pool size (default 4)\n"
    "  --connect-timeout D      connect watchdog per attempt (default 30s)\n"
    "  --max-attempts N         connect attempts per session for connect errors (default 2)\n"
    "  --logoff-timeout D       deadline for the orderly logoff (default 30s)\n"
    "  --size WxH, --bpp 16|32  desktop (default from the workload, else 1024x768x16)\n"
    "  --domain NAME            logon domain\n"
    "  --seed N                 base seed for think times (default 1)\n"
    "  --config-dir DIR         private FreeRDP config directory (default: a fresh temp dir)\n"
    "  --client SPEC            run an external X11 client per session instead of the engine:\n"
    "                           a preset (xfreerdp, vncviewer, citrix, vmware-view) or its JSON\n"
    "                           options, e.g. '{\"x11\":\"xfreerdp\",\"resolution\":\"800x600\"}'\n"
    "                           (docs/clients.md)\n"
    "  --log-level LEVEL        error|warn|info|debug (default warn)\n";

const char STANDALONE_SHOT_USAGE[] =
    "usage: sessmax-agent shot --target HOST:PORT --user NAME -o FILE.png [--wait 3s]\n"
    "                          [--fingerprint sha256:..|--no-verify] [--size WxH] [--bpp 16|32]\n"
    "                          [--workload FILE]\n"
    "Logs one session on (password from SESSMAX_PASSWORD), waits, saves its screen as PNG and\n"
    "logs off. The tool for writing workloads: regions and pixels are read from the PNG. With\n"
    "--workload, prints on stdout a `match` condition (region hash) for each of its regions.\n"
    "Exit 0 with the PNG; 1 when the logon failed or the screen is one colour; 69 when the server\n"
    "cannot be reached (refused, unresolved, no answer); 64 for usage errors.\n";

enum { O_TARGET = 256, O_USERS, O_SESSIONS, O_WORKLOAD, O_DURATION, O_RAMP, O_FP, O_NOVERIFY,
       O_SHOTS, O_THREADS, O_CTIMEOUT, O_ATTEMPTS, O_LOGOFF, O_SIZE, O_BPP, O_DOMAIN, O_SEED,
       O_CONFIGDIR, O_LOGLEVEL, O_WAIT, O_LOOPS, O_SECURITY, O_NETWORK, O_FIRST, O_SHOT_TIMERS,
       O_LOGON_RETRIES, O_CLIENT, O_LISTEN, O_TOKEN_FILE, O_NAME, O_HELP };

static const struct option LONGOPTS[] = {
    { "target", 1, 0, O_TARGET }, { "users", 1, 0, O_USERS }, { "user", 1, 0, O_USERS },
    { "sessions", 1, 0, O_SESSIONS }, { "workload", 1, 0, O_WORKLOAD },
    { "duration", 1, 0, O_DURATION }, { "ramp", 1, 0, O_RAMP }, { "fingerprint", 1, 0, O_FP },
    { "no-verify", 0, 0, O_NOVERIFY }, { "shots", 1, 0, O_SHOTS },
    { "connect-threads", 1, 0, O_THREADS }, { "connect-timeout", 1, 0, O_CTIMEOUT },
    { "max-attempts", 1, 0, O_ATTEMPTS }, { "logoff-timeout", 1, 0, O_LOGOFF },
    { "size", 1, 0, O_SIZE }, { "bpp", 1, 0, O_BPP }, { "domain", 1, 0, O_DOMAIN },
    { "seed", 1, 0, O_SEED }, { "config-dir", 1, 0, O_CONFIGDIR },
    { "log-level", 1, 0, O_LOGLEVEL }, { "wait", 1, 0, O_WAIT }, { "loops", 1, 0, O_LOOPS },
    { "security", 1, 0, O_SECURITY }, { "network", 1, 0, O_NETWORK }, { "first", 1, 0, O_FIRST },
    { "shot-timers", 0, 0, O_SHOT_TIMERS }, { "logon-retries", 1, 0, O_LOGON_RETRIES },
    { "client", 1, 0, O_CLIENT }, { "listen", 1, 0, O_LISTEN }, { "web-token-file", 1, 0, O_TOKEN_FILE },
    { "name", 1, 0, O_NAME }, { "help", 0, 0, O_HELP },
    { 0, 0, 0, 0 },
};

static const char *opt_name(int c)
{
    for (const struct option *o = LONGOPTS; o->name; o++)
        if (o->val == c)
            return o->name;
    return "?";
}

int standalone_opts_bad(const char *cmd, const char *opt, const char *val)
{
    fprintf(stderr, "sessmax-agent %s: bad value for --%s: '%s' (see --help)\n", cmd, opt, val);
    return EX_USAGE;
}

/* Returns 0, EX_USAGE, or -1 for --help (printed). */
int standalone_opts_parse(int argc, char **argv, struct opts *o, const char *usage)
{
    const char *cmd = argv[0];
    int c;
    unsigned long v;
    char err[256];
    optind = 0;                  /* 0, not 1: re-initialises getopt after main()'s own scan */
    while ((c = getopt_long(argc, argv, "o:h", LONGOPTS, NULL)) != -1) {
        switch (c) {
        case O_TARGET: o->target = optarg; break;
        case O_USERS: o->users = optarg; break;
        case O_WORKLOAD: o->workload = optarg; break;
        case O_NETWORK: o->network = optarg; break;
        case O_LISTEN: o->listen = optarg; break;
        case O_TOKEN_FILE: o->token_file = optarg; break;
        case O_NAME: o->name = optarg; break;
        case O_FP: o->cfg.fingerprint = optarg; break;
        case O_NOVERIFY: o->cfg.no_verify = 1; break;
        case O_SECURITY:
            if (engine_security_parse(optarg, &o->cfg.security) != 0)
                return standalone_opts_bad(cmd, "security", optarg);
            break;
        case O_SHOTS: o->cfg.shot_dir = optarg; break;
        case O_DOMAIN: o->cfg.domain = optarg; break;
        case O_CONFIGDIR: o->cfg.config_dir = optarg; break;
        case O_CLIENT: {
            char err[256];
            if (x11_client_from_json(&o->client, optarg, err, sizeof err) != 0) {
                fprintf(stderr, "sessmax-agent %s: --client: %s\n", cmd, err);
                return EX_USAGE;
            }
            o->cfg.client = &o->client;
            break;
        }
        case O_LOGLEVEL:
            if (log_parse_level(optarg) < 0)
                return standalone_opts_bad(cmd, "log-level", optarg);
            o->log_level = optarg;
            break;
        case 'o': o->out = optarg; break;
        case O_SHOT_TIMERS: o->cfg.shot_timers = 1; break;
        case O_SESSIONS: case O_THREADS: case O_ATTEMPTS: case O_BPP: case O_SEED: case O_LOOPS:
        case O_FIRST: case O_LOGON_RETRIES:
            if (numarg_ulong(opt_name(c), optarg, c == O_SEED || c == O_LOGON_RETRIES ? 0 : 1,
                             c == O_SEED ? ULONG_MAX : c == O_LOGON_RETRIES ? 10 : 100000, &v,
                             err, sizeof err) != 0 || (c == O_BPP && v != 16 && v != 32))
                return standalone_opts_bad(cmd, opt_name(c), optarg);
            if (c == O_SESSIONS) o->sessions = (unsigned)v;
            if (c == O_THREADS) o->cfg.connect_threads = (unsigned)v;
            if (c == O_ATTEMPTS) o->cfg.max_attempts = (uint32_t)v;
            if (c == O_BPP) o->cfg.bpp = (uint32_t)v;
            if (c == O_SEED) o->seed = v;
            if (c == O_LOOPS) o->cfg.max_loops = (uint32_t)v;
            if (c == O_FIRST) o->first = (unsigned)v;
            if (c == O_LOGON_RETRIES) o->cfg.logon_retries = (uint32_t)v;
            break;
        case O_DURATION: case O_RAMP: case O_CTIMEOUT: case O_LOGOFF: case O_WAIT: {
            int64_t ms = standalone_parse_duration_ms(optarg);
            if (ms < 0)
                return standalone_opts_bad(cmd, opt_name(c), optarg);
            if (c == O_DURATION) o->duration_ms = ms;
            if (c == O_RAMP) o->ramp_ms = ms;
            if (c == O_CTIMEOUT) o->cfg.connect_timeout_ms = (uint32_t)(ms ? ms : 1);
            if (c == O_LOGOFF) o->logoff_ms = ms;
            if (c == O_WAIT) o->wait_ms = ms;
            break;
        }
        case O_SIZE: {
            unsigned long w, h;
            if (numarg_size("size", optarg, 64, 64, 8192, 8192, &w, &h, err, sizeof err) != 0)
                return standalone_opts_bad(cmd, "size", optarg);
            o->cfg.width = (uint32_t)w;
            o->cfg.height = (uint32_t)h;
            o->size_given = 1;
            break;
        }
        case O_HELP: case 'h':
            fputs(usage, stdout);
            return -1;
        default:
            fputs(usage, stderr);
            return EX_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "sessmax-agent %s: unexpected argument '%s' (see --help)\n", cmd,
                argv[optind]);
        return EX_USAGE;
    }
    return 0;
}

void standalone_opts_defaults(struct opts *o)
{
    memset(o, 0, sizeof *o);
    engine_config_defaults(&o->cfg);
    o->sessions = 1;
    o->first = 1;
    o->logoff_ms = 30000;
    o->wait_ms = 3000;
    o->seed = 1;
}

void standalone_opts_one_session(struct opts *o, int64_t logoff_ms)
{
    standalone_opts_defaults(o);
    o->cfg.traffic_interval_ms = 0;
    o->cfg.health_interval_ms = 0;
    o->logoff_ms = logoff_ms;
}

/* Common checks of run and shot; fills host. */
int standalone_opts_check(const char *cmd, struct opts *o, char *host, size_t hostlen, const char **password)
{
    if (o->log_level)
        log_set_level((enum log_level)log_parse_level(o->log_level));
    if (!o->target || parse_target(o->target, &o->cfg, host, hostlen) != 0) {
        fprintf(stderr, "sessmax-agent %s: --target HOST:PORT is required (see --help)\n", cmd);
        return EX_USAGE;
    }
    if (!o->users) {
        fprintf(stderr, "sessmax-agent %s: --user(s) is required (see --help)\n", cmd);
        return EX_USAGE;
    }
    if (o->cfg.fingerprint && o->cfg.no_verify) {
        fprintf(stderr, "sessmax-agent %s: --fingerprint and --no-verify exclude each other\n", cmd);
        return EX_USAGE;
    }
    *password = getenv("SESSMAX_PASSWORD");
    if (!*password) {
        fprintf(stderr, "sessmax-agent %s: set the password in SESSMAX_PASSWORD\n", cmd);
        return EX_DATAERR;
    }
    o->cfg.kind = o->cfg.client ? &x11_session_ops : &rdp_session_ops;
    return 0;
}

/* opts.c -- command-line parsing for sessmax-simhost: getopt_long, every number checked
 * (common/numarg.h), one-line errors naming the option and the value. */
#include "simhost/server/opts.h"

#include "common/hostport.h"
#include "common/log.h"
#include "common/numarg.h"
#include "simhost/desktop/codec.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_opts_usage(void)
{
    fputs("usage: sessmax-simhost [--listen HOST:PORT] [--users N] [--max-sessions M] [--work-scale X]\n"
          "                       [--state-dir DIR] [--cert F --key F] [--nla [--sam-file F]]\n"
          "                       [--users-file F] [--event-log FILE] [--input-log FILE]\n"
          "                       [--bpp 16|32] [--size WxH] [--codec auto|planar|interleaved|none]\n"
          "                       [--handshake-timeout S] [--max-conns N] [--freerdp-log]\n"
          "                       [--max-pending N] [--max-pending-mb M]\n"
          "                       [--log-level error|warn|info|debug] [--drive-redirection on|off|probe-eof]\n"
          "                       [--io-fairshare on|off] [--ignore-logoff] [--metrics-listen HOST:PORT]\n"
          "       sessmax-simhost --predict WORKLOAD.yaml --cpus C [--measure NAME] [--threshold-offset-ms MS]\n"
          "       sessmax-simhost --predict --plan PLAN.yaml --cpus C   (the smax of that plan's ramp)\n"
          "                       [--work-scale X] [--state-dir DIR] [--session-loops N] [--ramp-to N]\n"
          "  --session-loops N: after the synthetic calibration, play N loops of the workload into one\n"
          "  real session of a simhost child and scale the cost model to its CPU per loop (default 2;\n"
          "  0: the synthetic model alone)\n"
          "  --ramp-to N: simulate N sessions launched at the plan's rate (its launch window stretched\n"
          "  by N / its sessions): the knee that ramp rate meets (sessmax demo sizes its ramp with it)\n"
          "       sessmax-simhost --calibrate [--work-scale X]\n"
          "Password: env SESSMAX_PASSWORD, or --users-file F (mode 0600).\n", stdout);
}

static int parse_listen(struct sim_opts *o, const char *v, char *err, size_t errlen)
{
    uint16_t port;
    if (hostport_split(v, 0, o->host, sizeof o->host, &port) != 0 || port == 0) {
        snprintf(err, errlen, "--listen: expected HOST:PORT with a port in [1, 65535], got '%s'", v ? v : "");
        return -1;
    }
    o->port = port;
    return 0;
}

static void defaults(struct sim_opts *o)
{
    memset(o, 0, sizeof *o);
    snprintf(o->host, sizeof o->host, "127.0.0.1");
    o->port = 3389;
    o->users = 10;
    o->work_scale = 1.0;
    o->bpp = 32;
    o->codec = SIM_CODEC_AUTO;
    o->width = 1024;
    o->height = 768;
    o->handshake_timeout_s = 20;
    o->max_conns = 1024;
    o->max_pending = 64;
    o->max_pending_mb = 256;
    o->log_level = LOG_INFO;
    o->threshold_offset_ms = 1000;
    o->session_loops = 2;
    o->drives = 1;
    const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(o->state_dir, sizeof o->state_dir, "%s/sessmax-simhost", xdg);
    else if (home && *home)
        snprintf(o->state_dir, sizeof o->state_dir, "%s/.local/state/sessmax-simhost", home);
    else
        snprintf(o->state_dir, sizeof o->state_dir, "/tmp/sessmax-simhost-state");
}

static int parse_on_off(const char *opt, const char *v, int *out, char *err, size_t errlen)
{
    if (strcmp(v, "on") && strcmp(v, "off")) {
        snprintf(err, errlen, "%s: expected on or off, got '%s'", opt, v);
        return -1;
    }
    *out = !strcmp(v, "on");
    return 0;
}

enum {
    O_NLA = 256, O_FREERDP_LOG, O_CALIBRATE, O_LISTEN, O_USERS, O_MAX_SESSIONS, O_WORK_SCALE,
    O_CPUS, O_THRESHOLD_OFFSET, O_BPP, O_CODEC, O_SIZE, O_HANDSHAKE, O_MAX_CONNS, O_MAX_PENDING, O_MAX_PENDING_MB, O_LOG_LEVEL,
    O_IO_FAIRSHARE, O_IGNORE_LOGOFF, O_DRIVES, O_STATE_DIR, O_CERT, O_KEY, O_SAM_FILE, O_USERS_FILE, O_EVENT_LOG,
    O_INPUT_LOG, O_PREDICT, O_MEASURE, O_PLAN, O_SESSION_LOOPS, O_METRICS_LISTEN, O_RAMP_TO,
};

static const struct option LONGOPTS[] = {
    { "help", no_argument, NULL, 'h' },
    { "password", optional_argument, NULL, 'p' },
    { "nla", no_argument, NULL, O_NLA },
    { "freerdp-log", no_argument, NULL, O_FREERDP_LOG },
    { "calibrate", no_argument, NULL, O_CALIBRATE },
    { "listen", required_argument, NULL, O_LISTEN },
    { "users", required_argument, NULL, O_USERS },
    { "max-sessions", required_argument, NULL, O_MAX_SESSIONS },
    { "work-scale", required_argument, NULL, O_WORK_SCALE },
    { "cpus", required_argument, NULL, O_CPUS },
    { "threshold-offset-ms", required_argument, NULL, O_THRESHOLD_OFFSET },
    { "bpp", required_argument, NULL, O_BPP },
    { "codec", required_argument, NULL, O_CODEC },
    { "size", required_argument, NULL, O_SIZE },
    { "handshake-timeout", required_argument, NULL, O_HANDSHAKE },
    { "max-conns", required_argument, NULL, O_MAX_CONNS },
    { "max-pending", required_argument, NULL, O_MAX_PENDING },
    { "max-pending-mb", required_argument, NULL, O_MAX_PENDING_MB },
    { "log-level", required_argument, NULL, O_LOG_LEVEL },
    { "io-fairshare", required_argument, NULL, O_IO_FAIRSHARE },
    { "ignore-logoff", no_argument, NULL, O_IGNORE_LOGOFF },
    { "drive-redirection", required_argument, NULL, O_DRIVES },
    { "state-dir", required_argument, NULL, O_STATE_DIR },
    { "cert", required_argument, NULL, O_CERT },
    { "key", required_argument, NULL, O_KEY },
    { "sam-file", required_argument, NULL, O_SAM_FILE },
    { "users-file", required_argument, NULL, O_USERS_FILE },
    { "event-log", required_argument, NULL, O_EVENT_LOG },
    { "input-log", required_argument, NULL, O_INPUT_LOG },
    { "predict", required_argument, NULL, O_PREDICT },
    { "measure", required_argument, NULL, O_MEASURE },
    { "plan", required_argument, NULL, O_PLAN },
    { "session-loops", required_argument, NULL, O_SESSION_LOOPS },
    { "metrics-listen", required_argument, NULL, O_METRICS_LISTEN },
    { "ramp-to", required_argument, NULL, O_RAMP_TO },
    { NULL, 0, NULL, 0 },
};

/* An integer option into an int field. */
static int set_int(const char *opt, const char *v, unsigned long min, unsigned long max, int *out,
                   char *err, size_t errlen)
{
    unsigned long n;
    if (numarg_ulong(opt, v, min, max, &n, err, errlen) != 0)
        return -1;
    *out = (int)n;
    return 0;
}

/* One option with a value: 0, or -1 with err. */
static int set_value(struct sim_opts *o, int c, const char *v, char *err, size_t errlen)
{
    unsigned long w, h;
    switch (c) {
    case O_LISTEN: return parse_listen(o, v, err, errlen);
    case O_USERS: return set_int("--users", v, 1, 9999, &o->users, err, errlen);
    case O_MAX_SESSIONS: return set_int("--max-sessions", v, 0, 100000, &o->max_sessions, err, errlen);
    case O_WORK_SCALE:
        o->work_scale_given = 1;
        return numarg_double("--work-scale", v, SIM_WORK_SCALE_MIN, SIM_WORK_SCALE_MAX, &o->work_scale, err,
                             errlen);
    case O_CPUS: return numarg_double("--cpus", v, 0.01, 4096, &o->cpus, err, errlen);
    case O_SESSION_LOOPS: return set_int("--session-loops", v, 0, 1000, &o->session_loops, err, errlen);
    case O_RAMP_TO: return set_int("--ramp-to", v, 1, 100000, &o->ramp_to, err, errlen);
    case O_THRESHOLD_OFFSET:
        return numarg_double("--threshold-offset-ms", v, 1, 1e7, &o->threshold_offset_ms, err, errlen);
    case O_BPP:
        if (set_int("--bpp", v, 16, 32, &o->bpp, err, errlen) != 0 || (o->bpp != 16 && o->bpp != 32)) {
            snprintf(err, errlen, "--bpp: expected 16 or 32, got '%s'", v);
            return -1;
        }
        return 0;
    case O_CODEC: {
        enum sim_codec_id id;
        if (sim_codec_parse(v, &id) != 0) {
            snprintf(err, errlen, "--codec: expected auto, planar, interleaved or none, got '%s'", v);
            return -1;
        }
        o->codec = (int)id;
        return 0;
    }
    case O_SIZE:
        if (numarg_size("--size", v, 640, 480, 4096, 4096, &w, &h, err, errlen) != 0)
            return -1;
        o->width = (int)w, o->height = (int)h;
        return 0;
    case O_HANDSHAKE: return set_int("--handshake-timeout", v, 1, 3600, &o->handshake_timeout_s, err, errlen);
    case O_MAX_CONNS: return set_int("--max-conns", v, 1, 100000, &o->max_conns, err, errlen);
    case O_MAX_PENDING: return set_int("--max-pending", v, 1, 100000, &o->max_pending, err, errlen);
    case O_MAX_PENDING_MB: return set_int("--max-pending-mb", v, 3, 1000000, &o->max_pending_mb, err, errlen);
    case O_LOG_LEVEL:
        if ((o->log_level = log_parse_level(v)) < 0) {
            snprintf(err, errlen, "--log-level: expected error, warn, info or debug, got '%s'", v);
            return -1;
        }
        return 0;
    case O_IO_FAIRSHARE: return parse_on_off("--io-fairshare", v, &o->io_fairshare, err, errlen);
    case O_IGNORE_LOGOFF: o->ignore_logoff = 1; return 0;
    case O_DRIVES:
        if (strcmp(v, "probe-eof") == 0) {
            o->drives = SIM_DRIVES_PROBE_EOF;
            return 0;
        }
        return parse_on_off("--drive-redirection", v, &o->drives, err, errlen);
    case O_STATE_DIR: snprintf(o->state_dir, sizeof o->state_dir, "%s", v); return 0;
    case O_CERT: o->cert = v; return 0;
    case O_KEY: o->key = v; return 0;
    case O_SAM_FILE: o->sam_file = v; return 0;
    case O_USERS_FILE: o->users_file = v; return 0;
    case O_EVENT_LOG: o->event_log = v; return 0;
    case O_INPUT_LOG: o->input_log = v; return 0;
    case O_METRICS_LISTEN: o->metrics_listen = v; return 0;
    case O_PREDICT:   /* `--predict --plan PLAN`: getopt took "--plan" as the workload */
        o->predict = strcmp(v, "--plan") ? v : NULL;
        o->plan_next = !o->predict;
        return 0;
    case O_PLAN: o->plan = v; return 0;
    case O_MEASURE: o->measure = v; return 0;
    }
    return -1;
}

/* What getopt_long refused ('?' or ':'), as one line naming the option. */
static int refused(int c, char **argv, char *err, size_t errlen)
{
    const char *a = argv[optind - 1];
    if (c == ':')
        snprintf(err, errlen, "%s: missing value (see --help)", a);
    else if (optopt && strncmp(a, "--", 2))
        snprintf(err, errlen, "-%c: unknown option (see --help)", optopt);
    else
        snprintf(err, errlen, "%s: unknown option or unexpected value (see --help)", a);
    return -1;
}

static int check_combinations(const struct sim_opts *o, char *err, size_t errlen)
{
    if ((o->cert == NULL) != (o->key == NULL)) {
        snprintf(err, errlen, "--cert and --key go together");
        return -1;
    }
    if ((o->predict || o->plan) && o->cpus <= 0) {
        snprintf(err, errlen, "--predict needs --cpus C");
        return -1;
    }
    if (o->ramp_to && !o->plan) {
        snprintf(err, errlen, "--ramp-to goes with --predict --plan PLAN");
        return -1;
    }
    return 0;
}

int sim_opts_parse(int argc, char **argv, struct sim_opts *o, char *err, size_t errlen)
{
    int c;
    defaults(o);
    opterr = 0;
    optind = 0;   /* glibc: a full restart, so the parser can run more than once */
    while ((c = getopt_long(argc, argv, ":hp", LONGOPTS, NULL)) != -1) {
        switch (c) {
        case 'h': sim_opts_usage(); return 1;
        case 'p':
            snprintf(err, errlen, "--password: passwords are never taken from the command line; set "
                     "SESSMAX_PASSWORD or use --users-file F");
            return -1;
        case O_NLA: o->nla = 1; break;
        case O_FREERDP_LOG: o->freerdp_log = 1; break;
        case O_CALIBRATE: o->calibrate_only = 1; break;
        case '?': case ':': return refused(c, argv, err, errlen);
        default:
            if (set_value(o, c, optarg, err, errlen) != 0)
                return -1;
        }
    }
    if (o->plan_next && !o->plan && optind < argc)
        o->plan = argv[optind++];
    if (optind < argc) {
        snprintf(err, errlen, "%s: unexpected argument (see --help)", argv[optind]);
        return -1;
    }
    return check_combinations(o, err, errlen);
}

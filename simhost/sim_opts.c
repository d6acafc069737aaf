/* sim_opts.c -- command-line parsing for sessmax-simhost. */
#include "simhost/sim_opts.h"

#include "common/hostport.h"
#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_opts_usage(void)
{
    fputs("usage: sessmax-simhost [--listen HOST:PORT] [--users N] [--max-sessions M] [--work-scale X]\n"
          "                       [--state-dir DIR] [--cert F --key F] [--nla [--sam-file F]]\n"
          "                       [--users-file F] [--event-log FILE] [--input-log FILE]\n"
          "                       [--bpp 16|32] [--size WxH]\n"
          "                       [--handshake-timeout S] [--max-conns N] [--freerdp-log]\n"
          "                       [--max-pending N] [--max-pending-mb M]\n"
          "                       [--log-level error|warn|info|debug] [--drive-redirection on|off]\n"
          "                       [--io-fairshare on|off]\n"
          "       sessmax-simhost --predict WORKLOAD.yaml --cpus C [--measure NAME] [--threshold-offset-ms MS]\n"
          "                       [--work-scale X] [--state-dir DIR]\n"
          "       sessmax-simhost --calibrate [--work-scale X]\n"
          "Password: env SESSMAX_PASSWORD, or --users-file F (mode 0600).\n", stdout);
}

static int parse_num(const char *opt, const char *v, double min, double max, double *out, char *err, size_t errlen)
{
    char *end;
    double d = v ? strtod(v, &end) : 0;
    if (!v || *end || d < min || d > max) {
        snprintf(err, errlen, "%s: expected a number in [%g, %g], got '%s'", opt, min, max, v ? v : "");
        return -1;
    }
    *out = d;
    return 0;
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
    o->width = 1024;
    o->height = 768;
    o->handshake_timeout_s = 20;
    o->max_conns = 1024;
    o->max_pending = 64;
    o->max_pending_mb = 256;
    o->log_level = LOG_INFO;
    o->threshold_offset_ms = 1000;
    o->drives = 1;
    const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(o->state_dir, sizeof o->state_dir, "%s/sessmax-simhost", xdg);
    else if (home && *home)
        snprintf(o->state_dir, sizeof o->state_dir, "%s/.local/state/sessmax-simhost", home);
    else
        snprintf(o->state_dir, sizeof o->state_dir, "/tmp/sessmax-simhost-state");
}

int sim_opts_parse(int argc, char **argv, struct sim_opts *o, char *err, size_t errlen)
{
    defaults(o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
        int used = 1;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            sim_opts_usage();
            return 1;
        } else if (!strcmp(a, "--nla")) {
            o->nla = 1, used = 0;
        } else if (!strcmp(a, "--freerdp-log")) {
            o->freerdp_log = 1, used = 0;
        } else if (!strcmp(a, "--calibrate")) {
            o->calibrate_only = 1, used = 0;
        } else if (!strcmp(a, "--listen")) {
            if (parse_listen(o, v, err, errlen))
                return -1;
        } else if (!strcmp(a, "--users")) {
            if (parse_num(a, v, 1, 9999, &d, err, errlen))
                return -1;
            o->users = (int)d;
        } else if (!strcmp(a, "--max-sessions")) {
            if (parse_num(a, v, 0, 100000, &d, err, errlen))
                return -1;
            o->max_sessions = (int)d;
        } else if (!strcmp(a, "--work-scale")) {
            if (parse_num(a, v, 0.001, 1000, &o->work_scale, err, errlen))
                return -1;
        } else if (!strcmp(a, "--cpus")) {
            if (parse_num(a, v, 0.01, 4096, &o->cpus, err, errlen))
                return -1;
        } else if (!strcmp(a, "--threshold-offset-ms")) {
            if (parse_num(a, v, 1, 1e7, &o->threshold_offset_ms, err, errlen))
                return -1;
        } else if (!strcmp(a, "--bpp")) {
            if (parse_num(a, v, 16, 32, &d, err, errlen) || (d != 16 && d != 32)) {
                snprintf(err, errlen, "--bpp: expected 16 or 32, got '%s'", v ? v : "");
                return -1;
            }
            o->bpp = (int)d;
        } else if (!strcmp(a, "--size")) {
            int w, h;
            char tail;
            if (!v || sscanf(v, "%dx%d%c", &w, &h, &tail) != 2 || w < 640 || h < 480 || w > 4096 || h > 4096) {
                snprintf(err, errlen, "--size: expected WxH between 640x480 and 4096x4096, got '%s'", v ? v : "");
                return -1;
            }
            o->width = w, o->height = h;
        } else if (!strcmp(a, "--handshake-timeout")) {
            if (parse_num(a, v, 1, 3600, &d, err, errlen))
                return -1;
            o->handshake_timeout_s = (int)d;
        } else if (!strcmp(a, "--max-conns")) {
            if (parse_num(a, v, 1, 100000, &d, err, errlen))
                return -1;
            o->max_conns = (int)d;
        } else if (!strcmp(a, "--max-pending")) {
            if (parse_num(a, v, 1, 100000, &d, err, errlen))
                return -1;
            o->max_pending = (int)d;
        } else if (!strcmp(a, "--max-pending-mb")) {
            if (parse_num(a, v, 3, 1000000, &d, err, errlen))
                return -1;
            o->max_pending_mb = (int)d;
        } else if (!strcmp(a, "--log-level")) {
            if (!v || (o->log_level = log_parse_level(v)) < 0) {
                snprintf(err, errlen, "--log-level: expected error, warn, info or debug, got '%s'", v ? v : "");
                return -1;
            }
        } else if (!strcmp(a, "--io-fairshare")) {
            if (!v || (strcmp(v, "on") && strcmp(v, "off"))) {
                snprintf(err, errlen, "--io-fairshare: expected on or off, got '%s'", v ? v : "");
                return -1;
            }
            o->io_fairshare = !strcmp(v, "on");
        } else if (!strcmp(a, "--drive-redirection")) {
            if (!v || (strcmp(v, "on") && strcmp(v, "off"))) {
                snprintf(err, errlen, "--drive-redirection: expected on or off, got '%s'", v ? v : "");
                return -1;
            }
            o->drives = !strcmp(v, "on");
        } else if (!strcmp(a, "--state-dir") && v) {
            snprintf(o->state_dir, sizeof o->state_dir, "%s", v);
        } else if (!strcmp(a, "--cert") && v) {
            o->cert = v;
        } else if (!strcmp(a, "--key") && v) {
            o->key = v;
        } else if (!strcmp(a, "--sam-file") && v) {
            o->sam_file = v;
        } else if (!strcmp(a, "--users-file") && v) {
            o->users_file = v;
        } else if (!strcmp(a, "--event-log") && v) {
            o->event_log = v;
        } else if (!strcmp(a, "--input-log") && v) {
            o->input_log = v;
        } else if (!strcmp(a, "--predict") && v) {
            o->predict = v;
        } else if (!strcmp(a, "--measure") && v) {
            o->measure = v;
        } else if (!strcmp(a, "--password") || !strcmp(a, "-p")) {
            snprintf(err, errlen, "%s: passwords are never taken from the command line; set SESSMAX_PASSWORD "
                     "or use --users-file F", a);
            return -1;
        } else {
            snprintf(err, errlen, "%s: unknown option or missing value (see --help)", a);
            return -1;
        }
        i += used;
    }
    if ((o->cert == NULL) != (o->key == NULL)) {
        snprintf(err, errlen, "--cert and --key go together");
        return -1;
    }
    if (o->predict && o->cpus <= 0) {
        snprintf(err, errlen, "--predict needs --cpus C");
        return -1;
    }
    return 0;
}

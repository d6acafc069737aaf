/* opts.h -- sessmax-simhost's command line. */
#ifndef SIM_OPTS_H
#define SIM_OPTS_H

#include <stddef.h>

/* --work-scale's range; a plan's target.local.simhost_work_scale (simhost/model/ramp_plan.h) has the same */
#define SIM_WORK_SCALE_MIN 0.001
#define SIM_WORK_SCALE_MAX 1000.0

/* --drive-redirection: off, on, or on plus one read at the end of each file copied in, whose
 * answer is logged (the compat behaviour test's probe of the client, docs/simhost.md). */
enum sim_drives_mode { SIM_DRIVES_OFF = 0, SIM_DRIVES_ON = 1, SIM_DRIVES_PROBE_EOF = 2 };

struct sim_opts {
    char host[256];              /* --listen HOST:PORT (default 127.0.0.1:3389) */
    int port;
    int users;                   /* --users N: simuser001..N */
    int max_sessions;            /* --max-sessions M (0: no limit) */
    double work_scale;           /* --work-scale X (default 1; --predict --plan: the plan's, see below) */
    int work_scale_given;        /* --work-scale was on the command line */
    char state_dir[2048];        /* --state-dir DIR */
    const char *cert, *key;      /* --cert F --key F */
    int nla;                     /* --nla */
    const char *sam_file;        /* --sam-file F */
    const char *users_file;      /* --users-file F */
    const char *event_log;       /* --event-log FILE */
    const char *input_log;       /* --input-log FILE: every key and Unicode press as decoded */
    int bpp;                     /* --bpp 16|32: the highest depth offered (default 32) */
    int codec;                   /* --codec auto|planar|interleaved|none (enum sim_codec_id, default auto) */
    int width, height;           /* --size WxH (default 1024x768) */
    int handshake_timeout_s;     /* --handshake-timeout S: logon must finish within (default 20) */
    int max_conns;               /* --max-conns N: peer threads at once (default 1024) */
    int max_pending;             /* --max-pending N: handshakes in progress at once (default 64) */
    int max_pending_mb;          /* --max-pending-mb M: their memory budget (default 256) */
    int freerdp_log;             /* --freerdp-log: let FreeRDP's own WLog errors through */
    int log_level;               /* --log-level error|warn|info|debug (default info) */
    const char *predict;         /* --predict WORKLOAD.yaml */
    const char *plan;            /* --predict --plan PLAN.yaml: predict that plan's ramped run */
    int plan_next;               /* internal: `--predict --plan` seen, the plan follows */
    double cpus;                 /* --cpus C (with --predict) */
    const char *measure;         /* --measure NAME (with --predict; NULL: vsi, else the only group) */
    double threshold_offset_ms;  /* --threshold-offset-ms MS (with --predict; default 1000) */
    int session_loops;           /* --session-loops N (with --predict): loops played into a real
                                    session to scale the cost model (default 2, 0: off) */
    int ramp_to;                 /* --ramp-to N (with --predict --plan): simulate N sessions at the
                                    plan's launch rate instead of its sessions (0: the plan's) */
    int drives;                  /* --drive-redirection on|off|probe-eof: enum sim_drives_mode (default on) */
    int io_fairshare;            /* --io-fairshare on|off: throttle appstart's file I/O per session */
    int ignore_logoff;           /* --ignore-logoff: `logoff` does nothing (a server whose logoff
                                    hangs), to test that clients do not count it as done */
    int calibrate_only;          /* --calibrate: print the cost table and exit */
    const char *metrics_listen;  /* --metrics-listen HOST:PORT: own metrics in node_exporter's names (metrics.h) */
};

/* Returns 0 to run, 1 when help was printed, -1 with err on a usage error. */
int sim_opts_parse(int argc, char **argv, struct sim_opts *o, char *err, size_t errlen);
void sim_opts_usage(void);

#endif

/* main.c -- sessmax-simhost: the embedded multi-session RDP target with metered work.
 * Serves RDP (see simhost/server/server.h), or with --predict prints the capacity of C CPUs for a workload
 * loop from the measured cost model, or with --calibrate only prints the cost table. */
#include "common/log.h"
#include "common/nodump.h"
#include "simhost/server/opts.h"
#include "simhost/model/predict.h"
#include "simhost/model/ramp_plan.h"
#include "simhost/model/selfcheck.h"
#include "simhost/server/server.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <winpr/wlog.h>
#include <sysexits.h>
#include <unistd.h>

static struct sim_server server;

static void on_signal(int sig)
{
    (void)sig;
    server.stop = 1;
}

int main(int argc, char **argv)
{
    struct sim_opts opts;
    char err[1024];
    log_init("sessmax-simhost", LOG_INFO);
    nodump_apply();   /* the users' passwords */
    int p = sim_opts_parse(argc, argv, &opts, err, sizeof err);
    if (p != 0) {
        if (p < 0)
            log_error("%s", err);
        return p < 0 ? EX_USAGE : 0;
    }
    log_set_level((enum log_level)opts.log_level);
    /* --predict --plan models the simhost `sessmax demo` starts for that plan, at its work scale */
    if (opts.plan && !opts.work_scale_given &&
        sim_ramp_plan_work_scale(opts.plan, &opts.work_scale, err, sizeof err) < 0) {
        log_error("%s", err);
        return EX_DATAERR;
    }
    WLog_SetLogLevel(WLog_GetRoot(), opts.freerdp_log ? WLOG_ERROR : WLOG_OFF);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (sim_server_init(&server, &opts) != 0) {
        sim_server_free(&server);
        return EX_UNAVAILABLE;
    }
    sim_cost_print(&server.costs, stdout);
    if ((opts.plan || opts.predict) && opts.session_loops > 0)
        sim_selfcheck_predict(&opts, &server.costs, stdout);
    int rc = 0;
    if (opts.plan)
        rc = sim_ramp_plan_main(opts.plan, opts.cpus, (unsigned)opts.ramp_to, &server.costs, stdout);
    else if (opts.predict) {
        struct sim_predict_args pa = { .path = opts.predict, .measure = opts.measure, .cpus = opts.cpus,
                                       .offset_ms = opts.threshold_offset_ms };
        rc = sim_predict_main(&pa, &server.costs, stdout);
    }
    else if (!opts.calibrate_only)
        rc = sim_server_run(&server);
    if (server.busy_at_exit) {   /* their threads still use the shared state (simhost/server/server.h) */
        fflush(NULL);
        _exit(rc);
    }
    sim_server_free(&server);
    return rc;
}

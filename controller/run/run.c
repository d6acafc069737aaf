/* run.c -- one execution of a plan: sets the runner up (password, token, store, agent pool,
 * loop), runs the loop through the phases (phases.c), and at the end records the run's status
 * and scores it exactly as `sessmax score` does (score/score_run.h).
 *
 * Invariants: the store is the only destination of results and is written on the loop thread;
 * a batch is acknowledged to its agent only after store_flush() committed it; the session
 * ledger holds the state the store also has, so counts shown live match the database. */
#include "controller/run/run.h"

#include "common/clock.h"
#include "common/netcap.h"
#include "common/proto_auth.h"
#include "common/shots.h"
#include "common/workload.h"
#include "controller/report/report.h"
#include "controller/run/agentpool.h"
#include "controller/run/intake.h"
#include "controller/run/phases.h"
#include "controller/run/plan.h"
#include "controller/run/plan_check.h"
#include "controller/run/runner.h"
#include "controller/run/targetcap.h"
#include "controller/run/runscrape.h"
#include "controller/run/targetload.h"
#include "controller/run/targetproc.h"
#include "controller/run/webfeed.h"
#include "controller/score/score_run.h"
#include "db/store.h"

#include <errno.h>
#include <event2/event.h>
#include <openssl/crypto.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sysexits.h>

#define RUN_BATCH_ROWS 20000          /* store batches: commit after this many rows ... */
#define RUN_BATCH_US 1000000          /* ... or this long */
#define RUN_DIR_MODE 0755

static int open_store(struct runner *r, const char *path)
{
    char err[512];
    r->st = store_open(path, STORE_WRITE, err, sizeof err);
    if (!r->st) {
        fprintf(stderr, "sessmax run: %s\n", err);
        return EX_IOERR;
    }
    int stale = store_mark_stale_runs(r->st);
    if (stale > 0)
        fprintf(r->out, "%s: %d earlier run(s) were left running by a killed controller; marked aborted\n", path, stale);
    store_set_batch(r->st, RUN_BATCH_ROWS, RUN_BATCH_US);
    const struct plan *p = r->plan;
    char target[300];
    snprintf(target, sizeof target, "%s:%u", p->target.host, p->target.port);
    char client[128];
    plan_client_label(&p->client, client, sizeof client);
    struct store_run_info info = { p->name, plan_client_transport(&p->client, plan_transport_name(p->transport)), p->platform, p->network, target,
                                   workload_name(r->pc->wl), workload_hash(r->pc->wl), p->text, r->pc->score_json,
                                   p->sessions, clock_wall_us(), r->pc->net_json, client, r->opt->matrix_id,
                                   r->opt->cell };
    r->run = store_run_begin(r->st, &info);
    for (size_t i = 0; r->run > 0 && i < r->pc->wl->ncopies; i++) {
        const struct workload_copy *c = &r->pc->wl->copies[i];
        if (store_add_copy_timer(r->st, r->run, c->timer, c->to_client, c->bytes) < 0)
            r->run = -1;
    }
    if (r->run <= 0 || store_flush(r->st) < 0) {
        fprintf(stderr, "sessmax run: %s: cannot start a run: %s\n", path, store_errmsg(r->st));
        return EX_IOERR;
    }
    return 0;
}

static int get_token(struct runner *r)
{
    if (r->plan->agents.mode == PLAN_AGENTS_LOCAL)
        return proto_new_token(r->token) == 0 ? 0 : EX_SOFTWARE;
    const char *t = getenv("SESSMAX_TOKEN");
    size_t len = t ? strcspn(t, "\r\n") : 0;   /* a Secret file's trailing newline is not part of it */
    if (!t || len < RUN_TOKEN_MIN_LEN || len > RUN_TOKEN_MAX_LEN || t[len + strspn(t + len, "\r\n")]) {
        fprintf(stderr, "sessmax run: remote agents need a shared token of %d-%d characters in SESSMAX_TOKEN "
                        "(on the controller and on every agent), e.g. export SESSMAX_TOKEN=$(openssl rand -hex 32)\n",
                RUN_TOKEN_MIN_LEN, RUN_TOKEN_MAX_LEN);
        return EX_CONFIG;
    }
    snprintf(r->token, sizeof r->token, "%.*s", (int)len, t);
    return 0;
}

/* PNGs of timed-out waits go beside the results: <db>.shots/run-<id>/<user>-loop<k>-<timer>.png */
static const char *shot_dir(struct runner *r, const char *db_path, char *buf, size_t len)
{
    snprintf(buf, len, "%s.shots", db_path);
    mkdir(buf, RUN_DIR_MODE);
    snprintf(buf, len, "%s.shots/run-%lld", db_path, (long long)r->run);
    return (mkdir(buf, RUN_DIR_MODE) == 0 || errno == EEXIST) ? buf : NULL;
}

/* The exact sbatch line that starts the expected agents as a Slurm job array. */
static void announce_slurm(struct runner *r)
{
    const struct plan *p = r->plan;
    const char *addr = agentpool_address(r->pool), *port = strrchr(addr, ':');
    char host[256] = "", ctl[320];
    if (!strncmp(addr, "0.0.0.0:", 8) || !strncmp(addr, "[::]:", 5)) {
        gethostname(host, sizeof host - 1);
        snprintf(ctl, sizeof ctl, "%s%s", host, port);
    } else {
        snprintf(ctl, sizeof ctl, "%s", addr);
    }
    uint32_t cap = p->agents.capacity ? p->agents.capacity : (p->sessions + p->agents.count - 1) / p->agents.count;
    const char *src = getenv("SESSMAX_SOURCE_DIR") ? getenv("SESSMAX_SOURCE_DIR") : SESSMAX_SOURCE_DIR;
    /* --export=NONE and named variables: the job (and Slurm's saved job state) gets no password or token */
    runner_note(r, "or as a Slurm job array: sbatch --array=0-%u --export=NONE,HOME,PATH,SESSMAX_AGENT,"
                   "SESSMAX_TOKEN_FILE,SESSMAX_CONTROLLER=%s,SESSMAX_CAPACITY=%u%s%s "
                   "%s/deploy/slurm/sessmax-agents.sbatch", p->agents.count - 1, ctl, cap,
                p->agents.tls ? ",SESSMAX_TLS_PIN=" : "", p->agents.tls ? agentpool_tls_fingerprint(r->pool) : "", src);
}

static void announce_pool(struct runner *r, const char *agent_log)
{
    const struct plan *p = r->plan;
    if (p->agents.mode == PLAN_AGENTS_LOCAL) {
        runner_note(r, "started %u local agents on %s%s%s (log: %s)", p->agents.count, agentpool_address(r->pool),
                    p->agents.cpus ? ", pinned to CPUs " : "", p->agents.cpus ? p->agents.cpus : "", agent_log);
        return;
    }
    runner_note(r, "waiting up to %.0f s for %u agents on %s", p->agents.wait_us / 1e6, p->agents.count,
                agentpool_address(r->pool));
    if (p->agents.tls)
        runner_note(r, "start each agent with: SESSMAX_TOKEN=... sessmax-agent connect HOST:%s --tls-pin %s",
                    strrchr(agentpool_address(r->pool), ':') + 1, agentpool_tls_fingerprint(r->pool));
    else
        runner_note(r, "WARNING: the agent link is plain TCP: session passwords cross the network unencrypted "
                       "(set agents.tls: true)");
    announce_slurm(r);
}

static int start_pool(struct runner *r, const char *db_path)
{
    const struct plan *p = r->plan;
    char err[512], log_path[1024], shot_path[1024];
    const char *agent_log = r->opt->agent_log;
    if (!agent_log) {
        snprintf(log_path, sizeof log_path, "%s.agents.log", db_path);
        agent_log = log_path;
    }
    int local = p->agents.mode == PLAN_AGENTS_LOCAL;
    struct agentpool_config pc = { local, p->agents.count, p->agents.listen, p->agents.tls, r->token, p->agents.cpus,
                                   p->agents.capacity ? p->agents.capacity : local ? p->sessions : 0,
                                   (uint32_t)(p->agents.heartbeat_timeout_us / 1000),
                                   r->opt->agent_bin ? r->opt->agent_bin : getenv("SESSMAX_AGENT_BIN"), agent_log,
                                   shot_dir(r, db_path, shot_path, sizeof shot_path), p->cred.password_env,
                                   local ? 0 : (uint32_t)(p->agents.grace_us / 1000), p->agents.tls_cert,
                                   p->agents.tls_key };
    snprintf(r->shots, sizeof r->shots, "%s", pc.shot_dir ? pc.shot_dir : "");
    struct agentpool_events ev = intake_events(r);
    r->pool = agentpool_new(r->base, &pc, &ev, err, sizeof err);
    if (!r->pool) {
        fprintf(stderr, "sessmax run: %s\n", err);
        return EX_UNAVAILABLE;
    }
    announce_pool(r, agent_log);
    return 0;
}

/* The run's score, verdict, verdict.json and report, as `sessmax score` computes them. */
static int score_end(struct runner *r)
{
    struct summary sum;
    struct verdict v;
    int code;
    struct score_run_options so = { "run", NULL, r->out, r->opt->verdict_path, 0, r->db_path };
    if (score_run(r->st, r->run, &so, &sum, &v, &code) == 0) {
        runner_stored(r, score_run_store(r->st, &sum, &v), "score");
        if (v.auth_failed)
            snprintf(r->auth_user, sizeof r->auth_user, "%s", v.auth_user);
        if ((r->aborted || r->failed_run || r->store_errors) && code == EXIT_PASS)
            code = EXIT_INCONCLUSIVE;
        char err[512];
        if (r->opt->report_path) {
            if (report_write_summary(&sum, &v, r->opt->report_path, err, sizeof err) < 0)
                fprintf(stderr, "sessmax run: %s\n", err);
            else
                fprintf(r->out, "report: %s\n", r->opt->report_path);
        }
    }
    summary_free(&sum);
    runner_stored(r, store_flush(r->st), "commit");
    return code;
}

/* An index.html beside the PNGs the agents saved (failures, and with --shots all every timer of
 * each session's first loop), one row per user. */
static void contact_sheet(struct runner *r)
{
    char err[512];
    if (!r->shots[0])
        return;
    int n = shots_contact_sheet(r->shots, err, sizeof err);
    if (n > 0)
        fprintf(r->out, "screenshots: %d in %s/index.html\n", n, r->shots);
    else if (n < 0)
        fprintf(stderr, "sessmax run: %s\n", err);
}

static int finish(struct runner *r, struct run_outcome *out)
{
    const struct ledger *l = &r->ledger;
    const char *status = r->aborted ? "aborted" : r->failed_run ? "failed" : "completed";
    if (!r->message[0])
        snprintf(r->message, sizeof r->message, "%u sessions: %u ended cleanly, %u failed", l->launched, l->ended,
                 l->failed);
    runner_stored(r, store_flush(r->st), "commit");
    runner_stored(r, store_run_end(r->st, r->run, status, clock_wall_us(), r->message), "run end");
    snprintf(out->status, sizeof out->status, "%s", status);
    snprintf(out->message, sizeof out->message, "%.250s", r->message);
    livescore_settle(&r->live);
    out->live_score_runs = r->live.runs;
    out->live_score_us = r->live.spent_us;
    out->live_score_max_us = r->live.max_us;
    out->tick_lag_p99_us = ticklag_percentile_us(&r->lag, 99);
    out->tick_lag_max_us = r->lag.max_us;
    out->commits = r->commits;
    out->commit_us = r->commit_us;
    out->commit_max_us = r->commit_max_us;
    progress_done(&r->progress);
    fprintf(r->out, "run %lld %s: %s\n", (long long)r->run, status, r->message);
    contact_sheet(r);
    int code = r->exit_code ? r->exit_code : score_end(r);
    if (r->end_code && code < EX__BASE) {   /* after the score, which lists each session's failure */
        fprintf(r->out, "exit %d %s\n", r->end_code, r->end_why);
        code = r->end_code;
    } else if (!r->exit_code && code == EX_NOPERM) {   /* the verdict's: a logon was refused */
        char words[RESULTS_NAME_LEN + 80];
        verdict_auth_words(r->auth_user, words, sizeof words);
        fprintf(r->out, "exit %d (authentication failed): %s\n", EX_NOPERM, words);
    }
    return code;
}

/* The loop has two priorities: the tick (commit, ACKs, launches, phases) and signals first,
 * agents' links after. Once links' callbacks ran for PHASES_TICK_MS / 5 in a row, libevent looks
 * for due timers again, so a flood of records (every agent's logoff batch at once) cannot hold
 * the commit and the ACKs of what is already stored behind it. */
static struct event_base *new_base(void)
{
    struct event_config *cfg = event_config_new();
    struct timeval most = { 0, PHASES_TICK_MS * 1000 / 5 };
    struct event_base *base = cfg && event_config_set_max_dispatch_interval(cfg, &most, -1, 1) == 0 ?
                              event_base_new_with_config(cfg) : NULL;
    if (cfg)
        event_config_free(cfg);
    if (base && event_base_priority_init(base, 2) < 0) {
        event_base_free(base);
        return NULL;
    }
    return base;
}

static int setup_loop(struct runner *r)
{
    r->base = new_base();
    if (!r->base)
        return -1;
    r->tick = event_new(r->base, -1, EV_PERSIST, phases_tick_cb, r);
    r->launch_ev = evtimer_new(r->base, phases_launch_cb, r);
    r->sig_int = evsignal_new(r->base, SIGINT, phases_signal_cb, r);
    r->sig_term = evsignal_new(r->base, SIGTERM, phases_signal_cb, r);
    struct timeval tv = { 0, PHASES_TICK_MS * 1000 };
    if (!r->tick || !r->launch_ev || !r->sig_int || !r->sig_term || event_priority_set(r->tick, 0) < 0 ||
        event_priority_set(r->launch_ev, 0) < 0 || event_priority_set(r->sig_int, 0) < 0 ||
        event_priority_set(r->sig_term, 0) < 0 || event_add(r->tick, &tv) < 0 ||
        event_add(r->sig_int, NULL) < 0 || event_add(r->sig_term, NULL) < 0)
        return -1;
    return 0;
}

static void teardown(struct runner *r)
{
    webfeed_stop(r);   /* before the loop it runs on */
    agentpool_free(r->pool);
    runscrape_stop(r);   /* before the loop its requests run on */
    targetload_free(r->target_load);
    if (r->tick) event_free(r->tick);
    if (r->launch_ev) event_free(r->launch_ev);
    if (r->sig_int) event_free(r->sig_int);
    if (r->sig_term) event_free(r->sig_term);
    if (r->base) event_base_free(r->base);
    store_close(r->st);
    ledger_free(&r->ledger);
    livescore_free(&r->live);
    OPENSSL_cleanse(r->password, sizeof r->password);
    OPENSSL_cleanse(r->token, sizeof r->token);
}

int run_execute(struct plan_checked *pc, const struct run_options *o, struct run_outcome *out)
{
    struct runner r = { .pc = pc, .plan = pc->plan, .opt = o, .run = -1, .begin_logoff = phases_begin_logoff,
                        .preflight = pc->plan->preflight && !o->no_preflight };
    pc->shot_timers = o->shots_all;
    r.out = o->out ? o->out : stdout;
    memset(out, 0, sizeof *out);
    out->run_id = -1;
    progress_init(&r.progress, r.out, o->tty);
    livescore_init(&r.live, &pc->score.params);
    const char *db_path = r.db_path = o->db_path ? o->db_path : pc->plan->results;
    char err[512];
    int code;
    if (ledger_init(&r.ledger, pc->plan->sessions) < 0 || setup_loop(&r) < 0) {
        fprintf(stderr, "sessmax run: out of memory\n");
        code = EX_SOFTWARE;
        goto out;
    }
    if (plan_read_password(pc->plan, r.password, sizeof r.password, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax run: %s\n", err);
        code = EX_CONFIG;
        goto out;
    }
    /* local agents inherit our privileges: refuse a shaped profile we cannot apply before anything
     * starts (remote agents check their own host and refuse the CONFIG) */
    if (pc->plan->agents.mode == PLAN_AGENTS_LOCAL && netprofile_is_shaped(&pc->plan->net) &&
        netcap_check(err, sizeof err) != 0) {
        fprintf(stderr, "sessmax run: network %s: %s\n", pc->plan->net.name, err);
        code = EX_NOPERM;
        goto out;
    }
    /* a target on this machine: the plan's cap (its CPUs, its quota) holds before anything starts */
    if (pc->plan->target.local.cgroup && targetcap_apply(pc->plan->target.local.cgroup, pc->plan->target.local.cpus,
                                                         pc->plan->target.local.cpu_percent, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax run: %s\n", err);
        code = EX_NOPERM;
        goto out;
    }
    /* the exporters' bearer tokens are read before the store too: an unreadable one leaves no run */
    if (runscrape_start(&r, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax run: %s\n", err);
        code = EX_CONFIG;
        goto out;
    }
    /* before the store: a bad --web-token-file or a busy port leaves no run behind */
    if ((code = webfeed_start(&r, o->web_addr, o->web_token_file)) != 0 || (code = get_token(&r)) != 0 ||
        (code = open_store(&r, db_path)) != 0)
        goto out;
    out->run_id = r.run;
    fprintf(r.out, "run %lld of plan '%s' -> %s\n", (long long)r.run, pc->plan->name, db_path);
    if (pc->plan->target.local.simhost_work_scale > 0)   /* `sessmax demo` consumes it (cmd_demo.c) */
        runner_note(&r, "target.local.simhost_work_scale %g is for the simhost `sessmax demo` starts; "
                    "`sessmax run` starts no server, so it was not applied", pc->plan->target.local.simhost_work_scale);
    const struct plan_target_local *tl = &pc->plan->target.local;
    if (tl->set && (tl->cgroup || tl->process || tl->cpus)) {
        char what[512];
        targetproc_describe(tl->set, tl->cgroup, tl->process, tl->cpus, what, sizeof what);
        runner_note(&r, "target.local: sampling %s", what);
        if (!(r.target_load = tl->cgroup ? targetload_new(tl->cgroup, tl->cpus, err, sizeof err)
                                         : targetload_new_procs(tl->process, tl->cpus, err, sizeof err)))
            runner_note(&r, "%s", err);   /* the run goes on; its report says nothing about the target's CPUs */
    }
    r.t_start_us = clock_now_us();
    if ((code = start_pool(&r, db_path)) != 0) {
        snprintf(r.message, sizeof r.message, "agents could not start");
        r.failed_run = 1;
        r.exit_code = code;
        code = finish(&r, out);
        goto out;
    }
    event_base_dispatch(r.base);
    code = finish(&r, out);
out:
    teardown(&r);
    return code;
}

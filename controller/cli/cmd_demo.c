/* cmd_demo.c -- `sessmax demo` (`make demo`): a real ramp against sessmax-simhost on a CPU budget.
 *
 * Starts sessmax-simhost on a free loopback port with a fresh random password, inside a CPU
 * budget of one CPU (pinned to CPU 1 -- taskset semantics -- and, when running as root with the
 * cgroup v1 cpu controller mounted, also a cfs quota of 1 CPU; simhost runs as SCHED_OTHER even
 * when sessmax runs real-time), runs workloads/demo-plan.yaml with
 * its local agents pinned to CPU 0, then prints the summary and writes demo-out/report.html and
 * demo-out/results.db. The plan's target port and certificate pin are replaced by the live
 * simhost's (the demo pins the fingerprint simhost prints). Before that (unless --as-planned) it
 * runs simhost's predictor on simhost's CPUs and sizes the ramp past the knee it predicts on this
 * machine (demo_size.h). */
#include "controller/cli/cmd_demo.h"
#include "controller/cli/demo_size.h"

#include "common/hostport.h"
#include "common/proto_auth.h"
#include "common/workload.h"
#include "controller/run/agentspawn.h"
#include "controller/run/plan.h"
#include "controller/run/plan_check.h"
#include "controller/run/run.h"
#include "controller/run/targetcap.h"
#include "controller/run/targetload.h"

#include <errno.h>
#include <getopt.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CGROUP_ROOT "/sys/fs/cgroup/cpu"

struct demo {
    char bindir[PATH_MAX], out[PATH_MAX], plan[PATH_MAX], log[PATH_MAX + 16];
    char cgroup[PATH_MAX];
    const char *cpus;              /* simhost's CPUs: the plan's target.local.cpus, default "1" */
    double work_scale;             /* simhost's --work-scale: target.local.simhost_work_scale, default 1 */
    unsigned users;                /* simhost's --users: enough for every session's user name */
    char fingerprint[200];
    uint16_t port;
    uint16_t metrics_port;         /* simhost's --metrics-listen (its own node_exporter-style metrics); 0 none */
    pid_t simhost;
};

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

unsigned cmd_demo_shares(int caller_policy)
{
    return caller_policy == SCHED_FIFO || caller_policy == SCHED_RR ? DEMO_SHARES_MEASURE : DEMO_SHARES_PLAIN;
}

/* A cgroup v1 cpu quota of `percent` % of one CPU; "" in d->cgroup when not available (not root,
 * no v1). The run samples the group's CPU use and its neighbours' (plan target.local).
 *
 * The budget is the plan's in both kinds of run. simhost always runs as SCHED_OTHER
 * (child_simhost), so the cfs quota is what limits it, and its threads share the CPU the way the
 * plan's budget means (CFS, as for a real host). Running it real-time under a group RT runtime
 * equal to the quota would give the same CPU-seconds per second, but SCHED_RR serves equal-priority
 * threads in 100 ms slices: a woken event loop (keystroke echoes, frame sends) would queue behind
 * each running action's worker instead of preempting it, so the figure would be for another
 * server. What real-time scheduling of the caller (a quiet-machine measurement: chrt) is for --
 * that other jobs on a loaded shared machine do not take simhost's CPU -- is kept by the group's
 * weight: cpu.shares at the maximum, against 1024 for each nice-0 task outside it, leaves a busy
 * neighbour on simhost's CPU about 0.4 % of it, and the quota still caps simhost at the plan's
 * share. A plain run keeps the default weight (it shares the CPU as any job does). */
static void make_cgroup(struct demo *d, uint32_t percent)
{
    d->cgroup[0] = 0;
    if (geteuid() != 0 || access(CGROUP_ROOT "/cpu.cfs_quota_us", W_OK) != 0)
        return;
    snprintf(d->cgroup, sizeof d->cgroup, "%s/sessmax-demo-%ld", CGROUP_ROOT, (long)getpid());
    if (mkdir(d->cgroup, 0755) < 0) {
        d->cgroup[0] = 0;
        return;
    }
    char err[256], path[PATH_MAX + 32], shares[16];
    snprintf(path, sizeof path, "%s/cpu.shares", d->cgroup);
    snprintf(shares, sizeof shares, "%u", cmd_demo_shares(sched_getscheduler(0)));
    if (write_file(path, shares) < 0 || targetcap_apply(d->cgroup, NULL, percent, err, sizeof err) < 0) {
        rmdir(d->cgroup);
        d->cgroup[0] = 0;
    }
}

/* In a child that becomes simhost (or its predictor): SCHED_OTHER whatever the caller runs as
 * (make_cgroup says why; the nice value is kept), before joining a group (a real-time task cannot
 * join a group without real-time runtime). */
static void child_sched_other(void)
{
    struct sched_param sp = { .sched_priority = 0 };
    sched_setscheduler(0, SCHED_OTHER, &sp);
}

/* In that child: simhost's CPUs (the plan's target.local.cpus), when there is more than one. */
static void child_pin(const struct demo *d)
{
    cpu_set_t set;
    if (sysconf(_SC_NPROCESSORS_ONLN) > 1 && targetload_parse_cpus(d->cpus, &set) > 0)
        sched_setaffinity(0, sizeof set, &set);
}

/* In that child: stdout and stderr into path. */
static void child_output(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
    }
}

static void child_simhost(const struct demo *d)
{
    char listen[64], procs[PATH_MAX + 32], pid[32], bin[PATH_MAX + 32], state[PATH_MAX + 32], users[16], scale[32];
    setpgid(0, 0);   /* Ctrl-C on the terminal goes to sessmax, which logs off before stopping simhost */
    child_sched_other();
    int joined = 0;
    if (d->cgroup[0]) {
        snprintf(procs, sizeof procs, "%s/cgroup.procs", d->cgroup);
        snprintf(pid, sizeof pid, "%ld", (long)getpid());
        joined = write_file(procs, pid);
    }
    child_pin(d);
    child_output(d->log);
    if (joined < 0)
        fprintf(stderr, "sessmax demo: simhost could not join %s: it runs outside the plan's CPU quota\n", d->cgroup);
    snprintf(listen, sizeof listen, "127.0.0.1:%u", d->port);
    snprintf(bin, sizeof bin, "%s/sessmax-simhost", d->bindir);
    snprintf(state, sizeof state, "%s/simhost", d->out);
    snprintf(users, sizeof users, "%u", d->users);
    snprintf(scale, sizeof scale, "%.17g", d->work_scale);
    char metrics[64];
    snprintf(metrics, sizeof metrics, "127.0.0.1:%u", d->metrics_port);
    char *argv[] = { bin, "--listen", listen, "--users", users, "--work-scale", scale, "--state-dir", state,
                     d->metrics_port ? "--metrics-listen" : NULL, metrics, NULL };
    agentspawn_exec(bin, argv);
}

/* Waits for simhost's "listening on ... fingerprint sha256:..." line. */
static int wait_listening(struct demo *d)
{
    for (int i = 0; i < 300; i++) {
        FILE *f = fopen(d->log, "r");
        char line[512];
        while (f && fgets(line, sizeof line, f)) {
            char *fp = strstr(line, "listening on");
            fp = fp ? strstr(fp, "sha256:") : NULL;
            if (fp) {
                fp[strcspn(fp, " \r\n")] = 0;
                snprintf(d->fingerprint, sizeof d->fingerprint, "%s", fp);
                fclose(f);
                return 0;
            }
        }
        if (f)
            fclose(f);
        if (waitpid(d->simhost, NULL, WNOHANG) == d->simhost) {
            d->simhost = 0;
            return -1;
        }
        usleep(100000);
    }
    return -1;
}

static void stop_simhost(struct demo *d)
{
    if (d->simhost > 0) {
        kill(d->simhost, SIGTERM);
        for (int i = 0; i < 50 && waitpid(d->simhost, NULL, WNOHANG) == 0; i++)
            usleep(100000);
        kill(d->simhost, SIGKILL);
        waitpid(d->simhost, NULL, 0);
        d->simhost = 0;
    }
    if (d->cgroup[0])
        rmdir(d->cgroup);
}

/* The CPUs simhost gets: those of its CPU list (all of them on a one-CPU machine, where it is not
 * pinned) times the plan's cpu_percent. */
static double budget_cpus(const struct demo *d, uint32_t percent)
{
    cpu_set_t set;
    int n = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? targetload_parse_cpus(d->cpus, &set) : 1;
    double c = n > 0 ? n : 1;
    return percent && percent / 100.0 < c ? percent / 100.0 : c;
}

/* Runs `sessmax-simhost --predict --plan PLAN --cpus C --ramp-to CAP` on simhost's CPUs, as
 * simhost would run (SCHED_OTHER), its output into OUT/predict.txt; parses it into *k.
 * Returns 0, or -1 (the predictor failed or printed no prediction). */
static int predict_knee(const struct demo *d, double cpus, unsigned cap, struct demo_knee *k)
{
    char bin[PATH_MAX + 32], state[PATH_MAX + 32], path[PATH_MAX + 32], c[32], to[16], scale[32];
    snprintf(bin, sizeof bin, "%s/sessmax-simhost", d->bindir);
    snprintf(state, sizeof state, "%s/predict", d->out);
    snprintf(path, sizeof path, "%s/predict.txt", d->out);
    snprintf(c, sizeof c, "%g", cpus);
    snprintf(to, sizeof to, "%u", cap);
    snprintf(scale, sizeof scale, "%.17g", d->work_scale);
    pid_t pid = fork();
    if (pid == 0) {
        child_sched_other();
        child_pin(d);
        child_output(path);
        char *argv[] = { bin, "--predict", "--plan", (char *)d->plan, "--cpus", c, "--ramp-to", to,
                         "--work-scale", scale, "--state-dir", state, NULL };
        agentspawn_exec(bin, argv);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return -1;
    FILE *f = fopen(path, "r");
    static char text[1 << 16];
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = 0;
    return demo_size_parse(text, k);
}

/* Sizes the plan's ramp past the knee the predictor expects on this machine and says what it
 * decided and why; a failed prediction leaves the plan as written (k->smax 0, k->reached 0). */
static void size_ramp(const struct demo *d, struct plan *p, uint32_t percent, struct demo_knee *out)
{
    *out = (struct demo_knee){ 0 };
    double cpus = budget_cpus(d, percent);
    unsigned cap = demo_size_cap(p->sessions, p->launch_window_us);
    if (!cap || p->loops)
        return;
    printf("sessmax demo: predicting the knee on this machine (sessmax-simhost --predict --plan --cpus %g "
           "--ramp-to %u, on CPU %s; about 20 s)\n", cpus, cap, d->cpus);
    fflush(stdout);
    struct demo_knee k;
    struct demo_size z;
    if (predict_knee(d, cpus, cap, &k) < 0) {
        printf("sessmax demo: no prediction (see %s/predict.txt): ramping as the plan says, %u users over %.0f s\n",
               d->out, p->sessions, p->launch_window_us / 1e6);
        return;
    }
    demo_size_ramp(p->sessions, p->launch_window_us, &k, &z);
    double rate = p->sessions / (p->launch_window_us / 1e6);
    if (!k.reached)
        printf("sessmax demo: no knee predicted within %u users on this machine (%.3f s of CPU per loop): ramping "
               "to %u over %.0f s; the run may end without one\n", cap, k.loop_cpu_s, z.sessions,
               z.launch_window_us / 1e6);
    else if (z.kept)
        printf("sessmax demo: predicted knee %u on this machine (%.3f s of CPU per loop): the plan's %u users "
               "ramp %.2fx past it\n", k.smax, k.loop_cpu_s, z.sessions, z.past);
    else
        printf("sessmax demo: predicted knee %u on this machine (%.3f s of CPU per loop): ramping to %u users "
               "(%.2fx the knee%s) over %.0f s, the plan's %.2f users/s\n", k.smax, k.loop_cpu_s, z.sessions,
               z.past, z.capped ? ", as far as a 10-minute ramp goes" : "", z.launch_window_us / 1e6, rate);
    p->sessions = z.sessions;
    p->launch_window_us = z.launch_window_us;
    *out = k;
}

/* Minutes the run should take: the ramp and steady state, or with early_stop and a predicted knee
 * k up to that knee plus the margin; then half the logoff deadline. */
static double expect_minutes(const struct plan *p, const struct demo_knee *k)
{
    double s = (p->launch_window_us + p->steady_state_us) / 1e6;
    if (p->early_stop && k->reached && p->sessions) {
        double cross = (k->smax + 1) * (p->launch_window_us / 1e6) / p->sessions + p->early_stop_margin_us / 1e6;
        s = cross < s ? cross : s;
    }
    return (s + p->logoff_deadline_us / 2e6) / 60;
}

static void set_paths(struct demo *d, const char *out, const char *plan)
{
    ssize_t n = readlink("/proc/self/exe", d->bindir, sizeof d->bindir - 1);
    d->bindir[n > 0 ? n : 0] = 0;
    char *slash = strrchr(d->bindir, '/');
    if (slash)
        *slash = 0;
    snprintf(d->out, sizeof d->out, "%s", out);
    if (plan)
        snprintf(d->plan, sizeof d->plan, "%s", plan);
    else
        snprintf(d->plan, sizeof d->plan, "%s/workloads/demo-plan.yaml",
                 getenv("SESSMAX_SOURCE_DIR") ? getenv("SESSMAX_SOURCE_DIR") : SESSMAX_SOURCE_DIR);
    snprintf(d->log, sizeof d->log, "%s/simhost.log", d->out);
}

/* Runs the controller (and the threads it starts from now on) on the agents' CPUs, off simhost's.
 * Under `chrt` (a quiet-machine measurement) the controller is real-time: anywhere else it would
 * preempt simhost on its CPU whatever the group's weight (bench/demo-predict.sh runs saw other
 * processes take up to 80 % of simhost's CPU for seconds), and the run's figure would move with
 * the controller's bursts. Without a plan `agents: cpus:` (or on one CPU) nothing changes. */
static void keep_off_target(const char *agent_cpus)
{
    cpu_set_t set;
    if (agent_cpus && sysconf(_SC_NPROCESSORS_ONLN) > 1 && targetload_parse_cpus(agent_cpus, &set) > 0 &&
        sched_setaffinity(0, sizeof set, &set) == 0)
        printf("sessmax demo: controller pinned to CPU %s (the agents' CPUs)\n", agent_cpus);
}

/* The run scrapes simhost's own metrics (unless the plan names exporters of its own), so the demo
 * says which resource ran out at the knee. */
static void scrape_simhost(struct plan *p, const struct demo *d)
{
    struct plan_metrics *m = &p->target.metrics;
    char url[64];
    if (!d->metrics_port || m->n)
        return;
    snprintf(url, sizeof url, "http://127.0.0.1:%u/metrics", d->metrics_port);
    if (!(m->ep[0].url = strdup(url)))
        return;
    m->ep[0].interval_us = 2000000;
    m->n = 1;
}

/* Points the plan at the live simhost: its port, its certificate pinned. */
static void retarget(struct plan *p, const struct demo *d)
{
    free(p->target.host);
    p->target.host = strdup("127.0.0.1");
    p->target.port = d->port;
    free(p->target.fingerprint);
    p->target.fingerprint = strdup(d->fingerprint);
    p->target.no_verify = 0;
}

static int demo(int argc, char **argv)
{
    static const struct option opts[] = {
        { "out", required_argument, NULL, 'o' }, { "plan", required_argument, NULL, 'p' },
        { "as-planned", no_argument, NULL, 'a' }, { NULL, 0, NULL, 0 },
    };
    const char *out = "demo-out", *plan_path = NULL;
    int c, as_planned = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'p': plan_path = optarg; break;
        case 'a': as_planned = 1; break;
        default: return cmd_usage_error(&cmd_demo, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cmd_usage_error(&cmd_demo, "unexpected argument '%s'", argv[optind]);
    struct demo d = { 0 };
    set_paths(&d, out, plan_path);
    mkdir(d.out, 0755);
    char pw[65], db[PATH_MAX + 16], report[PATH_MAX + 16], verdict[PATH_MAX + 16], err[PLAN_ERR_LEN];
    if (proto_new_token(pw) < 0)
        return EX_SOFTWARE;
    pw[24] = 0;
    setenv("SESSMAX_PASSWORD", pw, 1);   /* simhost's accounts and the plan's password_env */
    struct plan_checked pc;
    int rc = plan_check_load(d.plan, &pc, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "%s\n", err);
        return rc;
    }
    int port = hostport_free_loopback();
    if (port <= 0) {
        fprintf(stderr, "sessmax demo: no free loopback port\n");
        plan_check_free(&pc);
        return EX_OSERR;
    }
    d.port = (uint16_t)port;
    int mport = hostport_free_loopback();
    d.metrics_port = mport > 0 && mport != port ? (uint16_t)mport : 0;
    struct plan_target_local *tl = &pc.plan->target.local;
    uint32_t percent = tl->cpu_percent ? tl->cpu_percent : 100;
    d.cpus = tl->cpus ? tl->cpus : "1";
    d.work_scale = tl->simhost_work_scale > 0 ? tl->simhost_work_scale : 1;
    tl->simhost_work_scale = 0;   /* applied here: the run has nothing to say about it */
    struct demo_knee knee = { 0 };
    if (!as_planned)
        size_ramp(&d, pc.plan, percent, &knee);
    d.users = pc.plan->cred.first + pc.plan->sessions - 1;   /* simuser001.. up to the last session's n */
    d.users = d.users < 60 ? 60 : d.users > 9999 ? 9999 : d.users;   /* simhost's --users range ends at 9999 */
    make_cgroup(&d, percent);
    if (d.cgroup[0])
        printf("sessmax demo: simhost on 127.0.0.1:%u (work-scale %g), pinned to CPU %s, cgroup v1 cfs quota %u %% "
               "of a CPU (SCHED_OTHER, cpu.shares %u); agents pinned to CPU %s\n", d.port, d.work_scale, d.cpus,
               percent, cmd_demo_shares(sched_getscheduler(0)), pc.plan->agents.cpus ? pc.plan->agents.cpus : "(any)");
    else
        printf("sessmax demo: simhost on 127.0.0.1:%u (work-scale %g), pinned to CPU %s (no cgroup v1 quota: not root "
               "or not mounted); agents pinned to CPU %s\n", d.port, d.work_scale, d.cpus,
               pc.plan->agents.cpus ? pc.plan->agents.cpus : "(any)");
    if (d.cgroup[0]) {   /* the run samples simhost's CPU use and its neighbours' */
        free(tl->cgroup);
        tl->cgroup = strdup(d.cgroup);
        if (!tl->cpus)
            tl->cpus = strdup(d.cpus);
        tl->set = 1;
    }
    fflush(stdout);
    d.simhost = fork();
    if (d.simhost == 0)
        child_simhost(&d);
    if (d.simhost < 0 || wait_listening(&d) < 0) {
        fprintf(stderr, "sessmax demo: sessmax-simhost did not start (see %s)\n", d.log);
        stop_simhost(&d);
        plan_check_free(&pc);
        return EX_UNAVAILABLE;
    }
    retarget(pc.plan, &d);
    scrape_simhost(pc.plan, &d);
    if (!tl->cgroup && !tl->process) {   /* no quota group: simhost is sampled by its pid (targetproc.h) */
        char pid[24];
        snprintf(pid, sizeof pid, "%ld", (long)d.simhost);
        tl->process = strdup(pid);
        if (!tl->cpus)
            tl->cpus = strdup(d.cpus);
        tl->set = 1;
    }
    keep_off_target(pc.plan->agents.cpus);
    snprintf(db, sizeof db, "%s/results.db", d.out);
    snprintf(report, sizeof report, "%s/report.html", d.out);
    snprintf(verdict, sizeof verdict, "%s/verdict.json", d.out);
    printf("sessmax demo: simhost certificate %s (pinned)\n", d.fingerprint);
    if (pc.plan->loops)
        printf("sessmax demo: %u users over %.0f s, each running %u loops of %s\n", pc.plan->sessions,
               pc.plan->launch_window_us / 1e6, pc.plan->loops, pc.wl->name);
    else
        printf("sessmax demo: %u users over %.0f s; expect about %.0f minutes%s\n", pc.plan->sessions,
               pc.plan->launch_window_us / 1e6, ceil(expect_minutes(pc.plan, &knee)),
               pc.plan->early_stop && knee.reached ? " (the run stops after the knee)" : "");
    fflush(stdout);
    struct run_options o = { .db_path = db, .tty = -1, .report_path = report, .verdict_path = verdict };
    struct run_outcome res;
    rc = run_execute(&pc, &o, &res);
    stop_simhost(&d);
    plan_check_free(&pc);
    printf("\nresults: %s (run %lld)\nreport:  %s\nverdict: %s\n", db, (long long)res.run_id, report, verdict);
    /* the verdict's code, as `sessmax run` exits: a demo that ends inconclusive on a busy
     * machine says so to the shell too (the summary above says why) */
    return rc;
}

const struct cmd cmd_demo = {
    "demo", "run the shipped demo: simhost on one CPU, ramped past its knee, summary and HTML report (~5 min)",
    "usage: sessmax demo [--out DIR] [--plan PLAN] [--as-planned]\n\n"
    "Starts sessmax-simhost on a free loopback port within a CPU budget of one CPU (pinned to\n"
    "CPU 1; as root with cgroup v1 also a cfs quota of one CPU), runs workloads/demo-plan.yaml\n"
    "(at least 120 task workers at 0.5 users/s, simhost at work-scale 0.5, local agents pinned to\n"
    "CPU 0), prints the summary and writes DIR/results.db, DIR/report.html and DIR/verdict.json\n"
    "(DIR defaults to demo-out).\n"
    "First it predicts the knee on this machine (sessmax-simhost --predict --plan, about 20 s) and,\n"
    "when the plan's sessions reach less than 1.3x it, ramps to 1.4x it at the plan's rate (a\n"
    "launch window of at most 10 minutes; the plan's early_stop ends the run after the knee).\n"
    "--as-planned runs the plan's sessions and launch window as written.\n"
    "A random password is made for the run; nothing is needed beforehand. Exits with the\n"
    "verdict's code, as `sessmax run` does (on a busy machine the verdict can be inconclusive).\n",
    demo,
};

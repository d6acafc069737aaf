/* bench_controller_scale.c -- the controller carrying 100,000 sessions: 200 synthetic agents x
 * 500 sessions over the real agent link, driven by the real `sessmax run` code.
 *
 * The controller is run_execute() on a generated plan (remote agents expected on loopback with
 * TLS, 100,000 sessions ramped over LAUNCH_S, the task-worker workload): listener, TLS 1.3,
 * token proofs, clock probes, tagged frames, ramp and START messages, intake, ledger, live
 * score, batched store commits and ACKs are all the production ones. The agents are one child
 * process (bench_controller_scale_agents.h); by default the controller runs on CPU 1 and the
 * agents on CPU 0 (--controller-cpu, --agents-cpu; -1: not pinned), so that neither takes the
 * other's CPU. On a loaded machine run it under `chrt -r 10` and say so beside the figures.
 *
 * Printed, each with its target: ingest rates, controller CPU and peak RSS (this process; the
 * agents are a child), the agents' CPU, live-score cost, commit time, batch-to-ACK latency and
 * ACKs dropped or late (LATE_US). Run: build/bench/bench_controller_scale (about 4 minutes,
 * ~1 GB of disk in /tmp). */
#include "bench/bench_controller_scale_agents.h"
#include "common/procstat.h"
#include "common/clock.h"
#include "common/hostport.h"
#include "common/log.h"
#include "common/numarg.h"
#include "common/proto_auth.h"
#include "common/tls.h"
#include "controller/run/plan_check.h"
#include "controller/run/run.h"

#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sysexits.h>
#include <unistd.h>

/* --- the controller side (this process) ------------------------------------------------------- */

struct probe {                   /* CPU and RSS of this process, twice a second */
    uint64_t t[4096], cpu[4096];
    long rss_kb[4096], anon_kb[4096], file_kb[4096];   /* VmRSS; heap and the like; pages of mapped files */
    size_t n;
    volatile int stop;
};

static uint64_t cpu_us(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000u + (uint64_t)(ru.ru_utime.tv_usec +
                                                                                         ru.ru_stime.tv_usec);
}

static void *probe_main(void *arg)
{
    struct probe *p = arg;
    while (!p->stop && p->n < 4096) {
        p->t[p->n] = clock_wall_us();
        p->rss_kb[p->n] = procstat_kb(getpid(), "VmRSS:");
        p->anon_kb[p->n] = procstat_kb(getpid(), "RssAnon:");
        p->file_kb[p->n] = procstat_kb(getpid(), "RssFile:");
        p->cpu[p->n++] = cpu_us();
        usleep(500000);
    }
    return NULL;
}

/* The highest of v[] sampled between two wall-clock instants, in MiB. */
static double peak_mib(const struct probe *p, const long *v, uint64_t from, uint64_t to)
{
    long m = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->t[i] >= from && p->t[i] <= to && v[i] > m)
            m = v[i];
    return m / 1024.0;
}

/* Share of one core this process used between two wall-clock instants. */
static double cpu_share(const struct probe *p, uint64_t from, uint64_t to)
{
    size_t a = 0, b = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->t[i] <= from)
            a = i;
        if (p->t[i] <= to)
            b = i;
    }
    return b > a ? (double)(p->cpu[b] - p->cpu[a]) / (double)(p->t[b] - p->t[a]) : 0;
}

/* The run's console goes to stderr; the line naming the certificate pin is handed to the
 * agents' process ("ADDR PIN"). */
struct console {
    char addr[64];
    int pin_fd;
    int sent;
};

static ssize_t console_write(void *cookie, const char *buf, size_t len)
{
    struct console *c = cookie;
    fwrite(buf, 1, len, stderr);
    const char *p = memmem(buf, len, "--tls-pin ", 10);
    if (p && !c->sent) {
        char pin[TLS_FP_LEN], line[200];
        if (sscanf(p + 10, "%119s", pin) == 1) {
            int n = snprintf(line, sizeof line, "%s %s\n", c->addr, pin);
            if (write(c->pin_fd, line, (size_t)n) != n)
                fprintf(stderr, "bench: cannot reach the agents\n");
            c->sent = 1;
        }
    }
    return (ssize_t)len;
}

static int write_plan(const char *dir, const char *addr, char *path, size_t len)
{
    const char *src = getenv("SESSMAX_SOURCE_DIR") ? getenv("SESSMAX_SOURCE_DIR") : SESSMAX_SOURCE_DIR;
    snprintf(path, len, "%s/plan.yaml", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "version: 1\nname: bench-100k\ntarget: {host: 127.0.0.1, port: 9, verify: false}\n"
               "credentials: {user: \"u{n:06}\", password_env: SESSMAX_BENCH_PASSWORD}\n"
               "workload: %s/workloads/simhost-task-worker.yaml\nsessions: %d\nlaunch_window: %ds\n"
               "steady_state: %ds\nlogoff_deadline: 30s\n"
               "agents: {expect: %d, listen: \"%s\", tls: true, capacity: %d, wait: 2m}\nresults: %s/bench.db\n",
            src, AGENTS * PER_AGENT, LAUNCH_S, STEADY_S, AGENTS, addr, PER_AGENT, dir);
    return fclose(f);
}

static double hist_ms(const uint32_t *h, uint64_t n, double q)
{
    uint64_t want = (uint64_t)(q * (double)n), seen = 0;
    for (int i = 0; i <= HIST_MS; i++)
        if ((seen += h[i]) > want || (seen == n && n))
            return i + 1;
    return 0;
}

static uint64_t hist_n(const uint32_t *h)
{
    uint64_t n = 0;
    for (int i = 0; i <= HIST_MS; i++)
        n += h[i];
    return n;
}

static const char *met(int ok)
{
    return ok ? "met" : "NOT met";
}

/* Batch -> ACK latency and lateness, regular and burst batches apart, against LATE_US. */
static void print_acks(const struct scale_report *r)
{
    uint64_t n = hist_n(r->hist), bn = hist_n(r->bhist);
    printf("  %-44s p50 %.0f ms, p99 %.0f ms, max %s%.0f ms (%llu batches)   target p99 <= %llu ms: %s\n",
           "regular batch sent -> ACK received", hist_ms(r->hist, n, 0.5), hist_ms(r->hist, n, 0.99),
           r->hist[HIST_MS] ? "> " : "", hist_ms(r->hist, n, 1.0), (unsigned long long)n, LATE_US / 1000,
           met(n && hist_ms(r->hist, n, 0.99) <= LATE_US / 1000));
    printf("  %-44s p50 %.0f ms, p99 %.0f ms, max %s%.0f ms (%llu batches of %u, %u in flight per agent)"
           "   target p99 <= %llu ms: %s\n", "burst batch sent -> ACK received", hist_ms(r->bhist, bn, 0.5),
           hist_ms(r->bhist, bn, 0.99), r->bhist[HIST_MS] ? "> " : "", hist_ms(r->bhist, bn, 1.0),
           (unsigned long long)bn, BURST_BATCH, WINDOW, LATE_US / 1000, met(bn && hist_ms(r->bhist, bn, 0.99) <=
                                                                                        LATE_US / 1000));
    printf("  %-44s %llu of %llu   target 0: %s\n", "ACKs dropped (link closed before the ACK)",
           (unsigned long long)r->dropped, (unsigned long long)r->batches, met(!r->dropped && r->acked == r->batches));
    printf("  %-44s %llu regular + %llu burst of %llu   target 0: %s\n", "ACKs late (> 1 s: one heartbeat interval)",
           (unsigned long long)r->late, (unsigned long long)r->burst_late, (unsigned long long)r->batches,
           met(!r->late && !r->burst_late));
    if (r->late_first)
        printf("  %-44s between %.1f s and %.1f s after the first START (STOP came at %.1f s)\n",
               "late batches were sent", (r->late_first - r->first_start) / 1e6, (r->late_last - r->first_start) / 1e6,
               r->stop_at ? (r->stop_at - r->first_start) / 1e6 : 0);
}

struct figures {
    const struct scale_report *r;
    const struct run_outcome *o;
    const struct probe *p;
    long rss_kb;
    uint64_t end_us;
    int controller_cpu, agents_cpu;
};

static void print_load(const struct figures *f)
{
    const struct scale_report *r = f->r;
    uint64_t ramp_end = r->first_start + LAUNCH_S * 1000000ull;
    double burst_s = (double)(r->burst_t1 - r->burst_t0) / 1e6, rate = burst_s > 0 ? r->burst_samples / burst_s : 0;
    double run_s = (double)(f->end_us - r->first_start) / 1e6;
    printf("  %-44s %u of %d, %u lost   target all, none lost: %s\n", "agents connected", r->agents_ready, AGENTS,
           r->agents_lost, met(r->agents_ready == AGENTS && !r->agents_lost));
    printf("  %-44s %u of %d   target all: %s\n", "sessions started", r->sessions, AGENTS * PER_AGENT,
           met(r->sessions == AGENTS * PER_AGENT));
    printf("  %-44s %llu samples, %llu records in %llu batches (%.0f records/s over the run)\n", "sent",
           (unsigned long long)r->samples, (unsigned long long)r->records, (unsigned long long)r->batches,
           run_s > 0 ? r->records / run_s : 0);
    if (!r->burst_t0)
        printf("  %-44s no burst batch could be sent   target >= 500000 samples/s: NOT met\n",
               "committed + acked during the burst");
    else
        printf("  %-44s %.0f samples/s (%llu in %.1f s)   target >= 500000 samples/s: %s\n",
               "committed + acked during the burst", rate, (unsigned long long)r->burst_samples, burst_s,
               met(rate >= 500000));
    uint64_t steady_end = r->burst_t0 ? r->burst_t0 : ramp_end + STEADY_S * 1000000ull;
    printf("  %-44s %.0f %% / %.0f %% / %.0f %% of one core (CPU %d)%s\n", "controller CPU: ramp / steady / burst",
           100 * cpu_share(f->p, r->first_start, ramp_end), 100 * cpu_share(f->p, ramp_end + 2000000, steady_end),
           100 * cpu_share(f->p, r->burst_t0, r->burst_t1), f->controller_cpu, r->burst_t0 ? "" : " (no burst)");
    printf("  %-44s %.0f %% of one core on average (CPU %d)\n", "synthetic agents' CPU",
           run_s > 0 ? 100 * r->cpu_us / 1e6 / run_s : 0, f->agents_cpu);
    uint64_t end = r->last_close;
    printf("  %-44s %.1f MiB   target <= 1024 MiB: %s\n", "controller peak RSS (VmHWM)", f->rss_kb / 1024.0,
           met(f->rss_kb <= 1024 * 1024));
    printf("  %-44s %.1f MiB (%.1f MiB anonymous, %.1f MiB mapped files)   target <= 1024 MiB: %s\n",
           "  highest seen until the last agent left", peak_mib(f->p, f->p->rss_kb, 0, end),
           peak_mib(f->p, f->p->anon_kb, 0, end), peak_mib(f->p, f->p->file_kb, 0, end),
           met(peak_mib(f->p, f->p->rss_kb, 0, end) <= 1024));
    printf("  %-44s %.1f MiB (%.1f MiB anonymous: the closing score: each timer's ok values, the measure samples)\n",
           "  highest seen after (report and score)", peak_mib(f->p, f->p->rss_kb, end, UINT64_MAX),
           peak_mib(f->p, f->p->anon_kb, end, UINT64_MAX));
}

static void print_figures(const struct figures *f)
{
    const struct scale_report *r = f->r;
    const struct run_outcome *o = f->o;
    double run_s = (double)(f->end_us - r->first_start) / 1e6;
    printf("controller at scale: %u synthetic agents x %d sessions over the agent link (TLS 1.3, token proofs, tagged frames),\n"
           "  run by run_execute: ramp over %d s, steady %d s, task-worker samples + traffic + health, burst of %d s\n",
           r->agents_ready, PER_AGENT, LAUNCH_S, STEADY_S, BURST_S);
    print_load(f);
    printf("  %-44s %u runs, %.1f ms each on average, %.1f ms the longest (%.2f %% of the run, off the loop thread)\n",
           "live score", o->live_score_runs, o->live_score_runs ? o->live_score_us / 1e3 / o->live_score_runs : 0,
           o->live_score_max_us / 1e3, run_s > 0 ? 100 * o->live_score_us / 1e6 / run_s : 0);
    printf("  %-44s p99 %.0f ms, max %.0f ms (the loop thread held up by anything)\n",
           "controller tick later than due (every 250 ms)", o->tick_lag_p99_us / 1e3, o->tick_lag_max_us / 1e3);
    printf("  %-44s %llu commits, %.1f ms on average, %.1f ms the longest\n", "store commits (every 250 ms)",
           (unsigned long long)o->commits, o->commits ? o->commit_us / 1e3 / o->commits : 0, o->commit_max_us / 1e3);
    print_acks(r);
    printf("  late: an ACK that reaches the agent more than %llu ms after its batch left (one heartbeat interval of the\n"
           "  link, four 250 ms commits); dropped: a batch whose link closed before its ACK\n", LATE_US / 1000);
    printf("  run %s: %s\n", o->status, o->message);
}

static int pin_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return cpu < 0 ? 0 : sched_setaffinity(0, sizeof set, &set);
}

static const char usage[] = "usage: bench_controller_scale [--controller-cpu N] [--agents-cpu N]\n"
                            "  pin the controller (default CPU 1) and the synthetic agents (default CPU 0); -1: not pinned\n";

static int parse_args(int argc, char **argv, int *controller_cpu, int *agents_cpu)
{
    static const struct option opts[] = { { "controller-cpu", required_argument, NULL, 'c' },
                                          { "agents-cpu", required_argument, NULL, 'a' },
                                          { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    *controller_cpu = ncpu > 1 ? 1 : -1;
    *agents_cpu = ncpu > 1 ? 0 : -1;
    int c;
    char err[200];
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        unsigned long v;
        if (c == 'h' || c == '?') {
            fputs(usage, c == 'h' ? stdout : stderr);
            return c == 'h' ? EX_OK : EX_USAGE;
        }
        if (strcmp(optarg, "-1") == 0) {
            v = (unsigned long)-1;
        } else if (numarg_ulong(c == 'c' ? "--controller-cpu" : "--agents-cpu", optarg, 0, (unsigned long)ncpu - 1, &v,
                                err, sizeof err) < 0) {
            fprintf(stderr, "bench_controller_scale: %s\n", err);
            return EX_USAGE;
        }
        *(c == 'c' ? controller_cpu : agents_cpu) = (int)(long)v;
    }
    return optind < argc ? (fputs(usage, stderr), EX_USAGE) : -1;
}

/* The agents' process, pinned; its report comes back on the pipe it returns (-1: none). */
static int spawn_agents(struct console *con, int cpu, pid_t *pid)
{
    int pp[2], rp[2];
    if (pipe(pp) < 0 || pipe(rp) < 0)
        return -1;
    if ((*pid = fork()) == 0) {
        close(pp[1]);
        close(rp[0]);
        if (pin_to(cpu) < 0)
            perror("bench: agents' CPU");
        _exit(scale_agents_main(pp[0], rp[1]));
    }
    close(pp[0]);
    close(rp[1]);
    con->pin_fd = pp[1];
    return *pid < 0 ? -1 : rp[0];
}

int main(int argc, char **argv)
{
    struct figures f = { 0 };
    int rc = parse_args(argc, argv, &f.controller_cpu, &f.agents_cpu);
    if (rc >= 0)
        return rc;
    log_init("bench_controller_scale", LOG_WARN);
    signal(SIGPIPE, SIG_IGN);
    char dir[] = "/tmp/bench_scale_XXXXXX", plan[256], token[65], err[512];
    struct console con = { 0 };
    pid_t pid;
    if (!mkdtemp(dir) || proto_new_token(token) < 0)
        return EX_IOERR;
    snprintf(con.addr, sizeof con.addr, "127.0.0.1:%d", hostport_free_loopback());
    setenv("SESSMAX_TOKEN", token, 1);
    setenv("SESSMAX_BENCH_PASSWORD", "bench-password", 1);
    if (write_plan(dir, con.addr, plan, sizeof plan) < 0)
        return EX_IOERR;
    int rep_fd = spawn_agents(&con, f.agents_cpu, &pid);
    if (rep_fd < 0 || pin_to(f.controller_cpu) < 0)
        return EX_OSERR;
    struct plan_checked pc;
    if (plan_check_load(plan, &pc, err, sizeof err) != 0) {
        fprintf(stderr, "bench: %s\n", err);
        return EX_SOFTWARE;
    }
    FILE *out = fopencookie(&con, "w", (cookie_io_functions_t){ .write = console_write });
    setvbuf(out, NULL, _IOLBF, 0);
    static struct probe probe;
    pthread_t th;
    pthread_create(&th, NULL, probe_main, &probe);
    struct run_options ro = { .tty = 0, .out = out };
    struct run_outcome o;
    run_execute(&pc, &ro, &o);
    f.end_us = clock_wall_us();
    probe.stop = 1;
    pthread_join(th, NULL);
    f.rss_kb = procstat_kb(getpid(), "VmHWM:");
    fclose(out);
    close(con.pin_fd);
    static struct scale_report r;
    int st = 0;
    if (read(rep_fd, &r, sizeof r) != (ssize_t)sizeof r)
        fprintf(stderr, "bench: no report from the agents\n");
    waitpid(pid, &st, 0);
    plan_check_free(&pc);
    f.r = &r;
    f.o = &o;
    f.p = &probe;
    print_figures(&f);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
    return r.dropped || r.late || r.agents_ready != AGENTS ? 1 : 0;
}

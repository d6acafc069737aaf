/* bench_report.c -- the controller's read side end to end, as a user runs it: `sessmax score` on a
 * run of 1,000,000 measure samples (open the database -> print the verdict -> store it; target
 * < 0.3 s) and `sessmax report` of a 100,000-session run (target < 2 s). Builds both databases
 * through db/store.h, runs the real binary (SESSMAX_BIN, default ./sessmax beside bench/), and
 * prints the median wall time of 3 runs and the CPU time of that run beside the target.
 *   bench_report [--keep DIR]   (--keep: build the databases in DIR once, keep and reuse them) */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "controller/score/score_config.h"
#include "db/store.h"

struct shape {
    uint32_t sessions;          /* launched one per launch_us, all become active */
    uint64_t launch_us;
    uint64_t measure;           /* measure samples in all */
    uint32_t timers;            /* timer rows beside each measure sample */
    uint32_t traffic;           /* traffic rows per session */
    uint32_t agents;            /* agents, each with a health row every 2 s */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int sample(struct store *st, int64_t run, uint32_t sess, uint64_t t, const char *name, int64_t us,
                  int ok, int measure, uint32_t active)
{
    struct rec_sample s = { .session = sess, .loop = 0, .t_us = t, .value_us = us, .ok = (uint8_t)ok,
                            .is_measure = (uint8_t)measure };
    snprintf(s.name, sizeof s.name, "%s", name);
    return store_add_sample(st, run, &s, active);
}

/* Samples spread evenly over the ramp; the response time grows with the active count. */
static int gen_samples(struct store *st, int64_t run, const struct shape *sh, uint64_t t0, uint64_t end)
{
    static const char *const timer[] = { "app_start", "file_open", "zip_high" };
    uint32_t seed = 1;
    uint64_t span = end - t0 - sh->launch_us;
    for (uint64_t i = 0; i < sh->measure; i++) {
        uint64_t t = t0 + sh->launch_us + span * i / sh->measure;
        uint32_t active = (uint32_t)((t - t0) / sh->launch_us);
        active = active > sh->sessions ? sh->sessions : active ? active : 1;
        seed = seed * 1103515245u + 12345u;
        int64_t v = 800000 + (int64_t)active * 600 + (seed >> 16) % 200000;
        int ok = (seed >> 8) % 100 != 0;
        uint32_t sess = (uint32_t)(i % active);
        for (uint32_t k = 0; k < sh->timers && k < 3; k++)
            if (sample(st, run, sess, t, timer[k], v / (k + 2), 1, 0, active) < 0)
                return -1;
        if (sample(st, run, sess, t, "vsi", ok ? v : 30000000, ok, 1, active) < 0)
            return -1;
    }
    return 0;
}

static int gen_sessions(struct store *st, int64_t run, const struct shape *sh, const int64_t *agents,
                        uint64_t t0, uint64_t end)
{
    for (uint32_t i = 0; i < sh->sessions; i++) {
        uint64_t launch = t0 + i * sh->launch_us;
        struct rec_session ev = { .session = i, .kind = SESSION_ACTIVE, .value_us = 2000000 + i % 1000 * 1000 };
        snprintf(ev.user, sizeof ev.user, "user%06u", i + 1);
        ev.t_us = launch + (uint64_t)ev.value_us;
        if (store_session_launch(st, run, i, agents[i % sh->agents], ev.user, launch) < 0 ||
            store_session_event(st, run, &ev) < 0)
            return -1;
        uint64_t step = (end - ev.t_us) / (sh->traffic + 1);
        for (uint32_t k = 1; k <= sh->traffic; k++) {
            uint64_t secs = step * k / 1000000;
            struct rec_traffic tr = { .session = i, .t_us = ev.t_us + step * k, .bytes_in = secs * 12500,
                                      .bytes_out = secs * 2500, .wire_in = secs * 13000, .wire_out = secs * 3000,
                                      .rtt_us = 300, .data_segs_out = (uint32_t)secs * 10 };
            if (store_add_traffic(st, run, &tr) < 0)
                return -1;
        }
        ev.kind = SESSION_ENDED;
        ev.t_us = end;
        if (store_session_event(st, run, &ev) < 0)
            return -1;
    }
    for (uint64_t t = t0; t < end; t += 2000000)
        for (uint32_t a = 0; a < sh->agents; a++) {
            struct rec_health h = { .t_us = t + a, .sessions_active = sh->sessions / sh->agents, .lag_p50_us = 200,
                                    .lag_p99_us = 900, .lag_max_us = 3000, .cpu_permille = 400, .rss_kb = 500000 };
            if (store_add_health(st, run, agents[a], &h) < 0)
                return -1;
        }
    return 0;
}

static int build(const char *path, const struct shape *sh)
{
    char err[256];
    unlink(path);
    struct store *st = store_open(path, STORE_WRITE, err, sizeof err);
    if (!st)
        return fprintf(stderr, "bench_report: %s\n", err), -1;
    store_set_batch(st, 100000, 60000000);
    struct score_config cfg;
    score_config_init(&cfg);
    char *params = score_config_to_json(&cfg);
    uint64_t t0 = 1764460800000000ull, end = t0 + sh->sessions * sh->launch_us + 120000000ull;
    struct store_run_info info = { "bench", "tcp", "simhost", "lan", "127.0.0.1:3389", "task-worker", "0123abcd",
                                   "name: bench\n", params, sh->sessions, t0, NULL, NULL, 0, NULL };
    int64_t run = store_run_begin(st, &info), *agents = calloc(sh->agents, sizeof *agents);
    free(params);
    int rc = run > 0 && agents ? 0 : -1;
    for (uint32_t a = 0; a < sh->agents && rc == 0; a++) {
        char name[32];
        snprintf(name, sizeof name, "agent-%u", a + 1);
        agents[a] = store_add_agent(st, run, name, "127.0.0.1", sh->sessions / sh->agents + 1);
        rc = agents[a] < 0 || store_agent_status(st, agents[a], "done", "") < 0 ? -1 : 0;
    }
    if (rc == 0 && (gen_sessions(st, run, sh, agents, t0, end) < 0 || gen_samples(st, run, sh, t0, end) < 0 ||
                    store_run_end(st, run, "completed", end, "") < 0))
        rc = -1;
    if (rc < 0)
        fprintf(stderr, "bench_report: building %s: %s\n", path, store_errmsg(st));
    free(agents);
    store_close(st);
    return rc;
}

/* Runs argv with stdout and stderr to /dev/null; wall and CPU seconds; -1 unless it exited 0..2. */
static int timed(char *const argv[], double *wall, double *cpu)
{
    fflush(stdout);
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
        return -1;
    *wall = now_s() - t0;
    *cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    return WIFEXITED(status) && WEXITSTATUS(status) <= 2 ? 0 : -1;
}

static int cmp(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

static int measure(const char *label, char *const argv[], double target)
{
    double t[3][2];
    for (int k = 0; k < 3; k++)
        if (timed(argv, &t[k][0], &t[k][1]) < 0)
            return fprintf(stderr, "bench_report: %s failed: %s %s\n", label, argv[0], argv[1]), -1;
    qsort(t, 3, sizeof t[0], cmp);
    printf("%s: median %7.1f ms (CPU %6.1f ms)  target < %.0f ms: %s  ratio %.2f\n", label, t[1][0] * 1e3,
           t[1][1] * 1e3, target * 1e3, t[1][0] < target ? "met" : "MISSED", t[1][0] / target);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = { { "keep", required_argument, NULL, 'k' }, { NULL, 0, NULL, 0 } };
    const char *keep = NULL;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c != 'k')
            return fprintf(stderr, "usage: bench_report [--keep DIR]\n"), 64;
        keep = optarg;
    }
    char bin[4096], dir[4096] = "/tmp/bench_report.XXXXXX", score_db[4200], report_db[4200], html[4200];
    const char *env = getenv("SESSMAX_BIN");
    snprintf(bin, sizeof bin, "%s", env ? env : "");
    if (!env) {
        ssize_t n = readlink("/proc/self/exe", bin, sizeof bin - 16);
        if (n <= 0)
            return 1;
        bin[n] = 0;
        snprintf(strrchr(bin, '/'), 16, "/../sessmax");
    }
    if (keep ? (mkdir(keep, 0700) < 0 && access(keep, W_OK) < 0) : !mkdtemp(dir))
        return fprintf(stderr, "bench_report: cannot make a scratch directory\n"), 1;
    if (keep)
        snprintf(dir, sizeof dir, "%s", keep);
    snprintf(score_db, sizeof score_db, "%s/score.db", dir);
    snprintf(report_db, sizeof report_db, "%s/report.db", dir);
    snprintf(html, sizeof html, "%s/report.html", dir);
    /* a 2000-session ramp, one launch per second, 1,000,000 vsi samples (the score's input) */
    const struct shape score_shape = { 2000, 1000000, 1000000, 0, 40, 4 };
    /* 100,000 sessions, 20 launches per second, one loop each (vsi + 2 timers), 4 traffic rows each,
     * 100 agents */
    const struct shape report_shape = { 100000, 50000, 100000, 2, 4, 100 };
    printf("bench_report: building the databases (score: %u sessions, %llu measure + %llu timer samples; "
           "report: %u sessions, %llu measure + %llu timer samples)\n", score_shape.sessions,
           (unsigned long long)score_shape.measure, (unsigned long long)score_shape.measure * score_shape.timers,
           report_shape.sessions, (unsigned long long)report_shape.measure,
           (unsigned long long)report_shape.measure * report_shape.timers);
    fflush(stdout);
    if ((!keep || access(score_db, R_OK) != 0) && build(score_db, &score_shape) < 0)
        return 1;
    if ((!keep || access(report_db, R_OK) != 0) && build(report_db, &report_shape) < 0)
        return 1;
    char *score_argv[] = { bin, "score", score_db, NULL };
    char *report_argv[] = { bin, "report", report_db, "-o", html, NULL };
    int rc = measure("sessmax score, 1,000,000 samples, end to end", score_argv, 0.3) < 0 ||
             measure("sessmax report, 100,000-session run", report_argv, 2.0) < 0;
    if (!keep) {
        char cmd[4200];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            rc = 1;
    }
    return rc;
}

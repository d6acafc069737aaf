/* proc.c -- fork/exec of the connector's children, their exit on the loop (pidfd), reaping,
 * stopping, and their cost from /proc. */
#include "agent/x11/proc.h"

#include "common/x11_preset.h"

#include <errno.h>
#include <sched.h>
#include <event2/event.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define X11_PROC_KILL_AFTER_S 2
#define X11_PROC_POLL_MS 100

extern char **environ;

struct x11_proc {
    pid_t pid;
    int pidfd;
    int exited;
    struct event *exit_ev, *kill_ev;
    void (*on_exit)(void *arg, int status);
    void *arg;
};

/* The child's environment: ours without DISPLAY, XAUTHORITY and SESSMAX_* (a password may be
 * there), plus its DISPLAY and XAUTHORITY. */
static char **child_env(const char *display, const char *xauthority)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 3, sizeof *env), *d = NULL, *a = NULL;
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "DISPLAY=", 8) && strncmp(environ[i], "XAUTHORITY=", 11) &&
            strncmp(environ[i], "SESSMAX_", 8))
            env[k++] = environ[i];
    if (display && asprintf(&d, "DISPLAY=%s", display) > 0)
        env[k++] = d;
    if (xauthority && asprintf(&a, "XAUTHORITY=%s", xauthority) > 0)
        env[k++] = a;
    return env;
}

/* Frees what child_env made (the DISPLAY and XAUTHORITY entries are the ones it allocated). */
static void free_env(char **env)
{
    for (size_t i = 0; env && env[i]; i++)
        if (!strncmp(env[i], "DISPLAY=", 8) || !strncmp(env[i], "XAUTHORITY=", 11))
            free(env[i]);
    free(env);
}

/* In the child, between fork and exec: only async-signal-safe calls. */
static void child(const char *path, char *const *argv, char **env, int in, int out, int err_fd,
                  int pass, int netns, pid_t parent)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent || (netns > 0 && setns(netns, CLONE_NEWNET) != 0))
        _exit(127);
    signal(SIGPIPE, SIG_DFL);
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err_fd, 2) < 0 || (pass >= 0 && dup2(pass, 3) < 0))
        _exit(127);
    syscall(SYS_close_range, pass >= 0 ? 4u : 3u, ~0u, 0u);
    execve(path, argv, env);
    _exit(127);
}

static void exit_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct x11_proc *p = arg;
    int status = 0;
    pid_t r = waitpid(p->pid, &status, WNOHANG);
    if (r == 0)
        return;                                 /* not yet: the pidfd stays readable */
    p->exited = 1;
    event_del(p->exit_ev);
    event_del(p->kill_ev);
    if (p->on_exit)
        p->on_exit(p->arg, r == p->pid ? status : 0);
}

static void kill_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct x11_proc *p = arg;
    if (!p->exited)
        kill(-p->pid, SIGKILL);
}

static int open_std(const struct x11_proc_spec *s, int fds[3], int inpipe[2])
{
    fds[0] = fds[1] = fds[2] = -1;
    if (s->stdin_text) {
        if (pipe2(inpipe, O_CLOEXEC) != 0)
            return -1;
        fds[0] = inpipe[0];
    } else {
        fds[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
    }
    fds[1] = s->stdout_fd >= 0 ? s->stdout_fd : open("/dev/null", O_WRONLY | O_CLOEXEC);
    fds[2] = s->stderr_path ? open(s->stderr_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)
                            : open("/dev/null", O_WRONLY | O_CLOEXEC);
    return fds[0] < 0 || fds[1] < 0 || fds[2] < 0 ? -1 : 0;
}

static void close_std(const struct x11_proc_spec *s, int fds[3])
{
    if (fds[0] >= 0)
        close(fds[0]);
    if (fds[1] >= 0 && fds[1] != s->stdout_fd)
        close(fds[1]);
    if (fds[2] >= 0)
        close(fds[2]);
}

/* The secret goes through a pipe (a line of a few hundred bytes at most: below PIPE_BUF, so the
 * write never blocks), and the write end is closed at once. */
static void feed_stdin(int wfd, const char *text)
{
    size_t len = strlen(text);
    if (write(wfd, text, len) != (ssize_t)len) {
        /* the child sees a short line and fails its logon: reported as its failure */
    }
    close(wfd);
}

struct x11_proc *x11_proc_start(const struct x11_proc_spec *s, char *err, size_t errlen)
{
    char path[4096];
    int fds[3] = { -1, -1, -1 }, inpipe[2] = { -1, -1 };
    if (x11_which(s->argv[0], path, sizeof path) != 0) {
        snprintf(err, errlen, "%s: program not found or not executable", s->argv[0]);
        return NULL;
    }
    struct x11_proc *p = calloc(1, sizeof *p);
    if (p)
        p->pidfd = -1;
    char **env = child_env(s->display, s->xauthority);
    if (!p || !env || open_std(s, fds, inpipe) != 0) {
        snprintf(err, errlen, "cannot prepare %s: %s", s->argv[0], strerror(errno));
        goto fail;
    }
    pid_t parent = getpid();
    p->pid = fork();
    if (p->pid == 0)
        child(path, s->argv, env, fds[0], fds[1], fds[2], s->pass_fd, s->netns_fd, parent);
    if (p->pid < 0) {
        snprintf(err, errlen, "cannot start %s: %s", s->argv[0], strerror(errno));
        goto fail;
    }
    close_std(s, fds);
    fds[0] = fds[1] = fds[2] = -1;
    if (inpipe[1] >= 0)
        feed_stdin(inpipe[1], s->stdin_text);
    inpipe[1] = -1;
    free_env(env);
    p->pidfd = (int)syscall(SYS_pidfd_open, p->pid, 0);
    if (p->pidfd < 0) {
        snprintf(err, errlen, "cannot watch %s (pid %d): %s", s->argv[0], (int)p->pid, strerror(errno));
        x11_proc_free(p);
        return NULL;
    }
    return p;
fail:
    if (p && p->pid <= 0)
        close_std(s, fds);
    if (inpipe[1] >= 0)
        close(inpipe[1]);
    free_env(env);
    free(p);
    return NULL;
}

int x11_proc_watch(struct x11_proc *p, struct event_base *base,
                   void (*on_exit)(void *arg, int status), void *arg)
{
    p->on_exit = on_exit;
    p->arg = arg;
    p->exit_ev = event_new(base, p->pidfd, EV_READ | EV_PERSIST, exit_cb, p);
    p->kill_ev = evtimer_new(base, kill_cb, p);
    return p->exit_ev && p->kill_ev && event_add(p->exit_ev, NULL) == 0 ? 0 : -1;
}

int x11_proc_wait(struct x11_proc *p, uint32_t timeout_ms, const atomic_int *abort_flag, int *status)
{
    uint64_t left = timeout_ms;
    while (!p->exited) {
        struct pollfd pf = { .fd = p->pidfd, .events = POLLIN };
        int step = left < X11_PROC_POLL_MS ? (int)left : X11_PROC_POLL_MS;
        if ((abort_flag && atomic_load(abort_flag)) || left == 0)
            return -1;
        if (poll(&pf, 1, step) > 0 && waitpid(p->pid, status, WNOHANG) == p->pid)
            p->exited = 1;
        left -= (uint64_t)step;
    }
    return 0;
}

int x11_proc_pidfd(const struct x11_proc *p)
{
    return p ? p->pidfd : -1;
}

pid_t x11_proc_pid(const struct x11_proc *p) { return p->pid; }

int x11_proc_gone(const struct x11_proc *p)
{
    struct pollfd pf = { .fd = p ? p->pidfd : -1, .events = POLLIN };
    return !p || p->exited || (p->pidfd >= 0 && poll(&pf, 1, 0) > 0);
}
int x11_proc_running(const struct x11_proc *p) { return p && !p->exited; }

void x11_proc_stop(struct x11_proc *p)
{
    if (!p || p->exited)
        return;
    kill(-p->pid, SIGTERM);
    struct timeval tv = { X11_PROC_KILL_AFTER_S, 0 };
    if (p->kill_ev && !evtimer_pending(p->kill_ev, NULL))
        event_add(p->kill_ev, &tv);
}

void x11_proc_free(struct x11_proc *p)
{
    if (!p)
        return;
    if (!p->exited && p->pid > 0) {
        kill(-p->pid, SIGKILL);
        kill(p->pid, SIGKILL);
        while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    if (p->exit_ev)
        event_free(p->exit_ev);
    if (p->kill_ev)
        event_free(p->kill_ev);
    if (p->pidfd >= 0)
        close(p->pidfd);
    free(p);
}

int x11_proc_cost(pid_t pid, struct x11_cost *out)
{
    char path[64], line[1024];
    memset(out, 0, sizeof *out);
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long long v;
        if (sscanf(line, "Rss: %llu kB", &v) == 1)
            out->rss_kb = v;
        else if (sscanf(line, "Pss: %llu kB", &v) == 1)
            out->pss_kb = v;
    }
    fclose(f);
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (!(f = fopen(path, "r")))
        return -1;
    unsigned long long ut = 0, st = 0;
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    const char *rp = ok ? strrchr(line, ')') : NULL;   /* the name may hold spaces */
    if (!rp || sscanf(rp + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
        return -1;
    long hz = sysconf(_SC_CLK_TCK);
    out->cpu_us = (ut + st) * 1000000ull / (unsigned long long)(hz > 0 ? hz : 100);
    return 0;
}

void x11_proc_describe(int status, char *out, size_t outlen)
{
    if (WIFSIGNALED(status))
        snprintf(out, outlen, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(out, outlen, "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

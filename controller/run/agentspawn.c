/* agentspawn.c -- local agent processes and the pipe that hands each its token (see agentspawn.h). */
#include "controller/run/agentspawn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXEC_FAILED 127   /* a child that could not exec, as the shell reports it */

int agentspawn_parse_cpus(const char *text, unsigned char *mask, size_t masklen)
{
    memset(mask, 0, masklen);
    const char *s = text;
    while (*s) {
        char *end;
        long lo = strtol(s, &end, 10), hi = lo;
        if (end == s)
            return -1;
        if (*end == '-') {
            s = end + 1;
            hi = strtol(s, &end, 10);
            if (end == s)
                return -1;
        }
        if (lo < 0 || hi < lo || (size_t)hi >= masklen)
            return -1;
        for (long c = lo; c <= hi; c++)
            mask[c] = 1;
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return 0;
}

static void default_agent_bin(char *out, size_t outlen)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(out, outlen, "sessmax-agent");
        return;
    }
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = 0;
    snprintf(out, outlen, "%s/sessmax-agent", self);
}

static void pin_cpus(const struct agentspawn_opts *o, const char *name)
{
    unsigned char mask[CPU_SETSIZE];
    cpu_set_t set;
    CPU_ZERO(&set);
    if (!o->cpus || agentspawn_parse_cpus(o->cpus, mask, sizeof mask) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (mask[c])
            CPU_SET(c, &set);
    if (sched_setaffinity(0, sizeof set, &set) < 0)
        fprintf(stderr, "sessmax-agent %s: cannot pin to CPUs %s: %s\n", name, o->cpus, strerror(errno));
}

/* In the child: token_fd is the read end of the token pipe (not close-on-exec). */
static void child_exec(const struct agentspawn_opts *o, const char *bin, const char *name, int token_fd)
{
    char cap[16], fdtext[16];
    setpgid(0, 0);   /* a terminal's Ctrl-C reaches the controller only; it logs the agents off */
    pin_cpus(o, name);
    if (o->log) {
        int fd = open(o->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd >= 0)
            dup2(fd, 2);
    }
    unsetenv("SESSMAX_TOKEN");
    unsetenv("SESSMAX_PASSWORD");
    if (o->password_env)
        unsetenv(o->password_env);
    snprintf(cap, sizeof cap, "%u", o->capacity ? o->capacity : 100000);
    snprintf(fdtext, sizeof fdtext, "%d", token_fd);
    char *argv[16] = { (char *)bin, "connect", (char *)o->address, "--name", (char *)name, "--capacity", cap,
                       "--token-fd", fdtext };
    int argc = 9;
    if (o->tls_pin) {
        argv[argc++] = "--tls-pin";
        argv[argc++] = (char *)o->tls_pin;
    }
    if (o->shot_dir) {
        argv[argc++] = "--shot-dir";
        argv[argc++] = (char *)o->shot_dir;
    }
    argv[argc] = NULL;
    agentspawn_exec(bin, argv);
}

void agentspawn_exec(const char *bin, char *const argv[])
{
    execv(bin, argv);
    fprintf(stderr, "sessmax: cannot start %s: %s\n", bin, strerror(errno));
    _exit(EXEC_FAILED);
}

/* One child: a pipe whose read end it inherits; we write the token and close our end. */
static pid_t spawn_one(const struct agentspawn_opts *o, const char *bin, const char *name)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[1]);
        int fd = fcntl(fds[0], F_DUPFD, 3);   /* a copy without close-on-exec */
        child_exec(o, bin, name, fd);
    }
    close(fds[0]);
    if (pid > 0) {
        size_t len = strlen(o->token);
        if (write(fds[1], o->token, len) != (ssize_t)len)
            fprintf(stderr, "sessmax: cannot hand the token to local agent %s: %s\n", name, strerror(errno));
    }
    close(fds[1]);
    return pid;
}

int agentspawn_start(const struct agentspawn_opts *o, uint32_t count, pid_t *children, size_t *n, size_t max,
                     char *err, size_t errlen)
{
    char bin[PATH_MAX + 16];
    if (o->bin)
        snprintf(bin, sizeof bin, "%s", o->bin);
    else
        default_agent_bin(bin, sizeof bin);
    if (access(bin, X_OK) != 0) {
        snprintf(err, errlen, "cannot run the agent %s: %s (set SESSMAX_AGENT_BIN)", bin, strerror(errno));
        return -1;
    }
    for (uint32_t i = 0; i < count && *n < max; i++) {
        char name[32];
        snprintf(name, sizeof name, "local-%u", i + 1);
        pid_t pid = spawn_one(o, bin, name);
        if (pid < 0) {
            snprintf(err, errlen, "cannot start local agent %u: %s", i + 1, strerror(errno));
            return -1;
        }
        children[(*n)++] = pid;
    }
    return 0;
}

void agentspawn_reap(pid_t *children, size_t *n)
{
    for (int round = 0; round < 30 && *n; round++) {
        for (size_t i = 0; i < *n;) {
            pid_t r = waitpid(children[i], NULL, WNOHANG);
            if (r == children[i] || (r < 0 && errno == ECHILD))
                children[i] = children[--*n];
            else
                i++;
        }
        if (round == 0)
            for (size_t i = 0; i < *n; i++)
                kill(children[i], SIGTERM);
        if (*n)
            usleep(100000);
    }
    for (size_t i = 0; i < *n; i++) {
        kill(children[i], SIGKILL);
        waitpid(children[i], NULL, 0);
    }
    *n = 0;
}

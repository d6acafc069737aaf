/* proc.h -- the child processes of the external-client connector (an X server, a client,
 * a password helper), on the agent's loop: started with a chosen stdin, stdout and stderr; their
 * exit seen through a pidfd on the loop and reaped at once (no zombies, no SIGCHLD handler);
 * stopped with SIGTERM then SIGKILL, as a process group; killed with the agent (PDEATHSIG). */
#ifndef SESSMAX_X11_PROC_H
#define SESSMAX_X11_PROC_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct event_base;
struct x11_proc;

struct x11_proc_spec {
    char *const *argv;          /* argv[0]: a program name looked up in PATH, or a path */
    const char *display;        /* DISPLAY for the child; NULL: none */
    const char *xauthority;     /* XAUTHORITY for the child; NULL: none */
    const char *stdin_text;     /* written to its stdin (a pipe), then closed; NULL: /dev/null */
    int stdout_fd;              /* its stdout; -1: /dev/null */
    const char *stderr_path;    /* its stderr (created 0600, truncated); NULL: /dev/null */
    int pass_fd;                /* given to the child as fd 3; -1: none */
    int netns_fd;               /* > 0: the child joins this network namespace (the link emulator's)
                                 * before exec; 0 or -1: the agent's */
};

/* Starts a child (fork, exec). Any thread: a connector worker starts a session's processes, so
 * the fork's cost never stalls the loop. NULL with err on failure. */
struct x11_proc *x11_proc_start(const struct x11_proc_spec *spec, char *err, size_t errlen);
/* Loop thread, once: on_exit(arg, status) runs on the loop once the child has exited and been
 * reaped (status as from waitpid), unless x11_proc_free came first. 0 or -1. */
int x11_proc_watch(struct x11_proc *p, struct event_base *base,
                   void (*on_exit)(void *arg, int status), void *arg);
/* Any thread, for a child not watched: waits for its exit and reaps it (*status). 0, or -1 when
 * timeout_ms passed or *abort_flag was set first (the child still runs). */
int x11_proc_wait(struct x11_proc *p, uint32_t timeout_ms, const atomic_int *abort_flag, int *status);
pid_t x11_proc_pid(const struct x11_proc *p);
/* Its pidfd (owned by p; -1 for NULL). */
int x11_proc_pidfd(const struct x11_proc *p);
int x11_proc_running(const struct x11_proc *p);
/* 1 when the child has terminated, reaped or not yet (its pidfd is readable); 1 for NULL. */
int x11_proc_gone(const struct x11_proc *p);
/* SIGTERM to its process group now, SIGKILL 2 s later (when watched) if it still runs. */
void x11_proc_stop(struct x11_proc *p);
/* Kills (SIGKILL) a child still running, reaps it, frees. No on_exit. Accepts NULL. */
void x11_proc_free(struct x11_proc *p);

/* One process's cost: resident and proportional set size (/proc/PID/smaps_rollup) and CPU time
 * used so far (/proc/PID/stat). 0, or -1 when it is gone. Any thread; it may wait on the
 * process's mmap lock, so not on the loop (costs.h reads it on a worker). */
struct x11_cost { uint64_t rss_kb, pss_kb, cpu_us; };
int x11_proc_cost(pid_t pid, struct x11_cost *out);

/* "exit status N" / "killed by signal N (NAME)" for a waitpid status. */
void x11_proc_describe(int status, char *out, size_t outlen);

#endif

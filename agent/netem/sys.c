/* sys.c -- commands, sysctls, TUN devices and capability checks for the link emulator
 * (see sys.h). */
#include "agent/netem/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void read_all(int fd, char *buf, size_t len)
{
    size_t off = 0;
    char scratch[256];
    for (;;) {
        int into_buf = off + 1 < len;
        ssize_t n = into_buf ? read(fd, buf + off, len - 1 - off) : read(fd, scratch, sizeof scratch);
        if (n <= 0)
            break;
        if (into_buf)
            off += (size_t)n;
    }
    buf[off] = 0;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
        s[--n] = 0;
    char *nl = strchr(s, '\n');
    if (nl)
        *nl = 0;
}

int netem_sys_run(const char *const argv[], char *out, size_t outlen, char *err, size_t errlen)
{
    int po[2], pe[2];
    if (pipe2(po, O_CLOEXEC) != 0)
        return -1;
    if (pipe2(pe, O_CLOEXEC) != 0) {
        close(po[0]);
        close(po[1]);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(po[1]);
    close(pe[1]);
    char sink[1];
    if (rc == 0) {
        /* stdout first: the commands here print little, so neither pipe fills while we wait */
        read_all(po[0], out ? out : sink, out ? outlen : sizeof sink);
        read_all(pe[0], err ? err : sink, err ? errlen : sizeof sink);
    }
    close(po[0]);
    close(pe[0]);
    if (rc != 0) {
        if (err)
            snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(rc));
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (err)
        trim(err);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int netem_sys_write(const char *path, const char *value)
{
    char full[256];
    snprintf(full, sizeof full, "/proc/sys/%s", path);
    int fd = open(full, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, value, strlen(value));
    close(fd);
    return n == (ssize_t)strlen(value) ? 0 : -1;
}

int netem_sys_read(const char *path, char *buf, size_t len)
{
    char full[256];
    snprintf(full, sizeof full, "/proc/sys/%s", path);
    int fd = open(full, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, len - 1);
    close(fd);
    if (n < 0)
        return -1;
    buf[n] = 0;
    trim(buf);
    return 0;
}

int netem_sys_tun(const char *name, char *err, size_t errlen)
{
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open /dev/net/tun: %s", strerror(errno));
        return -1;
    }
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
    if (ioctl(fd, TUNSETIFF, &ifr) != 0) {
        snprintf(err, errlen, "cannot create TUN device %s: %s", name, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int netem_sys_pid_alive(long pid)
{
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

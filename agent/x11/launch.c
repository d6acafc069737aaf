/* launch.c -- the processes of one external-client session: Xvfb, the password helper, the
 * client; the session directory's secret files and the client's stderr. */
#include "agent/x11/launch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "agent/netem/netem.h"
#include "agent/x11/settings.h"
#include "common/x11_preset.h"

#define X11_TAIL_BYTES 4096

/* A new 0600 file (O_EXCL: never follows a planted link); fd or -1. */
static int secret_file(const char *path, char *err, size_t errlen)
{
    unlink(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
    return fd;
}

static void put16(uint8_t **w, uint16_t v)
{
    *(*w)++ = (uint8_t)(v >> 8);
    *(*w)++ = (uint8_t)v;
}

/* DIR/xauth: one Xauthority entry for any address and display number (FamilyWild, as Xvfb
 * reads every entry of its -auth file and a client matches the wildcard) with a fresh
 * MIT-MAGIC-COOKIE-1. */
static int write_cookie(const char *dir, uint8_t cookie[X11_COOKIE_LEN], char *err, size_t errlen)
{
    static const char proto[] = "MIT-MAGIC-COOKIE-1";
    uint8_t rec[64], *w = rec;
    char path[4200];
    if (getrandom(cookie, X11_COOKIE_LEN, 0) != X11_COOKIE_LEN) {
        snprintf(err, errlen, "no random bytes for the X cookie: %s", strerror(errno));
        return -1;
    }
    put16(&w, 0xffff);
    put16(&w, 0);
    put16(&w, 0);
    put16(&w, sizeof proto - 1);
    memcpy(w, proto, sizeof proto - 1);
    w += sizeof proto - 1;
    put16(&w, X11_COOKIE_LEN);
    memcpy(w, cookie, X11_COOKIE_LEN);
    w += X11_COOKIE_LEN;
    snprintf(path, sizeof path, "%s/xauth", dir);
    int fd = secret_file(path, err, errlen);
    int ok = fd >= 0 && write(fd, rec, (size_t)(w - rec)) == w - rec;
    explicit_bzero(rec, sizeof rec);
    if (fd >= 0)
        close(fd);
    if (!ok && fd >= 0)
        snprintf(err, errlen, "%s: cannot write", path);
    return ok ? 0 : -1;
}

struct x11_proc *x11_launch_xserver(const char *dir, uint32_t width, uint32_t height,
                                    uint8_t cookie[X11_COOKIE_LEN], int *ready_fd,
                                    char *err, size_t errlen)
{
    char screen[32], auth[4200], log[4200];
    int p[2];
    snprintf(screen, sizeof screen, "%ux%ux24", width, height);
    snprintf(auth, sizeof auth, "%s/xauth", dir);
    snprintf(log, sizeof log, "%s/xserver.stderr", dir);
    char *argv[] = { "Xvfb", "-displayfd", "3", "-screen", "0", screen, "-auth", auth,
                     "-nocursor", "-nolisten", "tcp", "-noreset", "-extension", "GLX", NULL };
    if (write_cookie(dir, cookie, err, errlen) != 0)
        return NULL;
    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
        return NULL;
    }
    struct x11_proc_spec spec = { .argv = argv, .stdout_fd = -1, .stderr_path = log,
                                  .pass_fd = p[1] };
    struct x11_proc *x = x11_proc_start(&spec, err, errlen);
    close(p[1]);
    if (!x) {
        close(p[0]);
        if (strstr(err, "not found"))
            snprintf(err, errlen, "Xvfb not found (Debian package xvfb)");
        return NULL;
    }
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    *ready_fd = p[0];
    return x;
}

int x11_launch_read_display(int fd, char *buf, size_t cap, size_t *len)
{
    ssize_t r = read(fd, buf + *len, cap - 1 - *len);
    if (r < 0)
        return errno == EAGAIN || errno == EINTR ? -1 : -2;
    if (r == 0)
        return -2;
    *len += (size_t)r;
    buf[*len] = '\0';
    char *nl = strchr(buf, '\n');
    if (!nl)
        return *len >= cap - 1 ? -2 : -1;
    char *end;
    long n = strtol(buf, &end, 10);
    return end == buf || end != nl || n < 0 || n > 65535 ? -2 : (int)n;
}

/* "password\n" for a stdin (heap, wiped by the caller with free_line). */
static char *line_of(const char *password)
{
    char *s = NULL;
    return asprintf(&s, "%s\n", password ? password : "") < 0 ? NULL : s;
}

static void free_line(char *s)
{
    if (s) {
        explicit_bzero(s, strlen(s));
        free(s);
    }
}

struct x11_proc *x11_launch_helper(const struct x11_launch_ctx *c, int *needed, char *err, size_t errlen)
{
    struct x11_vars v;
    struct x11_settings_buf b;
    *needed = c->cfg->client->secret == X11_SECRET_VNCPASSWD;
    if (!*needed)
        return NULL;
    x11_settings_vars(c, &v, &b);
    int fd = secret_file(b.passfile, err, errlen);
    if (fd < 0)
        return NULL;
    char *argv[] = { "vncpasswd", "-f", NULL }, *line = line_of(c->password);
    struct x11_proc_spec spec = { .argv = argv, .stdin_text = line, .stdout_fd = fd, .pass_fd = -1 };
    struct x11_proc *p = line ? x11_proc_start(&spec, err, errlen) : NULL;
    close(fd);
    free_line(line);
    if (!p && strstr(err, "not found"))
        snprintf(err, errlen, "vncpasswd not found (Debian package tigervnc-tools)");
    return p;
}

static int write_ica(const struct x11_launch_ctx *c, const struct x11_vars *v, char *err, size_t errlen)
{
    char text[2048];
    int n = x11_ica_file(c->cfg->client, v, c->password ? c->password : "", text, sizeof text);
    int fd = n < 0 ? -1 : secret_file(v->icafile, err, errlen);
    int ok = fd >= 0 && write(fd, text, (size_t)n) == n;
    explicit_bzero(text, sizeof text);
    if (fd >= 0)
        close(fd);
    if (!ok && n == -2)
        snprintf(err, errlen, "ICA file: the user, password, domain or address holds a line break");
    else if (!ok && n < 0)
        snprintf(err, errlen, "ICA file too long");
    else if (!ok && fd >= 0)
        snprintf(err, errlen, "%s: cannot write", v->icafile);
    return ok ? 0 : -1;
}

struct x11_proc *x11_launch_client(const struct x11_launch_ctx *c, char *err, size_t errlen)
{
    const struct x11_client *cl = c->cfg->client;
    struct x11_vars v;
    struct x11_settings_buf b;
    char *argv[X11_ARGV_MAX + 1], log[4200], auth[4200], *line = NULL;
    x11_settings_vars(c, &v, &b);
    if (cl->secret == X11_SECRET_ICA && write_ica(c, &v, err, errlen) != 0)
        return NULL;
    if (x11_client_argv(cl, &v, argv, X11_ARGV_MAX, err, errlen) < 0)
        return NULL;
    if (cl->secret == X11_SECRET_STDIN && !(line = line_of(c->password))) {
        x11_argv_free(argv);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(log, sizeof log, "%s/client.stderr", c->dir);
    snprintf(auth, sizeof auth, "%s/xauth", c->dir);
    struct x11_proc_spec spec = { .argv = argv, .display = c->display, .xauthority = auth,
                                  .stdin_text = line, .stdout_fd = -1, .stderr_path = log,
                                  .pass_fd = -1, .netns_fd = netem_ns_fd(c->cfg->netem) };
    struct x11_proc *p = x11_proc_start(&spec, err, errlen);
    if (!p && strstr(err, "not found"))
        snprintf(err, errlen, "%s not found (%s)", argv[0], x11_client_source(cl));
    free_line(line);
    x11_argv_free(argv);
    return p;
}

void x11_launch_forget_secrets(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/passwd", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/session.ica", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/xauth", dir);
    unlink(path);
}

/* The last X11_TAIL_BYTES of the client's stderr into buf; returns the length. */
static size_t read_tail(const char *dir, char *buf, size_t cap)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/client.stderr", dir);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    off_t end = lseek(fd, 0, SEEK_END);
    off_t from = end > (off_t)cap - 1 ? end - (off_t)cap + 1 : 0;
    ssize_t n = end > 0 ? pread(fd, buf, (size_t)(end - from), from) : 0;
    close(fd);
    return n > 0 ? (size_t)n : 0;
}

void x11_launch_stderr_tail(const char *dir, char *out, size_t outlen)
{
    char buf[X11_TAIL_BYTES + 1];
    size_t n = read_tail(dir, buf, sizeof buf);
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
        n--;
    buf[n] = '\0';
    char *line = strrchr(buf, '\n');
    line = line ? line + 1 : buf;
    for (char *p = line; *p; p++)
        if ((unsigned char)*p < 0x20)
            *p = ' ';
    snprintf(out, outlen, "%s", line);
}

int x11_launch_save_stderr(const char *dir, const char *path)
{
    char buf[X11_TAIL_BYTES + 1];
    size_t n = read_tail(dir, buf, sizeof buf);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    int ok = write(fd, buf, n) == (ssize_t)n;
    close(fd);
    return ok ? 0 : -1;
}

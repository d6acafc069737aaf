/* secret_file.c -- a secret from an owner-only file (secret_file.h). */
#include "common/secret_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void strip_newline(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
}

/* Opens path and checks the descriptor: regular, owner-only, the caller's. fd, or -1 with err. */
static int secret_open(const char *path, const char *what, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    struct stat st;
    if (fd < 0 && errno == ELOOP) {
        snprintf(err, errlen, "%s: %s is a symbolic link; give the file itself", path, what);
        return -1;
    }
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open %s: %s", path, what, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
        snprintf(err, errlen, "%s: %s is not a regular file", path, what);
    else if (st.st_mode & 077)
        snprintf(err, errlen, "%s: %s has mode %04o; it must not be readable by others (chmod 600 %s)", path,
                 what, (unsigned)(st.st_mode & 07777), path);
    else if (geteuid() != 0 && st.st_uid != geteuid())
        snprintf(err, errlen, "%s: %s belongs to uid %u, not to this user (uid %u)", path, what,
                 (unsigned)st.st_uid, (unsigned)geteuid());
    else
        return fd;
    close(fd);
    return -1;
}

/* Reads fd to its end into buf (cap bytes, one kept for the NUL); the length, or -1 with err. */
static ssize_t read_to_end(int fd, const char *path, char *buf, size_t cap, char *err, size_t errlen)
{
    size_t used = 0;
    for (;;) {
        ssize_t n = read(fd, buf + used, cap - 1 - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
            return -1;
        }
        used += (size_t)n;
        if (n == 0 || used == cap - 1)
            break;
    }
    buf[used] = 0;
    return (ssize_t)used;
}

int secret_file_read(const char *path, const char *what, char *out, size_t outlen, char *err, size_t errlen)
{
    int fd = secret_open(path, what, err, errlen);
    if (fd < 0)
        return -1;
    ssize_t n = read_to_end(fd, path, out, outlen, err, errlen);
    close(fd);
    if (n < 0)
        return -1;
    strip_newline(out);
    return 0;
}

char *secret_file_read_all(const char *path, const char *what, size_t max_bytes, size_t *len, char *err,
                           size_t errlen)
{
    int fd = secret_open(path, what, err, errlen);
    if (fd < 0)
        return NULL;
    char *buf = malloc(max_bytes + 2);
    ssize_t n = buf ? read_to_end(fd, path, buf, max_bytes + 2, err, errlen) : -1;
    close(fd);
    if (!buf)
        snprintf(err, errlen, "%s: out of memory", path);
    if (n > (ssize_t)max_bytes)
        snprintf(err, errlen, "%s: %s is larger than the limit of %zu bytes", path, what, max_bytes);
    if (n < 0 || n > (ssize_t)max_bytes) {
        if (buf) {
            memset(buf, 0, max_bytes + 2);
            free(buf);
        }
        return NULL;
    }
    *len = (size_t)n;
    return buf;
}

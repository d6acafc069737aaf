/* secret_file.c -- a secret from an owner-only file (secret_file.h). */
#include "common/secret_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void strip_newline(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
}

int secret_file_read(const char *path, const char *what, char *out, size_t outlen, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open %s: %s", path, what, strerror(errno));
        return -1;
    }
    int rc = -1;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: %s is not a regular file", path, what);
        goto out;
    }
    if (st.st_mode & 077) {
        snprintf(err, errlen, "%s: %s has mode %04o; it must not be readable by others (chmod 600 %s)", path,
                 what, (unsigned)(st.st_mode & 07777), path);
        goto out;
    }
    ssize_t n = read(fd, out, outlen - 1);
    if (n < 0) {
        snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
        goto out;
    }
    out[n] = 0;
    strip_newline(out);
    rc = 0;
out:
    close(fd);
    return rc;
}

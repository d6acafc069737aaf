/* live_failures.c -- the latest failed sessions and their screenshots (live_failures.h). */
#include "controller/web/live_failures.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


void web_live_shots_dir(struct web_live_failures *x, const char *dir)
{
    snprintf(x->shots, sizeof x->shots, "%s", dir ? dir : "");
}

void web_live_failure_add(struct web_live_failures *x, const struct web_live_failure *f)
{
    if (x->n == WEB_LIVE_RECENT_FAILURES) {
        memmove(x->f, x->f + 1, (WEB_LIVE_RECENT_FAILURES - 1) * sizeof x->f[0]);
        x->n--;
    }
    x->f[x->n++] = *f;
}

/* A plain PNG file name one of the listed failures names. */
static int listed(const struct web_live_failures *x, const char *name)
{
    size_t n = strlen(name);
    if (n < 5 || name[0] == '.' || strchr(name, '/') || strcmp(name + n - 4, ".png") != 0)
        return 0;
    for (size_t i = 0; i < x->n; i++)
        if (x->f[i].screen[0] && strcmp(x->f[i].screen, name) == 0)
            return 1;
    return 0;
}

int web_live_shot(const struct web_live_failures *x, const char *name, char **body, size_t *len)
{
    if (!x->shots[0] || !listed(x, name))
        return 404;
    char path[sizeof x->shots + 128];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", x->shots, name) >= sizeof path)
        return 404;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return 404;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)WEB_LIVE_SHOT_MAX_BYTES) {
        close(fd);
        return 404;
    }
    size_t want = (size_t)st.st_size, got = 0;
    char *buf = malloc(want ? want : 1);
    if (!buf) {
        close(fd);
        return 500;
    }
    while (got < want) {
        ssize_t k = read(fd, buf + got, want - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fd);
    if (got != want) {
        free(buf);
        return 404;
    }
    *body = buf;
    *len = got;
    return 200;
}

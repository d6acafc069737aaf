/* outfile.c -- outputs through a temporary file and a rename (outfile.h). */
#include "common/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The open outputs: each stream with its temporary and final names. */
struct outfile {
    FILE *f;
    char *tmp, *path;
    struct outfile *next;
};

static struct outfile *open_list;

static struct outfile *take(FILE *f)
{
    for (struct outfile **p = &open_list; *p; p = &(*p)->next)
        if ((*p)->f == f) {
            struct outfile *o = *p;
            *p = o->next;
            return o;
        }
    return NULL;
}

static void release(struct outfile *o)
{
    free(o->tmp);
    free(o->path);
    free(o);
}

FILE *outfile_open(const char *path, char *err, size_t errlen)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
    struct outfile *o = calloc(1, sizeof *o);
    if (!o || !(o->path = strdup(path)) || !(o->tmp = malloc(strlen(path) + 16))) {
        snprintf(err, errlen, "%s: cannot write: out of memory", path);
        if (o)
            release(o);
        return NULL;
    }
    /* DIR/.NAME.XXXXXX: the same directory (rename stays atomic), hidden while written */
    memcpy(o->tmp, path, dirlen);
    snprintf(o->tmp + dirlen, strlen(path) + 16 - dirlen, ".%s.XXXXXX", path + dirlen);
    int fd = mkostemp(o->tmp, O_CLOEXEC);   /* O_CREAT|O_EXCL, mode 0600 */
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        release(o);
        return NULL;
    }
    o->next = open_list;
    open_list = o;
    return o->f;
}

int outfile_commit(FILE *f, char *err, size_t errlen)
{
    struct outfile *o = take(f);
    if (!o) {
        snprintf(err, errlen, "output stream not opened by outfile_open");
        return -1;
    }
    int bad = ferror(f) || fflush(f) != 0 || fsync(fileno(f)) != 0;
    int saved = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    if (!bad && rename(o->tmp, o->path) != 0) {
        bad = 1;
        saved = errno;
    }
    if (bad) {
        snprintf(err, errlen, "%s: write failed: %s", o->path, strerror(saved));
        unlink(o->tmp);
    }
    release(o);
    return bad ? -1 : 0;
}

void outfile_discard(FILE *f)
{
    struct outfile *o = f ? take(f) : NULL;
    if (!o)
        return;
    fclose(f);
    unlink(o->tmp);
    release(o);
}

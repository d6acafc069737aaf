/* eventlog.c -- one line per action, appended under a mutex. */
#include "simhost/server/eventlog.h"

#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct sim_eventlog {
    int fd;
    pthread_mutex_t mu;
};

struct sim_eventlog *sim_eventlog_open(const char *path)
{
    struct sim_eventlog *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (l->fd < 0) {
        free(l);
        return NULL;
    }
    pthread_mutex_init(&l->mu, NULL);
    return l;
}

void sim_eventlog_close(struct sim_eventlog *l)
{
    if (!l)
        return;
    close(l->fd);
    pthread_mutex_destroy(&l->mu);
    free(l);
}

int sim_eventlog_format(const struct sim_event *e, char *buf, size_t len)
{
    int n = snprintf(buf, len,
                     "session=%u user=%s action=%s seq=%u input_us=%" PRIu64 " work_start_us=%" PRIu64
                     " work_end_us=%" PRIu64 " frame_sent_us=%" PRIu64 " write_wait_us=%" PRIu64 " ok=%d\n",
                     e->session, e->user ? e->user : "-", e->action, e->seq, e->input_us, e->work_start_us,
                     e->work_end_us, e->frame_sent_us, e->write_wait_us, e->ok);
    return n < 0 ? 0 : (n >= (int)len ? (int)len - 1 : n);
}

void sim_eventlog_write_line(struct sim_eventlog *l, const char *line, size_t n)
{
    if (!l)
        return;
    pthread_mutex_lock(&l->mu);
    if (write(l->fd, line, n) != (ssize_t)n) {
        /* a full disk loses event lines, never sessions */
    }
    pthread_mutex_unlock(&l->mu);
}

void sim_eventlog_write(struct sim_eventlog *l, const struct sim_event *e)
{
    char line[512];
    if (!l)
        return;
    int n = sim_eventlog_format(e, line, sizeof line);
    sim_eventlog_write_line(l, line, (size_t)n);
}

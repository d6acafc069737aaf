/* outbox.c -- unacknowledged RECORDS frames, in memory up to a limit, then in a spill file
 * (see outbox.h). Frames are an ordered queue [head, tail); `next` is the first one not yet
 * sent on the current link. */
#include "agent/link/outbox.h"

#include "common/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUTBOX_FIRST_CAP 64

struct frame {
    uint64_t seq;
    uint8_t *mem;        /* NULL: in the spill file at off */
    uint64_t off;
    size_t len;
};

struct outbox {
    struct frame *f;
    size_t head, tail, next, cap;   /* indexes into f */
    uint64_t acked;
    size_t mem_limit, mem_bytes;
    char *spill_dir;
    int fd;                         /* spill file, -1 until needed */
    uint64_t spill_end, spilled_frames;
    uint8_t *scratch;               /* a spilled frame read back */
    size_t scratch_cap;
};

struct outbox *outbox_new(size_t mem_limit, const char *spill_dir)
{
    struct outbox *ob = calloc(1, sizeof *ob);
    if (!ob)
        return NULL;
    ob->mem_limit = mem_limit;
    ob->fd = -1;
    ob->spill_dir = strdup(spill_dir ? spill_dir : "/tmp");
    if (!ob->spill_dir) {
        free(ob);
        return NULL;
    }
    return ob;
}

void outbox_free(struct outbox *ob)
{
    if (!ob)
        return;
    for (size_t i = ob->head; i < ob->tail; i++)
        free(ob->f[i].mem);
    free(ob->f);
    free(ob->scratch);
    free(ob->spill_dir);
    if (ob->fd >= 0)
        close(ob->fd);
    free(ob);
}

/* Room for one more frame at the tail: slide the queue to the front or grow. */
static int room(struct outbox *ob)
{
    if (ob->tail < ob->cap)
        return 0;
    if (ob->head > ob->cap / 2) {
        size_t n = ob->tail - ob->head;
        memmove(ob->f, ob->f + ob->head, n * sizeof *ob->f);
        ob->next -= ob->head;
        ob->tail = n;
        ob->head = 0;
        return 0;
    }
    size_t cap = ob->cap ? ob->cap * 2 : OUTBOX_FIRST_CAP;
    struct frame *f = realloc(ob->f, cap * sizeof *f);
    if (!f)
        return -1;
    ob->f = f;
    ob->cap = cap;
    return 0;
}

/* The spill file: created 0600 with a unique name and unlinked at once (only our descriptor
 * reaches it, and it disappears with the agent). */
static int spill_open(struct outbox *ob)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/sessmax-agent-spill-XXXXXX", ob->spill_dir);
    int fd = mkostemp(path, O_CLOEXEC);   /* mode 0600 */
    if (fd < 0) {
        log_error("cannot create a spill file in %s: %s", ob->spill_dir, strerror(errno));
        return -1;
    }
    unlink(path);
    ob->fd = fd;
    log_warn("unacknowledged results exceed %zu bytes of memory: spilling to a file in %s", ob->mem_limit,
             ob->spill_dir);
    return 0;
}

static int spill(struct outbox *ob, struct frame *fr, const uint8_t *frame)
{
    if (ob->fd < 0 && spill_open(ob) < 0)
        return -1;
    size_t done = 0;
    while (done < fr->len) {
        ssize_t k = pwrite(ob->fd, frame + done, fr->len - done, (off_t)(ob->spill_end + done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            log_ratelimited(LOG_ERROR, "spill", "cannot write the spill file: %s", k < 0 ? strerror(errno) : "short");
            return -1;
        }
        done += (size_t)k;
    }
    fr->off = ob->spill_end;
    ob->spill_end += fr->len;
    ob->spilled_frames++;
    return 0;
}

int outbox_push(struct outbox *ob, uint64_t seq, const uint8_t *frame, size_t len)
{
    if (room(ob) < 0)
        goto oom;
    struct frame *fr = &ob->f[ob->tail];
    *fr = (struct frame){ .seq = seq, .len = len };
    if (ob->mem_bytes + len <= ob->mem_limit) {
        if (!(fr->mem = malloc(len)))
            goto oom;
        memcpy(fr->mem, frame, len);
        ob->mem_bytes += len;
    } else if (spill(ob, fr, frame) < 0) {
        return -1;
    }
    ob->tail++;
    return 0;
oom:
    log_ratelimited(LOG_ERROR, "outbox-oom", "out of memory: a batch of results was dropped");
    return -1;
}

void outbox_ack(struct outbox *ob, uint64_t seq)
{
    while (ob->head < ob->tail && ob->f[ob->head].seq <= seq) {
        struct frame *fr = &ob->f[ob->head++];
        if (fr->mem) {
            ob->mem_bytes -= fr->len;
            free(fr->mem);
        } else {
            ob->spilled_frames--;
        }
    }
    if (seq > ob->acked)
        ob->acked = seq;
    if (ob->next < ob->head)
        ob->next = ob->head;
    if (ob->fd >= 0 && ob->spilled_frames == 0 && ob->spill_end) {
        if (ftruncate(ob->fd, 0) == 0)   /* nothing spilled is waiting: give the disk back */
            ob->spill_end = 0;
    }
}

void outbox_rewind(struct outbox *ob) { ob->next = ob->head; }

int outbox_next(struct outbox *ob, const uint8_t **buf, size_t *len)
{
    if (ob->next >= ob->tail)
        return 0;
    struct frame *fr = &ob->f[ob->next];
    if (!fr->mem) {
        if (fr->len > ob->scratch_cap) {
            uint8_t *s = realloc(ob->scratch, fr->len);
            if (!s)
                return -1;
            ob->scratch = s;
            ob->scratch_cap = fr->len;
        }
        size_t done = 0;
        while (done < fr->len) {
            ssize_t k = pread(ob->fd, ob->scratch + done, fr->len - done, (off_t)(fr->off + done));
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0)
                return -1;
            done += (size_t)k;
        }
    }
    *buf = fr->mem ? fr->mem : ob->scratch;
    *len = fr->len;
    ob->next++;
    return 1;
}

uint64_t outbox_acked(const struct outbox *ob) { return ob->acked; }
size_t outbox_frames(const struct outbox *ob) { return ob->tail - ob->head; }
size_t outbox_mem_bytes(const struct outbox *ob) { return ob->mem_bytes; }
uint64_t outbox_spilled_bytes(const struct outbox *ob) { return ob->spill_end; }

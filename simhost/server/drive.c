/* drive.c -- rdpdr server channel per session and the copyin/copyout commands (drive.h).
 *
 * A copy in reads the way a Windows server does: open, ask the client for the file's size
 * (FileStandardInformation, compat/rdpdr_query_info.h), then read exactly the bytes the size says,
 * never past the end. FreeRDP's client answers a read past the end with STATUS_UNSUCCESSFUL since
 * 2.11.7+dfsg1-6~deb12u2 (and with success and no bytes before), so a reader that probes for the end
 * breaks on one package or the other. A read that comes back shorter than asked means the file
 * shrank while it was copied: the copy fails and says so.
 *
 * FreeRDP 2.11's rdpdr server reads each channel message into a 4 KiB buffer and parses whatever
 * it got as whole PDUs, so a read completion must fit in 4096 bytes: reads ask for at most
 * SIM_DRIVE_READ_CHUNK bytes (20 bytes of headers on top). Writes have no such limit. Requests are
 * pipelined (SIM_DRIVE_INFLIGHT at once) so a copy is not one round trip per chunk. Completions
 * arrive on FreeRDP's rdpdr thread; callbackData carries the copy's generation, so completions of
 * an abandoned copy are ignored.
 *
 *   CP_WAIT_DEVICE -> CP_OPENING -> (copy in: CP_SIZING ->) CP_RUNNING -> CP_CLOSING -> CP_DONE
 *   any state but CP_IDLE -> CP_FAILED [copy_fail]; CP_DONE / CP_FAILED -> CP_IDLE [sim_drive_step]
 *
 * --drive-redirection probe-eof adds one request after a verified copy in: a read past the end of
 * the file, whose answer is logged ("a read past the end ... answered ..."). The behaviour test of
 * compat/ (tests/integration/freerdp_behaviour.sh) uses it to tell which client it talks to. */
#include "simhost/server/drive.h"
#include "compat/rdpdr_completion.h"
#include "compat/rdpdr_query_info.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <freerdp/channels/channels.h>
#include <freerdp/channels/wtsvc.h>
#include <freerdp/server/rdpdr.h>
#include <winpr/file.h>
#include <winpr/wtsapi.h>

#include "common/clock.h"
#include "common/drive_gen.h"
#include "common/log.h"

#define SIM_DRIVE_READ_CHUNK 4064u
#define SIM_DRIVE_WRITE_CHUNK (64u << 10)
#define SIM_DRIVE_INFLIGHT 16
#define SIM_DRIVE_DEVS 16
#define SIM_DRIVE_PROGRESS_US 250000u

enum copy_state { CP_IDLE, CP_WAIT_DEVICE, CP_OPENING, CP_SIZING, CP_RUNNING, CP_CLOSING, CP_DONE, CP_FAILED };

struct sim_dev {
    uint32_t id;
    char name[9];
};

struct sim_copy {
    enum copy_state st;
    int out;                     /* 1: copyout */
    uintptr_t gen;
    unsigned seq;
    char drive[SIM_CMD_DRIVE_MAX + 1], file[SIM_CMD_ARG_MAX];
    uint32_t dev, file_id;
    uint64_t size;               /* copyout: bytes to write */
    uint64_t next_off, done, key;
    uint64_t eof_at;             /* copyin: the file's size as the client reported it */
    uint32_t reads;              /* copyin: read requests sent */
    int probe_eof;               /* copyin: after the copy, one read at the end (--drive-redirection probe-eof) */
    uint64_t slot_off[SIM_DRIVE_INFLIGHT];
    uint32_t slot_used;          /* bit per slot with a request in flight */
    int inflight, fd;
    uint64_t t0_us, t_end_us, last_paint_us, last_event_us;
    char path[4200];             /* copyin: the server-side copy */
    char err[160];
};

struct sim_drive {
    freerdp_peer *peer;
    HANDLE vcm;
    RdpdrServerContext *rdpdr;
    int enabled, channel;        /* drives allowed; rdpdr started */
    int probe_eof;               /* --drive-redirection probe-eof */
    unsigned session;
    pthread_mutex_t mu;
    struct sim_dev devs[SIM_DRIVE_DEVS];
    int ndevs;
    struct sim_copy c;
    uint8_t *scratch;            /* generator output to compare or send (one chunk) */
};

static pthread_once_t wts_once = PTHREAD_ONCE_INIT;
static void wts_init(void) { WTSRegisterWtsApiFunctionTable(FreeRDP_InitWtsApi()); }

static struct sim_drive *drive_of(RdpdrServerContext *ctx) { return ctx->data; }

/* callbackData = generation << 8 | slot (CB_CTRL for open/close, CB_ABANDON for a close after a
 * failure, whose completion is ignored). */
#define CB_CTRL 0xFFu
#define CB_ABANDON 0xFEu
static void *cb_of(const struct sim_copy *c, unsigned slot) { return (void *)((c->gen << 8) | slot); }
static unsigned slot_of(void *cb) { return (unsigned)((uintptr_t)cb & 0xFFu); }

static int stale(struct sim_drive *d, void *cb)
{
    return ((uintptr_t)cb >> 8) != d->c.gen || slot_of(cb) == CB_ABANDON || d->c.st == CP_DONE ||
           d->c.st == CP_FAILED;
}

static void on_close(RdpdrServerContext *ctx, void *cb, UINT32 io);

/* ---- failure and completion (d->mu held) ---- */

static void copy_fail(struct sim_drive *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void copy_fail(struct sim_drive *d, const char *fmt, ...)
{
    struct sim_copy *c = &d->c;
    va_list ap;
    if (c->st == CP_DONE || c->st == CP_FAILED)
        return;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    if ((c->st == CP_RUNNING || c->st == CP_SIZING) && d->rdpdr &&   /* best effort: do not leave the file open */
        d->rdpdr->DriveCloseFile(d->rdpdr, cb_of(c, CB_ABANDON), c->dev, c->file_id) == CHANNEL_RC_OK)
        rdpdr_completion_close(d->rdpdr, on_close);
    c->st = CP_FAILED;
    c->t_end_us = clock_now_us();
}

static const char *ntstatus_text(UINT32 s)
{
    switch (s) {
    case 0xC0000034:
    case 0xC000000F: return "no such file";
    case 0xC000003A: return "path not found";
    case 0xC0000022: return "access denied";
    case 0xC0000043: return "sharing violation";
    case 0xC000007F: return "disk full";
    case 0xC0000011: return "end of file";
    default: return "error";
    }
}


static void copy_close(struct sim_drive *d)
{
    struct sim_copy *c = &d->c;
    c->st = CP_CLOSING;
    if (d->rdpdr->DriveCloseFile(d->rdpdr, cb_of(c, CB_CTRL), c->dev, c->file_id) != CHANNEL_RC_OK ||
        rdpdr_completion_close(d->rdpdr, on_close) != 0)
        copy_fail(d, "cannot send the close request");
}

static void on_write(RdpdrServerContext *ctx, void *cb, UINT32 io, UINT32 written);

#define CB_PROBE 0xFDu   /* the read at the end of --drive-redirection probe-eof */

/* Everything copied: close, or (probe-eof, copy in) first ask one read that starts a chunk past the
 * end of the file (a read at exactly the end gets success and no bytes from every package). */
static void copy_finish(struct sim_drive *d)
{
    struct sim_copy *c = &d->c;
    if (c->out || !c->probe_eof || c->eof_at > UINT32_MAX - SIM_DRIVE_READ_CHUNK) {
        copy_close(d);
        return;
    }
    c->probe_eof = 0;
    c->inflight = 1;
    if (d->rdpdr->DriveReadFile(d->rdpdr, cb_of(c, CB_PROBE), c->dev, c->file_id, SIM_DRIVE_READ_CHUNK,
                                (UINT32)(c->eof_at + SIM_DRIVE_READ_CHUNK)) != CHANNEL_RC_OK)
        copy_fail(d, "cannot send the read past the end of the file");
}

static int free_slot(const struct sim_copy *c)
{
    for (int i = 0; i < SIM_DRIVE_INFLIGHT; i++)
        if (!(c->slot_used & (1u << i)))
            return i;
    return -1;
}

/* Issues requests until SIM_DRIVE_INFLIGHT are outstanding or the data is exhausted; closes the
 * file once everything completed. */
static void copy_pump(struct sim_drive *d)
{
    struct sim_copy *c = &d->c;
    while (c->st == CP_RUNNING && c->inflight < SIM_DRIVE_INFLIGHT) {
        uint64_t end = c->out ? c->size : c->eof_at;
        if (c->next_off >= end)
            break;
        if (c->next_off + SIM_DRIVE_WRITE_CHUNK > UINT32_MAX) {
            copy_fail(d, "files of 4 GiB or more are not supported (32-bit offsets in the rdpdr server)");
            return;
        }
        int slot = free_slot(c);
        UINT rc;
        uint32_t chunk = c->out ? SIM_DRIVE_WRITE_CHUNK : SIM_DRIVE_READ_CHUNK;
        uint32_t n = end - c->next_off < chunk ? (uint32_t)(end - c->next_off) : chunk;
        if (c->out) {
            drive_gen_fill(c->key, c->next_off, d->scratch, n);
            rc = d->rdpdr->DriveWriteFile(d->rdpdr, cb_of(c, (unsigned)slot), c->dev, c->file_id,
                                          (const char *)d->scratch, n, (UINT32)c->next_off);
            if (rc == CHANNEL_RC_OK && rdpdr_completion_write(d->rdpdr, on_write) != 0)
                rc = ERROR_INTERNAL_ERROR;
        } else {
            rc = d->rdpdr->DriveReadFile(d->rdpdr, cb_of(c, (unsigned)slot), c->dev, c->file_id, n,
                                         (UINT32)c->next_off);
            c->reads++;
        }
        if (rc != CHANNEL_RC_OK) {
            copy_fail(d, "cannot send a request on the drive channel");
            return;
        }
        c->slot_off[slot] = c->next_off;
        c->slot_used |= 1u << slot;
        c->next_off += n;
        c->inflight++;
    }
    if (c->st == CP_RUNNING && c->inflight == 0)
        copy_finish(d);
}

/* A completion for a read/write slot: returns its offset and frees the slot, or -1 (stale). */
static int64_t slot_take(struct sim_copy *c, void *cb)
{
    unsigned slot = slot_of(cb);
    if (slot >= SIM_DRIVE_INFLIGHT || !(c->slot_used & (1u << slot)))
        return -1;
    c->slot_used &= ~(1u << slot);
    c->inflight--;
    c->last_event_us = clock_now_us();
    return (int64_t)c->slot_off[slot];
}

/* ---- rdpdr callbacks (FreeRDP's rdpdr thread) ---- */

static void on_drive_create(RdpdrServerContext *ctx, UINT32 id, const char *name)
{
    struct sim_drive *d = drive_of(ctx);
    pthread_mutex_lock(&d->mu);
    if (d->ndevs < SIM_DRIVE_DEVS) {
        d->devs[d->ndevs].id = id;
        snprintf(d->devs[d->ndevs].name, sizeof d->devs[0].name, "%s", name);
        d->ndevs++;
    }
    pthread_mutex_unlock(&d->mu);
    log_info("session %u: client drive '%s' announced (device %u)", d->session, name, (unsigned)id);
}

static void on_drive_delete(RdpdrServerContext *ctx, UINT32 id)
{
    struct sim_drive *d = drive_of(ctx);
    pthread_mutex_lock(&d->mu);
    for (int i = 0; i < d->ndevs; i++)
        if (d->devs[i].id == id)
            d->devs[i] = d->devs[--d->ndevs];
    if (d->c.dev == id && (d->c.st == CP_RUNNING || d->c.st == CP_OPENING))
        copy_fail(d, "the client removed drive %s", d->c.drive);
    pthread_mutex_unlock(&d->mu);
}

/* The client's FileStandardInformation for the file being copied in: from now on reads ask for
 * exactly the bytes the size says. */
static void on_size(RdpdrServerContext *ctx, void *cb, const struct rdpdr_file_info *info)
{
    struct sim_drive *d = drive_of(ctx);
    pthread_mutex_lock(&d->mu);
    struct sim_copy *c = &d->c;
    if (!stale(d, cb) && c->st == CP_SIZING) {
        c->last_event_us = clock_now_us();
        if (info->io != 0)
            copy_fail(d, "%s:\\%s: size query failed: %s (NTSTATUS 0x%08X)", c->drive, c->file,
                      ntstatus_text(info->io), (unsigned)info->io);
        else if (!info->valid)
            copy_fail(d, "%s:\\%s: the client's size reply is too short for FileStandardInformation",
                      c->drive, c->file);
        else if (info->is_dir)
            copy_fail(d, "%s:\\%s is a directory", c->drive, c->file);
        else {
            c->eof_at = info->size;
            c->st = CP_RUNNING;
            copy_pump(d);
        }
    }
    pthread_mutex_unlock(&d->mu);
}

static void on_open(RdpdrServerContext *ctx, void *cb, UINT32 io, UINT32 dev, UINT32 file_id)
{
    struct sim_drive *d = drive_of(ctx);
    (void)dev;
    pthread_mutex_lock(&d->mu);
    struct sim_copy *c = &d->c;
    if (!stale(d, cb) && c->st == CP_OPENING) {
        c->last_event_us = clock_now_us();
        if (io != 0) {
            copy_fail(d, "%s:\\%s: open failed: %s (NTSTATUS 0x%08X)", c->drive, c->file,
                      ntstatus_text(io), (unsigned)io);
        } else {
            c->file_id = file_id;
            c->st = c->out ? CP_RUNNING : CP_SIZING;
            if (c->out)
                copy_pump(d);
            else if (rdpdr_query_info(d->rdpdr, cb_of(c, CB_CTRL), c->dev, c->file_id, on_size) != 0)
                copy_fail(d, "cannot send the size query on the drive channel");
        }
    }
    pthread_mutex_unlock(&d->mu);
}

static int pwrite_all(int fd, const char *p, size_t n, off_t off)
{
    while (n) {
        ssize_t w = pwrite(fd, p, n, off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w, n -= (size_t)w, off += w;
    }
    return 0;
}

/* The answer to the read past the end of the file (probe-eof): logged, then the file is closed. */
static void probe_answer(struct sim_drive *d, UINT32 io, UINT32 len)
{
    struct sim_copy *c = &d->c;
    c->inflight = 0;
    log_info("session %u: copyin #%u: a read past the end of %s:\\%s (byte %llu of %llu) answered %s "
             "(NTSTATUS 0x%08X, %u bytes)", d->session, c->seq, c->drive, c->file,
             (unsigned long long)c->eof_at + SIM_DRIVE_READ_CHUNK, (unsigned long long)c->eof_at,
             io == 0 ? "success" : ntstatus_text(io), (unsigned)io, (unsigned)len);
    copy_close(d);
}

/* Completions may come back in any order: each is checked and written at its own offset. Every read
 * asked for bytes inside the file (the size came first), so an error is a real failure, and a read
 * shorter than asked means the file shrank under the copy. */
static void on_read(RdpdrServerContext *ctx, void *cb, UINT32 io, const char *buf, UINT32 len)
{
    struct sim_drive *d = drive_of(ctx);
    pthread_mutex_lock(&d->mu);
    struct sim_copy *c = &d->c;
    if (!stale(d, cb) && c->st == CP_RUNNING && !c->out && slot_of(cb) == CB_PROBE) {
        probe_answer(d, io, len);
        pthread_mutex_unlock(&d->mu);
        return;
    }
    int64_t off = stale(d, cb) || c->st != CP_RUNNING || c->out ? -1 : slot_take(c, cb);
    if (off < 0) {
        pthread_mutex_unlock(&d->mu);
        return;
    }
    uint64_t want = c->eof_at - (uint64_t)off < SIM_DRIVE_READ_CHUNK ? c->eof_at - (uint64_t)off : SIM_DRIVE_READ_CHUNK;
    if (io != 0) {
        copy_fail(d, "read failed at byte %lld of %llu: %s (NTSTATUS 0x%08X)", (long long)off,
                  (unsigned long long)c->eof_at, ntstatus_text(io), (unsigned)io);
    } else if (len > want) {
        copy_fail(d, "the client sent more data than asked (%u bytes at %lld, %llu asked)", (unsigned)len,
                  (long long)off, (unsigned long long)want);
    } else if (len < want) {
        copy_fail(d, "the file ended at byte %llu, before the %llu bytes its size said (it shrank during the copy)",
                  (unsigned long long)off + len, (unsigned long long)c->eof_at);
    } else {
        drive_gen_fill(c->key, (uint64_t)off, d->scratch, len);
        if (memcmp(buf, d->scratch, len) != 0)
            copy_fail(d, "checksum: content differs from %s's expected bytes near offset %lld",
                      c->file, (long long)off);
        else if (pwrite_all(c->fd, buf, len, (off_t)off) != 0)
            copy_fail(d, "%s: %s", c->path, strerror(errno));
        c->done += len;
        copy_pump(d);
    }
    pthread_mutex_unlock(&d->mu);
}

static void on_write(RdpdrServerContext *ctx, void *cb, UINT32 io, UINT32 written)
{
    struct sim_drive *d = drive_of(ctx);
    pthread_mutex_lock(&d->mu);
    struct sim_copy *c = &d->c;
    int64_t off = stale(d, cb) || c->st != CP_RUNNING || !c->out ? -1 : slot_take(c, cb);
    if (off >= 0) {
        uint64_t want = c->size - (uint64_t)off < SIM_DRIVE_WRITE_CHUNK ? c->size - (uint64_t)off
                                                                        : SIM_DRIVE_WRITE_CHUNK;
        if (io != 0)
            copy_fail(d, "write failed at byte %lld: %s (NTSTATUS 0x%08X)", (long long)off,
                      ntstatus_text(io), (unsigned)io);
        else if (written != want)
            copy_fail(d, "short write: %u of %llu bytes at byte %lld", (unsigned)written,
                      (unsigned long long)want, (long long)off);
        else {
            c->done += written;
            copy_pump(d);
        }
    }
    pthread_mutex_unlock(&d->mu);
}

static void on_close(RdpdrServerContext *ctx, void *cb, UINT32 io)
{
    struct sim_drive *d = drive_of(ctx);
    pthread_mutex_lock(&d->mu);
    struct sim_copy *c = &d->c;
    if (!stale(d, cb) && c->st == CP_CLOSING) {
        if (io != 0) {
            copy_fail(d, "close failed: NTSTATUS 0x%08X", (unsigned)io);
        } else {
            c->st = CP_DONE;
            c->t_end_us = clock_now_us();
        }
    }
    pthread_mutex_unlock(&d->mu);
}

/* ---- session side ---- */

struct sim_drive *sim_drive_new(rdpContext *ctx, int mode)
{
    pthread_once(&wts_once, wts_init);
    struct sim_drive *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->peer = ctx->peer;
    d->enabled = mode != SIM_DRIVES_OFF;
    d->probe_eof = mode == SIM_DRIVES_PROBE_EOF;
    d->c.fd = -1;
    pthread_mutex_init(&d->mu, NULL);
    d->vcm = WTSOpenServerA((LPSTR)ctx);
    if (!d->vcm || d->vcm == INVALID_HANDLE_VALUE) {
        pthread_mutex_destroy(&d->mu);
        free(d);
        return NULL;
    }
    return d;
}

void sim_drive_logon(struct sim_drive *d, unsigned session_id)
{
    if (!d)
        return;
    d->session = session_id;
    if (!d->enabled || !WTSVirtualChannelManagerIsChannelJoined(d->vcm, "rdpdr"))
        return;
    RdpdrServerContext *r = rdpdr_server_context_new(d->vcm);
    d->scratch = malloc(SIM_DRIVE_WRITE_CHUNK);
    if (!r || !d->scratch) {
        rdpdr_server_context_free(r);
        return;
    }
    r->data = d;
    r->supportsDrives = TRUE;
    r->OnDriveCreate = on_drive_create;
    r->OnDriveDelete = on_drive_delete;
    r->OnDriveOpenFileComplete = on_open;
    r->OnDriveReadFileComplete = on_read;
    r->OnDriveWriteFileComplete = on_write;
    r->OnDriveCloseFileComplete = on_close;
    if (r->Start(r) != CHANNEL_RC_OK) {
        log_warn("session %u: cannot start the drive channel", session_id);
        rdpdr_server_context_free(r);
        return;
    }
    d->rdpdr = r;
    d->channel = 1;
}

DWORD sim_drive_handles(struct sim_drive *d, HANDLE *h, DWORD room)
{
    if (!d || room == 0)
        return 0;
    h[0] = WTSVirtualChannelManagerGetEventHandle(d->vcm);
    return h[0] ? 1 : 0;
}

int sim_drive_check(struct sim_drive *d)
{
    if (!d)
        return 0;
    return WTSVirtualChannelManagerCheckFileDescriptor(d->vcm) ? 0 : -1;
}

int sim_drive_busy(const struct sim_drive *d)
{
    return d && d->c.st != CP_IDLE;
}

static void out_text(struct sim_app_out *o, uint32_t rgb, const char *title)
{
    memset(o, 0, sizeof *o);
    snprintf(o->title, sizeof o->title, "%s", title);
    o->title_rgb = rgb;
}

static void out_add(struct sim_app_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_add(struct sim_app_out *o, const char *fmt, ...)
{
    va_list ap;
    if (o->n >= SIM_LINES)
        return;
    va_start(ap, fmt);
    vsnprintf(o->line[o->n++], SIM_COLS + 1, fmt, ap);
    va_end(ap);
}

static int begin_error(struct sim_app_out *out, const struct sim_cmd *cmd, unsigned seq, const char *why)
{
    log_info("%s %s:\\%s: %s", sim_cmd_name(cmd->kind), cmd->drive, cmd->arg, why);
    out_text(out, SIM_RGB_ERROR_TITLE, "Error");
    out_add(out, "%s #%u: %s failed", sim_cmd_name(cmd->kind), seq, cmd->arg);
    out_add(out, "%s", why);
    return -1;
}

int sim_drive_begin(struct sim_drive *d, const struct sim_cmd *cmd, const char *dir, unsigned seq,
                    struct sim_app_out *out)
{
    if (!d || !d->enabled)
        return begin_error(out, cmd, seq, "drive redirection is disabled on this server");
    if (!rdpdr_completion_supported())
        return begin_error(out, cmd, seq, "copies need FreeRDP 2.11's rdpdr IRP layout, not found "
                                          "when this simhost was built (docs/drives.md)");
    if (!d->channel)
        return begin_error(out, cmd, seq, "the client offers no drive redirection (no rdpdr channel)");
    pthread_mutex_lock(&d->mu);
    struct sim_copy *c = &d->c;
    uintptr_t gen = c->gen + 1;
    memset(c, 0, sizeof *c);
    c->gen = gen;
    c->fd = -1;
    c->out = cmd->kind == SIM_CMD_COPYOUT;
    c->seq = seq;
    snprintf(c->drive, sizeof c->drive, "%s", cmd->drive);
    snprintf(c->file, sizeof c->file, "%s", cmd->arg);
    c->size = cmd->size;
    c->eof_at = 0;
    c->probe_eof = d->probe_eof;
    c->key = drive_gen_key(cmd->arg);
    c->t0_us = c->last_event_us = clock_now_us();
    c->st = CP_WAIT_DEVICE;
    if (!c->out) {
        snprintf(c->path, sizeof c->path, "%s/%s.in", dir, cmd->arg);
        c->fd = open(c->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (c->fd < 0)
            copy_fail(d, "%s: %s", c->path, strerror(errno));
    }
    pthread_mutex_unlock(&d->mu);
    return 0;
}

/* CP_WAIT_DEVICE: open the file once drive NAME is announced (d->mu held). */
static void try_open(struct sim_drive *d, uint64_t now)
{
    struct sim_copy *c = &d->c;
    char path[SIM_CMD_ARG_MAX + 2], names[96] = "";
    for (int i = 0; i < d->ndevs; i++) {
        if (strcasecmp(d->devs[i].name, c->drive) != 0)
            continue;
        c->dev = d->devs[i].id;
        c->st = CP_OPENING;
        snprintf(path, sizeof path, "\\%s", c->file);
        UINT32 access = c->out ? GENERIC_WRITE : GENERIC_READ;
        UINT32 disp = c->out ? FILE_OVERWRITE_IF : FILE_OPEN;
        if (d->rdpdr->DriveOpenFile(d->rdpdr, cb_of(c, CB_CTRL), c->dev, path, access, disp) != CHANNEL_RC_OK)
            copy_fail(d, "cannot send the open request");
        return;
    }
    if (now - c->t0_us < SIM_DRIVE_WAIT_DEVICE_S * 1000000ull)
        return;
    for (int i = 0; i < d->ndevs; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", d->devs[i].name);
    copy_fail(d, "the client has no drive %s (drives announced: %s)", c->drive, d->ndevs ? names : "none");
}

static void result_window(struct sim_copy *c, struct sim_app_out *out)
{
    const char *verb = c->out ? "copyout" : "copyin";
    uint64_t us = c->t_end_us - c->t0_us;
    if (c->st == CP_FAILED) {
        out_text(out, SIM_RGB_ERROR_TITLE, "Error");
        out_add(out, "%s #%u: %s:\\%s failed after %.3f s", verb, c->seq, c->drive, c->file, us / 1e6);
        out_add(out, "%s", c->err);
        return;
    }
    out_text(out, c->out ? SIM_RGB_COPYOUT_TITLE : SIM_RGB_COPYIN_TITLE, c->out ? "Copy to client" : "Copy from client");
    out_add(out, "%s #%u: %s:\\%s %llu bytes in %.3f s, %.2f MB/s", verb, c->seq, c->drive, c->file,
            (unsigned long long)c->done, us / 1e6, drive_gen_mbps(c->done, us));
    out_add(out, c->out ? "content: %s's generated bytes" : "content verified against %s's generated bytes", c->file);
}

int sim_drive_step(struct sim_drive *d, struct sim_app_out *out, int *paint)
{
    *paint = 0;
    pthread_mutex_lock(&d->mu);
    uint64_t now = clock_now_us();     /* after the lock: callbacks move last_event_us forward */
    struct sim_copy *c = &d->c;
    if (c->st == CP_WAIT_DEVICE)
        try_open(d, now);
    if ((c->st == CP_OPENING || c->st == CP_RUNNING || c->st == CP_CLOSING) &&
        now - c->last_event_us > SIM_DRIVE_STALL_S * 1000000ull)
        copy_fail(d, "no answer from the client for %d s", SIM_DRIVE_STALL_S);
    int rc = 0;
    if (c->st == CP_DONE || c->st == CP_FAILED) {
        if (c->fd >= 0) {
            close(c->fd);
            unlink(c->path);          /* the copy was written and checked: do not fill the disk */
            c->fd = -1;
        }
        result_window(c, out);
        rc = c->st == CP_DONE ? 1 : -1;
        log_info("session %u: %s %s:\\%s: %s", d->session, c->out ? "copyout" : "copyin", c->drive,
                 c->file, rc > 0 ? out->line[0] : c->err);
        if (rc > 0 && !c->out)
            log_info("session %u: copyin #%u: %s:\\%s: size %llu bytes from the client, %u reads, none past "
                     "the end", d->session, c->seq, c->drive, c->file, (unsigned long long)c->eof_at, c->reads);
        c->st = CP_IDLE;
        *paint = 1;
    } else if (now - c->last_paint_us >= SIM_DRIVE_PROGRESS_US) {
        c->last_paint_us = now;
        out_text(out, SIM_RGB_COPY_BUSY, "Copying");
        out_add(out, "%s #%u: %s:\\%s", c->out ? "copyout" : "copyin", c->seq, c->drive, c->file);
        out_add(out, "%.1f MB copied, %.2f MB/s", c->done / 1048576.0, drive_gen_mbps(c->done, now - c->t0_us));
        *paint = 1;
    }
    pthread_mutex_unlock(&d->mu);
    return rc;
}

void sim_drive_free(struct sim_drive *d)
{
    if (!d)
        return;
    if (d->rdpdr) {
        d->rdpdr->Stop(d->rdpdr);
        rdpdr_server_context_free(d->rdpdr);
    }
    if (d->c.fd >= 0) {
        close(d->c.fd);
        unlink(d->c.path);
    }
    WTSCloseServer(d->vcm);
    free(d->scratch);
    pthread_mutex_destroy(&d->mu);
    free(d);
}

/* session.c -- one session's work: run the queued input against the desktop, do the
 * commands, step a drive copy, paint the dirty rectangles (see session.h). */
#include "simhost/server/session.h"

#include "common/clock.h"
#include "common/log.h"
#include "simhost/desktop/apps.h"
#include "simhost/desktop/appstart.h"
#include "simhost/desktop/codec.h"
#include "simhost/server/drive.h"
#include "simhost/desktop/kbd.h"

#include <errno.h>
#include <freerdp/freerdp.h>
#include <freerdp/update.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

/* ---- sending ---- */

int sim_session_write_out(struct sim_session *s, uint64_t *wait_us)
{
    freerdp_peer *peer = s->peer;
    while (peer->IsWriteBlocked(peer)) {
        struct pollfd p = { .fd = peer->sockfd, .events = POLLOUT };
        uint64_t t0 = clock_now_us();
        int r = poll(&p, 1, 100);
        if (wait_us)
            *wait_us += clock_now_us() - t0;
        if (r < 0 && errno != EINTR)
            return -1;
        if (peer->DrainOutputBuffer(peer) < 0)
            return -1;
    }
    return 0;
}

static int send_strip(void *arg, const struct sim_strip *st)
{
    struct sim_session *s = arg;
    SURFACE_BITS_COMMAND cmd;
    /* a worker's paint: at most one strip waits in FreeRDP's buffer */
    if (s->pacing && sim_session_write_out(s, &s->write_wait_us) != 0)
        return -1;
    memset(&cmd, 0, sizeof cmd);
    cmd.cmdType = CMDTYPE_SET_SURFACE_BITS;
    cmd.destLeft = (UINT32)st->x;
    cmd.destTop = (UINT32)st->y;
    cmd.destRight = (UINT32)(st->x + st->w);
    cmd.destBottom = (UINT32)(st->y + st->h);
    cmd.bmp.bpp = (BYTE)st->bpp;
    cmd.bmp.codecID = RDP_CODEC_ID_NONE;
    cmd.bmp.width = (UINT16)st->w;
    cmd.bmp.height = (UINT16)st->h;
    cmd.bmp.bitmapDataLength = (UINT32)st->len;
    cmd.bmp.bitmapData = (BYTE *)(uintptr_t)st->data;
    cmd.skipCompression = TRUE;
    return s->peer->update->SurfaceBits(s->peer->context, &cmd) ? 0 : -1;
}

static int frame_marker(struct sim_session *s, UINT32 action)
{
    SURFACE_FRAME_MARKER fm = { .frameAction = action, .frameId = s->frame_id };
    if (!s->markers)
        return 0;
    return s->peer->update->SurfaceFrameMarker(s->peer->context, &fm) ? 0 : -1;
}

/* Sends every dirty rectangle as one frame. Returns 0, or -1 when the client is gone. */
static int flush(struct sim_session *s)
{
    struct sim_desktop *d = &s->desk;
    if (!s->activated || s->suppressed || d->dirty.n == 0)
        return 0;
    if (s->peer->IsWriteBlocked(s->peer))   /* the event loop paints again once the client read */
        return 0;
    if (!s->client_ready && clock_now_us() - s->activated_us < SIM_HOLD_US)
        return 0;
    if (!s->client_ready)
        log_debug("session %u: the client said nothing after activation: painting anyway", s->id);
    s->client_ready = 1;
    s->frame_id++;
    if (frame_marker(s, SURFACECMD_FRAMEACTION_BEGIN) != 0)
        return -1;
    for (int i = 0; i < d->dirty.n; i++)
        if ((s->codec ? sim_codec_emit(s->codec, d, &s->srv->font, d->dirty.r[i], &s->fb, s->peer->context)
                      : sim_frame_emit(d, &s->srv->font, d->dirty.r[i], s->bpp, &s->fb, send_strip, s)) < 0)
            return -1;
    sim_dirty_clear(&d->dirty);
    return frame_marker(s, SURFACECMD_FRAMEACTION_END);
}

/* ---- actions ---- */

static void show_result(struct sim_session *s, enum sim_cmd_kind kind, const struct sim_app_out *o)
{
    const char *lines[SIM_LINES];
    for (int i = 0; i < o->n; i++)
        lines[i] = o->line[i];
    if (kind == SIM_CMD_OPEN && o->title_rgb == SIM_RGB_DIALOG_TITLE)
        sim_desktop_show_dialog(&s->desk, lines, o->n);
    else
        sim_desktop_show_app(&s->desk, o->title, o->title_rgb, o->editor, lines, o->n);
}

/* Runs one command: work on this thread (a worker), then paint; logs the event. input_us: when
 * the input that triggered it was read. Returns -1 when the client is gone. */
static int run_command(struct sim_session *s, const struct sim_cmd *cmd, uint64_t input_us)
{
    struct sim_app_out out;
    struct sim_event ev = { .session = s->id, .user = s->user, .action = sim_cmd_name(cmd->kind),
                            .input_us = input_us };
    if (cmd->kind == SIM_CMD_NONE)
        return flush(s);
    if (cmd->kind == SIM_CMD_LOGOFF) {
        s->logoff = !s->srv->opts->ignore_logoff;
        return s->logoff ? 0 : flush(s);
    }
    ev.seq = ++s->desk.seq;
    ev.work_start_us = clock_now_us();
    if (cmd->kind == SIM_CMD_COPYIN || cmd->kind == SIM_CMD_COPYOUT) {
        if (sim_drive_begin(s->drive, cmd, s->dir, ev.seq, &out) == 0) {
            s->copy_ev = ev;             /* painted and logged by copy_step() */
            return 0;
        }
        ev.ok = 0;
    } else if (cmd->kind == SIM_CMD_APPSTART) {
        ev.ok = sim_appstart_run(s->dir, s->srv->opts->io_fairshare, ev.seq, &out) == 0;
    } else {
        ev.ok = sim_app_run(cmd, s->dir, s->srv->opts->work_scale, ev.seq, &out) == 0;
    }
    ev.work_end_us = clock_now_us();
    show_result(s, cmd->kind, &out);
    s->pacing = 1;
    s->write_wait_us = 0;
    int rc = flush(s);
    if (rc == 0)
        rc = sim_session_write_out(s, &s->write_wait_us);
    s->pacing = 0;
    ev.frame_sent_us = clock_now_us();
    ev.write_wait_us = s->write_wait_us;
    sim_eventlog_write(s->srv->elog, &ev);
    return rc;
}

/* --input-log: one line per press, as decoded: the key, the modifiers held after it, the
 * character it types ("-" for none); Unicode presses as U+XXXX. */
static void log_input(struct sim_session *s, const struct sim_input *in, const struct sim_kbd_key *k)
{
    char line[160], mods[40];
    int n;
    if (!s->srv->ilog || (in->flags & KBD_FLAGS_RELEASE))
        return;
    if (in->unicode) {
        n = snprintf(line, sizeof line, "session=%u unicode=U+%04X\n", s->id, in->code);
    } else {
        char c = sim_kbd_char(k, s->desk.mods);
        char cs[8] = "-";
        if (c)
            snprintf(cs, sizeof cs, "0x%02X", (unsigned char)c);
        sim_kbd_mods_name(s->desk.mods, mods, sizeof mods);
        n = k ? snprintf(line, sizeof line, "session=%u key=%s mods=%s char=%s\n", s->id, k->name, mods, cs)
              : snprintf(line, sizeof line, "session=%u key=unknown:0x%03X\n", s->id,
                         (unsigned)sim_kbd_code(in->code, in->flags));
    }
    if (n > 0 && (size_t)n < sizeof line)
        sim_eventlog_write_line(s->srv->ilog, line, (size_t)n);
}

/* Commands whose work the cost model meters run on a worker thread, never on the event loop. */
static int is_work(enum sim_cmd_kind kind)
{
    return kind != SIM_CMD_NONE && kind != SIM_CMD_LOGOFF && kind != SIM_CMD_COPYIN && kind != SIM_CMD_COPYOUT;
}

/* Runs a command now, or (work = 0 and it does work) keeps it in s->cmd for a worker. */
static int command(struct sim_session *s, const struct sim_cmd *cmd, int work, uint64_t input_us)
{
    if (work || !is_work(cmd->kind))
        return run_command(s, cmd, input_us);
    s->cmd = *cmd;
    s->cmd_input_us = input_us;
    s->has_cmd = 1;
    return 0;
}

static int run_input(struct sim_session *s, const struct sim_input *in, int work)
{
    struct sim_cmd cmd;
    enum sim_key_result r;
    if (in->unicode) {
        log_input(s, in, NULL);
        if (in->flags & KBD_FLAGS_RELEASE || in->code > 126)
            return 0;
        r = sim_desktop_char(&s->desk, (char)in->code, &cmd);
    } else {
        uint32_t code = sim_kbd_code(in->code, in->flags);
        r = sim_desktop_key(&s->desk, code, !(in->flags & KBD_FLAGS_RELEASE), &cmd);
        log_input(s, in, sim_kbd_decode(code));
    }
    if (r == SIM_KEY_COMMAND)
        return command(s, &cmd, work, in->read_us);
    if (r == SIM_KEY_OPEN_DIALOG) {
        memset(&cmd, 0, sizeof cmd);
        cmd.kind = SIM_CMD_OPEN;
        return command(s, &cmd, work, in->read_us);
    }
    return 0;
}

/* A copy in progress: progress or the result window. Returns -1 when the client is gone. */
static int copy_step(struct sim_session *s)
{
    struct sim_app_out out;
    int paint, r = sim_drive_step(s->drive, &out, &paint);
    if (!paint)
        return 0;
    if (r != 0)
        s->copy_ev.work_end_us = clock_now_us();
    show_result(s, SIM_CMD_COPYIN, &out);
    int rc = flush(s);
    if (r != 0) {
        s->copy_ev.ok = r > 0;
        s->copy_ev.frame_sent_us = clock_now_us();
        sim_eventlog_write(s->srv->elog, &s->copy_ev);
    }
    return rc;
}

int sim_session_drain(struct sim_session *s, int work)
{
    int rc = 0;
    if (s->has_cmd) {
        if (!work)
            return SIM_DRAIN_WORK;
        s->has_cmd = 0;
        if ((rc = run_command(s, &s->cmd, s->cmd_input_us)) != 0)
            return rc;
    }
    if (sim_drive_busy(s->drive) && (rc = copy_step(s)) != 0)
        return rc;
    if (sim_drive_busy(s->drive))   /* input waits for the copy, like a busy desktop */
        return 0;
    int i = 0;
    for (; i < s->qn && rc == 0 && !s->logoff && !s->has_cmd && !sim_drive_busy(s->drive); i++)
        rc = run_input(s, &s->q[i], work);
    memmove(s->q, s->q + i, (size_t)(s->qn - i) * sizeof s->q[0]);
    s->qn -= i;
    if (rc == 0 && s->has_cmd)
        return SIM_DRAIN_WORK;      /* painted by the worker, with the command's result */
    if (rc == 0 && !s->logoff)
        rc = flush(s);
    return rc;
}

uint64_t sim_session_wake_us(const struct sim_session *s, uint64_t now)
{
    if (sim_drive_busy(s->drive))
        return SIM_COPY_TICK_US;
    if (s->activated && !s->client_ready) {
        uint64_t due = s->activated_us + SIM_HOLD_US;
        return due > now ? due - now : 1;
    }
    return 0;
}

void sim_session_queue(struct sim_session *s, uint16_t flags, uint16_t code, int unicode)
{
    if (s->qn == SIM_QUEUE) {
        log_ratelimited(LOG_WARN, "sim_queue", "session %u: input queue full, key dropped", s->id);
        return;
    }
    s->q[s->qn++] = (struct sim_input){ flags, code, unicode, clock_now_us() };
}

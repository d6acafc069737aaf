/* input.c -- the RDP session as the interpreter's driver (driver.h): keys, Unicode and pointer
 * events through FreeRDP's input, the screen and PNGs from screen.c, and the repaint request a
 * real client makes when its window shows again. Loop thread only. */
#include "agent/rdp/input.h"

#include <freerdp/freerdp.h>
#include <freerdp/input.h>

#include "agent/engine/loopwatch.h"
#include "agent/rdp/screen.h"
#include "agent/rdp/state.h"
#include "common/log.h"

static int live(const struct rdp_session *s)
{
    return s->inst && !s->l.finish_pending &&
           (s->l.state == SESSION_ST_LOGON || s->l.state == SESSION_ST_RUNNING ||
            s->l.state == SESSION_ST_LOGOFF);
}

/* An input event went out (ok) or not; the send is watched for loop stalls. */
static int sent(const struct rdp_session *s, BOOL ok, const struct loopwatch_mark *m)
{
    loopwatch_end(m, "sending input", s->l.index);
    return ok ? 0 : -1;
}

static int op_key(void *sess, uint32_t code, int down)
{
    struct rdp_session *s = sess;
    struct loopwatch_mark m;
    if (!live(s))
        return -1;
    loopwatch_begin(&m);
    return sent(s, freerdp_input_send_keyboard_event_ex(s->inst->input, down ? TRUE : FALSE, code), &m);
}

static int op_unicode(void *sess, uint16_t c, int down)
{
    struct rdp_session *s = sess;
    struct loopwatch_mark m;
    if (!live(s))
        return -1;
    loopwatch_begin(&m);
    return sent(s, freerdp_input_send_unicode_keyboard_event(s->inst->input, down ? 0 : KBD_FLAGS_RELEASE, c), &m);
}

static int op_mouse(void *sess, uint16_t flags, uint16_t x, uint16_t y)
{
    struct rdp_session *s = sess;
    struct loopwatch_mark m;
    if (!live(s))
        return -1;
    loopwatch_begin(&m);
    return sent(s, freerdp_input_send_mouse_event(s->inst->input, flags, x, y), &m);
}

static int op_screen(void *sess, struct screen_view *out)
{
    return rdp_screen_view(sess, out);
}

static int op_save_png(void *sess, const char *path)
{
    return rdp_screen_save_png(sess, path);
}

/* What a real client does when its window shows again: Suppress Output "allow" for the whole
 * desktop, then Refresh Rect for it. */
static int op_refresh(void *sess)
{
    struct rdp_session *s = sess;
    if (!live(s))
        return -1;
    rdpSettings *st = s->inst->settings;
    RECTANGLE_16 all = { 0, 0, (UINT16)(st->DesktopWidth - 1), (UINT16)(st->DesktopHeight - 1) };
    rdpUpdate *u = s->inst->update;
    BOOL ok = TRUE;
    if (u->SuppressOutput)
        ok &= u->SuppressOutput(s->inst->context, 1, &all);
    if (u->RefreshRect)
        ok &= u->RefreshRect(s->inst->context, 1, &all);
    log_debug("session %u (%s): no paint during logon, asked for a repaint", s->l.index, s->l.user);
    return ok ? 0 : -1;
}

/* The driver contract spells RDP's values out (driver.h); they must be FreeRDP's. */
_Static_assert(DRIVER_PTR_MOVE == PTR_FLAGS_MOVE && DRIVER_PTR_DOWN == PTR_FLAGS_DOWN &&
               DRIVER_PTR_BUTTON1 == PTR_FLAGS_BUTTON1 && DRIVER_PTR_BUTTON2 == PTR_FLAGS_BUTTON2 &&
               DRIVER_PTR_BUTTON3 == PTR_FLAGS_BUTTON3 && DRIVER_KEY_EXTENDED == KBDEXT,
               "driver.h values differ from FreeRDP's");

/* Inside fd_cb: when the bytes it reads reached the socket; outside it (a frame delivered by
 * its own timer), 0: the paint's data is taken as ready now. */
static uint64_t op_ready_us(void *sess)
{
    const struct rdp_session *s = sess;
    return s->ready_us;
}

const struct driver_ops rdp_driver = {
    .key = op_key, .unicode = op_unicode, .mouse = op_mouse,
    .screen = op_screen, .save_png = op_save_png, .refresh = op_refresh, .ready_us = op_ready_us,
};

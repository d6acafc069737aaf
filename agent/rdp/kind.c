/* kind.c -- the RDP kind's table for the engine (kind.h) and what FreeRDP needs once per process
 * before the first connect: WLog's level and output (clean logoffs' errors demoted), its loggers
 * made on one thread, only the codecs a load client uses (all in compat/). */
#include "agent/rdp/kind.h"

#include <stdlib.h>

#include <winpr/wlog.h>

#include "agent/driver/driver.h"
#include "agent/rdp/drives.h"
#include "agent/rdp/input.h"
#include "agent/rdp/screen.h"
#include "agent/rdp/session.h"
#include "common/log.h"
#include "compat/client_codecs.h"
#include "compat/codec_threads.h"
#include "compat/wlog_loggers.h"
#include "compat/wlog_logoff.h"

static void freerdp_process_setup(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    wLog *root = WLog_GetRoot();
    if (!getenv("WLOG_LEVEL"))
        WLog_SetLogLevel(root, WLOG_WARN);
    /* FreeRDP's lines on stderr (stdout carries JSON records in standalone mode), but the errors
     * every clean logoff ends with */
    wlog_logoff_install();
    /* before the first connection: WinPR reads the RemoteFX thread setting once */
    codec_threads_off();
    wlog_loggers_create();
    client_codecs_init();
}

static int kind_init(const struct session_host *h, void **kind)
{
    (void)h;
    *kind = NULL;
    freerdp_process_setup();
    return 0;
}

static void kind_free(void *kind)
{
    (void)kind;
}

/* A workload's client drive files are made by its first session's connect, on a connect thread
 * (session.c): writing them takes about 1 s per 300 MB, which must not stall the loop. */
static void *create(void *kind, const struct session_host *h, const struct engine_session_spec *spec)
{
    (void)kind;
    struct rdp_session *s = rdp_session_new(h, spec);
    if (!s)
        log_error("session %u: out of memory", spec->session_index);
    return s;
}

static void start(void *s) { rdp_session_start(s); }
static void logoff(void *s) { rdp_session_logoff(s); }
static void kill_now(void *s, enum failure_reason r, const char *d) { rdp_session_kill(s, r, d); }
static const struct session_life *life(const void *s) { return rdp_session_life(s); }
static int screen(void *s, struct screen_view *out) { return rdp_screen_view(s, out); }
static int save_png(void *s, const char *path) { return rdp_screen_save_png(s, path); }
static void free_session(void *s) { rdp_session_free(s); }

const struct session_ops rdp_session_ops = {
    .name = "rdp", .kind_init = kind_init, .kind_free = kind_free,
    .create = create, .start = start, .logoff = logoff, .kill = kill_now, .life = life,
    .screen = screen, .save_png = save_png, .free = free_session, .driver = &rdp_driver,
};

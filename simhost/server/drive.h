/* drive.h -- the server side of client-drive redirection: FreeRDP's rdpdr server channel per
 * session, and the run-box commands that copy through it.
 *
 *   copyin NAME FILE         reads FILE from client drive NAME, writes it to the session's
 *                            directory, checks every byte against the drive_gen stream of FILE
 *   copyout NAME FILE SIZE   writes SIZE bytes of FILE's drive_gen stream to client drive NAME
 *
 * A copy runs asynchronously: requests and completions go through FreeRDP's rdpdr server thread;
 * the session loop keeps pumping the channel manager (sim_drive_check) and asks for progress
 * (sim_drive_step), which paints a progress window and finally a result or error window. No
 * whole-file buffer: a few requests of at most 64 KiB are in flight. A copy in learns the file's
 * size from the client first (FileStandardInformation) and never reads past its end. */
#ifndef SIM_DRIVE_H
#define SIM_DRIVE_H

#include <freerdp/peer.h>
#include <stdint.h>

#include "simhost/desktop/apps.h"
#include "simhost/desktop/cmd.h"
#include "simhost/server/opts.h"

#define SIM_RGB_COPY_BUSY  0x78909Cu   /* progress window title */
#define SIM_RGB_COPYIN_TITLE  0x00838Fu
#define SIM_RGB_COPYOUT_TITLE 0x283593u

#define SIM_DRIVE_STALL_S 30           /* a copy with no completion for this long fails */
#define SIM_DRIVE_WAIT_DEVICE_S 5      /* how long a copy waits for drive NAME to be announced */

struct sim_drive;

/* The session's channel manager, created in the peer's ContextNew (ctx = the peer's context);
 * mode is an enum sim_drives_mode (opts.h). NULL on failure (copies then report that drive redirection is
 * unavailable). */
struct sim_drive *sim_drive_new(rdpContext *ctx, int mode);
/* After logon: starts the rdpdr server if the client joined the rdpdr channel (and drives are
 * enabled). Failures only mean copies will report an error. */
void sim_drive_logon(struct sim_drive *d, unsigned session_id);
/* Adds the channel manager's event handle; returns the number added (0 or 1). */
DWORD sim_drive_handles(struct sim_drive *d, HANDLE *h, DWORD room);
/* Pumps the channel manager (sends what the rdpdr thread queued). Returns -1 if it failed. */
int sim_drive_check(struct sim_drive *d);
/* Starts a copy. Returns 0 (running: call sim_drive_step), or -1 with an error window in out. */
int sim_drive_begin(struct sim_drive *d, const struct sim_cmd *cmd, const char *dir, unsigned seq,
                    struct sim_app_out *out);
/* While a copy runs: 0 = still running (out holds a progress window when *paint is set), 1 = done
 * ok, -1 = failed (out holds the result or error window; *paint is set). */
int sim_drive_step(struct sim_drive *d, struct sim_app_out *out, int *paint);
/* 1 while a copy runs. */
int sim_drive_busy(const struct sim_drive *d);
/* Stops the channel thread and frees everything (NULL accepted). */
void sim_drive_free(struct sim_drive *d);

#endif
